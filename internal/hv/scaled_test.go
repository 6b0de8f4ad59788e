package hv

import (
	"math"
	"math/big"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestWideArithmetic works the wide numbers of uncoveredWide by hand,
// where a float64 would overflow or underflow.
func TestWideArithmetic(t *testing.T) {
	for _, tc := range []struct {
		name      string
		got, want wide
	}{
		{"3 − 1", gap(3, 1), wide{0.5, 2}},
		{"1 − 2^-1074", gap(1, -math.SmallestNonzeroFloat64), wide{0.5, 1}},
		// Twice the difference of the halves: 2·MaxFloat64 = (1 − 2^-53)·2^1025.
		{"MaxFloat64 − (−MaxFloat64)", gap(math.MaxFloat64, -math.MaxFloat64), wide{1 - 0x1p-53, 1025}},
		{"0x1p1023 − (−0x1p1023)", gap(0x1p1023, -0x1p1023), wide{0.5, 1025}},
		{"2^-600 · 2^-600", wide{0.5, -599}.times(wide{0.5, -599}), wide{0.5, -1199}},
		{"0.75·2^3 · 0.75·2^4", wide{0.75, 3}.times(wide{0.75, 4}), wide{0.5625, 7}},
		{"2^1000 · 2^1000", wide{0.5, 1001}.times(wide{0.5, 1001}), wide{0.5, 2001}},
		{"0 · 2^1000", wide{}.times(wide{0.5, 1001}), wide{}},
		{"2^1000 · 0", wide{0.5, 1001}.times(wide{}), wide{}},
		{"2^-1000 + 2^1000·0", wide{0.5, -999}.plus(wide{0.5, 1001}.times(wide{})), wide{0.5, -999}},
		{"0 + 0.75·2^3", wide{}.plus(wide{0.75, 3}), wide{0.75, 3}},
		{"0.75·2^3 + 0", wide{0.75, 3}.plus(wide{}), wide{0.75, 3}},
		{"0.5·2^1 + 0.75·2^3", wide{0.5, 1}.plus(wide{0.75, 3}), wide{0.875, 3}},
		{"0.75·2^3 + 0.5·2^1", wide{0.75, 3}.plus(wide{0.5, 1}), wide{0.875, 3}},
		{"0.75·2^3 + 0.75·2^3", wide{0.75, 3}.plus(wide{0.75, 3}), wide{0.75, 4}},
		{"2^-1100 + 2^-1101", wide{0.5, -1099}.plus(wide{0.5, -1100}), wide{0.75, -1099}},
		{"a term below the other's ulp", wide{0.5, 1}.plus(wide{0.5, -100}), wide{0.5, 1}},
		{"2^1000 + 2^-1000", wide{0.5, 1001}.plus(wide{0.5, -999}), wide{0.5, 1001}},
		{"2^-1000 + 2^1000", wide{0.5, -999}.plus(wide{0.5, 1001}), wide{0.5, 1001}},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %v; want %v", tc.name, tc.got, tc.want)
		}
	}
}

// TestUncoveredWideIsExact draws boxes and rows inside them, some on its
// walls, of ordinary magnitudes and down to 2^-1000: the wide sum must be
// within a few ulps a term of the box less the exact volume the rows cover
// (exactGrid, with the box's corner as the reference point).
func TestUncoveredWideIsExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := rapid.IntRange(1, 4).Draw(t, "d")
		k := rapid.IntRange(0, 6).Draw(t, "k")
		scale := rapid.SampledFrom([]int{0, -300, -1000}).Draw(t, "scale")
		origin := make([]float64, d)
		p := make([]float64, d)
		for j := range p {
			origin[j] = math.Ldexp(rapid.Float64Range(-4, 0).Draw(t, "origin"), scale)
			p[j] = origin[j] + math.Ldexp(rapid.Float64Range(0.5, 8).Draw(t, "extent"), scale)
		}
		lim := make([]float64, 0, k*d)
		for range k {
			for j := range d {
				lim = append(lim, rapid.OneOf(
					rapid.Float64Range(origin[j], p[j]),
					rapid.Just(p[j]), rapid.Just(origin[j]),
				).Draw(t, "coordinate"))
			}
		}
		box := big.NewRat(1, 1)
		for j := range p {
			box.Mul(box, new(big.Rat).Sub(rat(p[j]), rat(origin[j])))
		}
		covered, _ := exactGrid(lim, d, slices.Repeat([]bool{true}, d), origin)
		want := new(big.Rat).Sub(box, covered)
		w := uncoveredWide(p, origin, lim)
		got := new(big.Rat).SetFloat64(w.m)
		if w.e > 0 {
			got.Mul(got, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(w.e))))
		} else {
			got.Quo(got, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(-w.e))))
		}
		diff := new(big.Rat).Sub(got, want)
		diff.Abs(diff)
		if diff.Cmp(new(big.Rat).Mul(box, big.NewRat(1, 1<<40))) > 0 {
			t.Fatalf("uncoveredWide = %v·2^%d; exact %s", w.m, w.e, want.FloatString(30))
		}
	})
}

// TestMagnitudeKey: the least key of a set of values is its least non-zero
// magnitude, whatever the signs; zeros come after every other value, NaN
// after those.
func TestMagnitudeKey(t *testing.T) {
	for _, tc := range []struct {
		values []float64
		want   float64
	}{
		{[]float64{3, -0x1p-500, 0, 2}, 0x1p-500},
		{[]float64{0, math.Copysign(0, -1), -math.SmallestNonzeroFloat64}, math.SmallestNonzeroFloat64},
		{[]float64{-1, math.Inf(-1), math.NaN()}, 1},
		{[]float64{math.Inf(1), math.NaN()}, math.Inf(1)},
		{[]float64{0, 0}, 0},
	} {
		least := uint64(math.MaxUint64)
		for _, v := range tc.values {
			least = min(least, magnitudeKey(v))
		}
		if got := magnitudeOf(least); got != tc.want {
			t.Errorf("least magnitude of %v = %v; want %v", tc.values, got, tc.want)
		}
	}
}

// TestUnderflowByHand measures rows whose first three extents are near
// 2^-394, whose product 2^-1182 a float64 holds only as 0, times a fourth
// extent H of 2^1000. The volume and the shares are worked in V = 2^-182,
// the box of R0 = (t, t, t, H) for t = 2^-394, H = 2^1000: R1 = (2t, t, t,
// H) is 2V and covers R0, R2 = (1.5t, 2t, t, H) is 3V and meets R1 in
// (1.5t, t, t, H), 1.5V. So the prefixes measure V, 2V and 3.5V, R0 keeps
// nothing, R1 keeps 3.5V − 3V and R2 3.5V − 2V. A first row with a value on
// the reference (extent 0, outside the box) must not hide the risk from
// History.
//
// The same rows again with the fourth column's reference at −2^999 and
// its values at 2^999: the extents are the same, and so must the answers
// be (magnitudeSpan bounds the extents, not the coordinates).
func TestUnderflowByHand(t *testing.T) {
	const tv, V = 0x1p-394, 0x1p-182
	up := []bool{true, true, true, true}
	for _, w := range []struct{ ref, value float64 }{{0, 0x1p1000}, {-0x1p999, 0x1p999}} {
		ref := []float64{0, 0, 0, w.ref}
		H := w.value
		values := []float64{
			0, tv, tv, H, // on the reference in the first column
			tv, tv, tv, H,
			2 * tv, tv, tv, H,
			1.5 * tv, 2 * tv, tv, H,
		}
		if got := volumeOf(values[4:8], 4, up, ref); got != V {
			t.Errorf("ref %v: Volume of one row = %v; want %v", ref, got, V)
		}
		if got, want := volumeOf(values, 4, up, ref), 3.5*V; got != want {
			t.Errorf("ref %v: Volume = %v; want %v", ref, got, want)
		}
		if got, want := sharesOf(values, 4, up, ref), []float64{0, 0, 0.5 * V, 1.5 * V}; !slices.Equal(got, want) {
			t.Errorf("ref %v: Contributions = %v; want %v", ref, got, want)
		}
		if got, want := historyOf(values, 4, up, ref), []float64{0, V, 2 * V, 3.5 * V}; !slices.Equal(got, want) {
			t.Errorf("ref %v: History = %v; want %v", ref, got, want)
		}
	}
}

// TestScaledExclusiveOverAnOverflowingGap: a gap of 2·MaxFloat64 (from a
// reference at −MaxFloat64) beside the least subnormal. A's extents are
// 2·MaxFloat64, 2, 2^-1074 and B's MaxFloat64/2, 1, 1.5; they share
// (MaxFloat64/2)·1·2^-1074, so A keeps MaxFloat64·2^-1074·(4 − 1/2), which
// is 3.5·(1 − 2^-53)·2^1024·2^-1074 = 7·(1 − 2^-53)·2^-51, and B its box
// less a subnormal.
func TestScaledExclusiveOverAnOverflowingGap(t *testing.T) {
	const huge = math.MaxFloat64
	values := []float64{huge, 2, math.SmallestNonzeroFloat64, -huge / 2, 1, 1.5}
	maximize, ref := []bool{true, true, true}, []float64{-huge, 0, 0}
	want := []float64{7 * (1 - 0x1p-53) * 0x1p-51, huge / 2 * 1.5}
	got := sharesOf(values, 3, maximize, ref)
	if !slices.EqualFunc(got, want, func(a, b float64) bool { return math.Abs(a-b) <= 0x1p-50*b }) {
		t.Errorf("Contributions = %v; want %v", got, want)
	}
}

// TestUnderflowOfGapsByHand: no value is tiny enough for its own products
// to underflow, but the gaps between them are. With a = 2^-309 and u its
// ulp, 2^-361, row A = (a+u, a+u, a+u, H) keeps only the cube (a, a+u]³
// times H = 2^1000 that C, D and E, each a in one of the first three
// columns and a+u in the others, leave: u³·H = 2^-83, where u³ alone is
// 2^-1083, below the least subnormal. A covers C, D and E.
func TestUnderflowOfGapsByHand(t *testing.T) {
	const a, H = 0x1p-309, 0x1p1000
	b := math.Nextafter(a, 1) // a + u
	up := []bool{true, true, true, true}
	values := []float64{
		b, b, b, H,
		b, b, a, H,
		b, a, b, H,
		a, b, b, H,
	}
	if got, want := sharesOf(values, 4, up, make([]float64, 4)), []float64{0x1p-83, 0, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("Contributions = %v; want %v", got, want)
	}
	// An unbounded row Z = (+Inf, a, a, H) first: only it reaches past b
	// in the first column, so it keeps an unbounded share, and it covers
	// nothing of A's cube, whose second and third columns lie above a. A
	// keeps u³·H, measured again although another row has an infinite
	// value (the check reads A's own row).
	withZ := append([]float64{math.Inf(1), a, a, H}, values...)
	if got, want := sharesOf(withZ, 4, up, make([]float64, 4)), []float64{math.Inf(1), 0x1p-83, 0, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("Contributions with an unbounded row first = %v; want %v", got, want)
	}
}

// TestUnderflowBesideAFarReference: one row of three columns whose first
// product of gaps falls into the subnormals, with the reference far from
// the values in one column, so that an extent is not a value.
//
//   - Extents x = (1+2^-52)·2^-540, y = 2^-520 and 0 − (−2^500) = 2^500
//     (a value of 0, the reference at −2^500) make (1+2^-52)·2^-560; x·y
//     alone, (1+2^-52)·2^-1060, keeps no digit below 2^-1074 and loses the
//     2^-52. Only the largest extent, 2^500, raises the threshold under
//     which Contributions and History measure again above that rounded
//     result: read as value plus reference (−2^500, below 0), it would let
//     2^-560 stand.
//   - Extents 2^-600 − (−2^-600) = 2^-599 twice and 2^1000: 2^-198, where
//     2^-599·2^-599 underflows to 0. History's first check reads the
//     least extent, 2^-599; read as value plus reference (0 in both
//     columns), no column would look small.
func TestUnderflowBesideAFarReference(t *testing.T) {
	up := []bool{true, true, true}
	for _, tc := range []struct {
		name        string
		values, ref []float64
		want        float64
	}{
		{"x·y underflows, z from a far reference", []float64{math.Nextafter(0x1p-540, 1), 0x1p-520, 0}, []float64{0, 0, -0x1p500}, math.Nextafter(0x1p-560, 1)},
		{"gaps twice the values", []float64{0x1p-600, 0x1p-600, 0x1p1000}, []float64{-0x1p-600, -0x1p-600, 0}, 0x1p-198},
	} {
		if got := volumeOf(tc.values, 3, up, tc.ref); got != tc.want {
			t.Errorf("%s: Volume = %v; want %v", tc.name, got, tc.want)
		}
		if got := sharesOf(tc.values, 3, up, tc.ref); !slices.Equal(got, []float64{tc.want}) {
			t.Errorf("%s: Contributions = %v; want [%v]", tc.name, got, tc.want)
		}
		if got := historyOf(tc.values, 3, up, tc.ref); !slices.Equal(got, []float64{tc.want}) {
			t.Errorf("%s: History = %v; want [%v]", tc.name, got, tc.want)
		}
	}
}

// TestScaledExclusiveAtTheCancellationBound: the box from 0 to p = (1, 1)
// less the box of one row q = (a, b), a = 1 − 2^-53. scaledExclusive
// takes box − (float volume covered) while that keeps 2^-12 of the box or
// more (lostToCancellation), and the sum of uncoveredWide below. Scaled,
// p's extents are 1/2 each, the box 1/4, and every scaled number is the
// unscaled one over 4, so the arithmetic below is unscaled.
//
//   - b = 1 − 2^-12 + 2^-53: ab = 1 − 2^-12 + 2^-65 − 2^-106 rounds (the
//     floats below 1 are 2^-53 apart) to 1 − 2^-12, and 1 − fl(ab) =
//     2^-12, exactly the bound, stands. The exact 2^-12 − 2^-65 + 2^-106
//     would round to 2^-12 − 2^-65, the float just below.
//   - b = 1 − 2^-12 + 2^-52: ab = 1 − 2^-12 + 2^-53 + 2^-65 − 2^-105
//     rounds to 1 − 2^-12 + 2^-53, so 1 − fl(ab) = 2^-12 − 2^-53, under
//     the bound. The wide sum is the slab above b, 1·(1 − b) = 2^-12 −
//     2^-52, plus the one below it, (1 − a)·b = 2^-53 − 2^-65 + 2^-105:
//     2^-12 − 2^-53 − 2^-65 + 2^-105, which rounds (the floats below 2^-12
//     are 2^-65 apart) to 2^-12 − 2^-53 − 2^-65.
func TestScaledExclusiveAtTheCancellationBound(t *testing.T) {
	const a = 1 - 0x1p-53
	for _, tc := range []struct {
		name    string
		b, want float64
	}{
		{"at 2^-12 of the box", 1 - 0x1p-12 + 0x1p-53, 0x1p-12},
		{"under 2^-12 of the box", 1 - 0x1p-12 + 0x1p-52, 0x1p-12 - 0x1p-53 - 0x1p-65},
	} {
		var l limiter
		got := scaledExclusive(&l, []float64{1, 1}, []float64{0, 0}, []float64{a, tc.b}, 2, []int{0}, -1)
		if got != tc.want {
			t.Errorf("%s: scaledExclusive = %v; want %v", tc.name, got, tc.want)
		}
	}
}

// TestUnderflowRisk: d columns whose least magnitude has binary exponent b
// risk an underflow when d·(b − 54) < −1022. With d = 7, b = −92 gives
// 7·(−146) = −1022, no risk; 2^-93 = 0.5·2^-92 has b = −92, the float
// below it b = −93, 7·(−147) = −1029. One or two columns never do.
func TestUnderflowRisk(t *testing.T) {
	for _, tc := range []struct {
		least float64
		dims  int
		want  bool
	}{
		{0x1p-93, 7, false},
		{math.Nextafter(0x1p-93, 0), 7, true},
		{math.SmallestNonzeroFloat64, 2, false},
		{math.SmallestNonzeroFloat64, 3, true}, // 3·(−1073 − 54) = −3381
		{1, 3, false},                          // 3·(1 − 54) = −159
	} {
		if got := underflowRisk(tc.least, tc.dims); got != tc.want {
			t.Errorf("underflowRisk(%v, %d) = %v; want %v", tc.least, tc.dims, got, tc.want)
		}
	}
}

// TestMagnitudeSpanByHand: rows (3, 2^-600) and (+Inf, 5) from the origin
// (0, 0). Column 0's least magnitude 3 = 0.75·2^2 adds 2 − 54 = −52 to
// low; its largest finite extent 3 has exponent 2, and the infinite one
// counts as 3 + 3 = 6 = 0.75·2^3, so it adds 3 to high. Column 1's least
// magnitude 2^-600 = 0.5·2^-599 adds −599 − 54 = −653, its largest extent
// 5 = 0.625·2^3 adds 3: low = −705, high = 6.
//
// From the origin (−4, 2^-700) with rows (−3, 1) and (+Inf, 2): column 0's
// least magnitude 3 adds −52, its largest extent 1 = 0.5·2^1 and +Inf
// counted as 1 + 1 = 2 = 0.5·2^2 add 2; column 1's least magnitude is the
// origin's, 2^-700 = 0.5·2^-699, adding −753, and its largest extent
// 2 − 2^-700 rounds to 2 = 0.5·2^2, adding 2: low = −805, high = 4.
func TestMagnitudeSpanByHand(t *testing.T) {
	for _, tc := range []struct {
		pts, origin []float64
		low, high   int
	}{
		{[]float64{3, 0x1p-600, math.Inf(1), 5}, []float64{0, 0}, -705, 6},
		{[]float64{-3, 1, math.Inf(1), 2}, []float64{-4, 0x1p-700}, -805, 4},
	} {
		low, high := magnitudeSpan(tc.pts, tc.origin, 2)
		if low != tc.low || high != tc.high {
			t.Errorf("magnitudeSpan(%v, %v) = %d, %d; want %d, %d", tc.pts, tc.origin, low, high, tc.low, tc.high)
		}
	}
}

// TestUnderflowed: a measure may have lost digits only when low is under
// −1022 and the measure under rows·2^(high−960), both strictly.
func TestUnderflowed(t *testing.T) {
	for _, tc := range []struct {
		v               float64
		rows, low, high int
		want            bool
	}{
		{0, 1, -1022, 0, false}, // products of gaps stay normal
		{0, 1, -1023, 0, true},
		{0x1p-960, 1, -1023, 0, false},
		{math.Nextafter(0x1p-960, 0), 1, -1023, 0, true},
		{0x1p-100, 1, -1023, 0, false},
		{0x1p-100, 1, -2000, 860, false}, // 2^(860−960)
		{math.Nextafter(0x1p-100, 0), 1, -2000, 860, true},
		{0x1p-958, 5, -1023, 0, true}, // under 5·2^-960 = 1.25·2^-958
		{0x1p-957, 5, -1023, 0, false},
	} {
		if got := underflowed(tc.v, tc.rows, tc.low, tc.high); got != tc.want {
			t.Errorf("underflowed(%v, %d, %d, %d) = %v; want %v", tc.v, tc.rows, tc.low, tc.high, got, tc.want)
		}
	}
}
