package hv

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/spica-search/spica/internal/testkit"
)

// TestHypervolumeContributionsRescaleOverflow pins shares whose gap or
// partial product overflows although the share fits: they are finite, as
// Hypervolume is, and a share beyond MaxFloat64 stays +Inf. Each value is
// worked by hand from the extents.
func TestHypervolumeContributionsRescaleOverflow(t *testing.T) {
	const maxF = math.MaxFloat64
	tests := []struct {
		name     string
		dims     int
		values   []float64
		maximize []bool
		ref      []float64
		want     []float64
	}{
		// Extents 1.5, MaxFloat64−1 and 0.5: the partial product 1.5·MaxFloat64
		// overflows, the volume 0.75·MaxFloat64 does not.
		{"a partial product overflows", 3, []float64{5e-324, maxF, -0.5}, []bool{true, true, false}, []float64{-1.5, 1, 0}, []float64{0.75 * maxF}},
		// Extents 0.5, 0.5 and 2·MaxFloat64 (ref − x overflows): 0.5·MaxFloat64.
		{"an extent overflows", 3, []float64{0.5, 0.5, -maxF}, []bool{false, false, false}, []float64{1, 1, maxF}, []float64{maxF / 2}},
		// Row 0 spans x from −MaxFloat64 to MaxFloat64 (the gap overflows) at
		// height 2^-10: 2·MaxFloat64·2^-10; row 1 is not beyond ref in x and
		// adds nothing.
		{"two columns, beside a row outside the box", 2, []float64{maxF, 0x1p-10, -maxF, 5}, []bool{true, true}, []float64{-maxF, 0}, []float64{maxF / 512, 0}},
		// Row 1 lies inside row 0's box, so row 0 alone covers that box less
		// row 1's: 2·MaxFloat64·2^-10 − MaxFloat64·2^-11 = 3·MaxFloat64/2048;
		// row 1 adds nothing. No gap overflows (MaxFloat64 − 0 is the widest).
		{"two columns, over a dominated row", 2, []float64{maxF, 0x1p-10, 0, 0x1p-11}, []bool{true, true}, []float64{-maxF, 0}, []float64{3 * (maxF / 2048), 0}},
		// Extents 1e300, 1e300 and 1e-300 from a reference at 0, whose
		// magnitude cannot set the scale: 1e300·1e300 overflows, the share
		// 1e300 fits.
		{"the rows set the scale, not the reference", 3, []float64{1e300, 1e300, 1e-300}, []bool{true, true, true}, []float64{0, 0, 0}, []float64{1e300}},
		// 2·MaxFloat64·1 does not fit: +Inf.
		{"a share beyond MaxFloat64 stays infinite", 2, []float64{maxF, 1}, []bool{true, true}, []float64{-maxF, 0}, []float64{math.Inf(1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sharesOf(tt.values, tt.dims, tt.maximize, tt.ref)
			for i := range tt.want {
				if d := math.Abs(got[i] - tt.want[i]); !(got[i] == tt.want[i] || d <= 1e-15*tt.want[i]) {
					t.Errorf("share %d = %v, want %v", i, got[i], tt.want[i])
				}
			}
			hv := volumeOf(tt.values, tt.dims, tt.maximize, tt.ref)
			if len(tt.want) == 1 && got[0] != hv {
				t.Errorf("share of the only front row = %v, want the volume %v", got[0], hv)
			}
		})
	}
}

// TestRescaledShareUnderflowedBesideAnUnboundedRow reaches rescaleShares'
// third case, a share that overflows unscaled and underflows scaled, on
// row 1 after a row 0 that is unbounded (x = +Inf). Maximized columns,
// reference (−MaxFloat64, −2^1000); row 0 (+Inf, 0), row 1 (MaxFloat64,
// 2^-50). Row 1 lies beside row 0 in x up to MaxFloat64 and above it in
// y, so its share is the rectangle 2·MaxFloat64 by 2^-50 − 0:
// (2^1025 − 2^972)·2^-50 = 2^975 − 2^922, which fits, but the gap
// 2·MaxFloat64 overflows, so the plain share is +Inf. The scales: column
// 0's largest finite magnitude is MaxFloat64 = (1 − 2^-53)·2^1024, column
// 1's the reference's 2^1000 = 2^-1·2^1001; scaled, the rectangle is
// (2 − 2^-52) by 2^-1051, whose exact product 2^-1050 − 2^-1103 is
// subnormal (under 2^-1022) and rounds to 2^-1050, a multiple of 2^-1074.
// That is under 2^-960, so the row is measured again on its own scale;
// taking it up unmeasured would give 2^-1050·2^(1024+1001) = 2^975, its
// low bit, 2^922, lost. Row 0's share is +Inf, and must neither keep row 1
// at +Inf nor be read as part of it.
func TestRescaledShareUnderflowedBesideAnUnboundedRow(t *testing.T) {
	const maxF = math.MaxFloat64
	values := []float64{math.Inf(1), 0, maxF, 0x1p-50}
	maximize := []bool{true, true}
	ref := []float64{-maxF, -0x1p1000}
	want := 0x1p975 - 0x1p922
	// The oracle agrees on row 1 with row 0 cut to (MaxFloat64, 0), which
	// row 1 then covers, leaving row 1 the same rectangle.
	if _, excl := exactGrid([]float64{maxF, 0, maxF, 0x1p-50}, 2, maximize, ref); excl[1].Cmp(rat(want)) != 0 {
		t.Fatalf("exact share of row 1 = %v, want %v", excl[1], rat(want))
	}
	got := sharesOf(values, 2, maximize, ref)
	if !math.IsInf(got[0], 1) || got[1] != want {
		t.Errorf("shares = %v, want [+Inf %v]", got, want)
	}
}

// TestRescaledShareTakenUpExactly has a share that overflows unscaled and
// is exact scaled, which rescaleShares' second case takes up as it is
// rather than measuring it again. Maximized columns, reference (−2^1023,
// 0); row 0 (2^1023 + 2^972, 1), row 1 (3·2^1022, 3/4). Row 0 spans x
// from the reference, a gap 2^1024 + 2^972 that overflows, by y from 3/4
// to 1: (2^1024 + 2^972)/4 = 2^1022 + 2^970. Row 1 spans x from row 0,
// 2^1022 − 2^972, by 3/4: 3·(2^50 − 1)·2^970, exact. Scaled by 2^-1024
// (column 0's largest magnitude is 3·2^1022 = 3/4·2^1024) and 2^-1 (column
// 1's is 1), row 0's rectangle is (1 + 2^-52) by 1/8, exact at 1/8 + 2^-55,
// far above 2^-960. Measured again as its box less row 1's part of it, 1 +
// 2^-52 − (1 + 2^-52)·3/4, the product 3/4 + 3·2^-54 is a tie between
// 3/4 + 2^-53 and 3/4 + 2^-52, rounded to the even 3/4 + 2^-52, and the
// share would come out 2^1022, 2^970 short.
func TestRescaledShareTakenUpExactly(t *testing.T) {
	values := []float64{0x1p1023 + 0x1p972, 1, 3 * 0x1p1022, 0.75}
	maximize := []bool{true, true}
	ref := []float64{-0x1p1023, 0}
	want := []float64{0x1p1022 + 0x1p970, 3*0x1p1020 - 3*0x1p970}
	_, excl := exactGrid(values, 2, maximize, ref)
	for i, w := range want {
		if excl[i].Cmp(rat(w)) != 0 {
			t.Fatalf("exact share of row %d = %v, want %v", i, excl[i], rat(w))
		}
	}
	if got := sharesOf(values, 2, maximize, ref); !slices.Equal(got, want) {
		t.Errorf("shares = %x, want %x", got, want)
	}
}

// TestHypervolumeContributionsOfEqualUnboundedRows has two equal rows
// reaching +Inf in the last column, each hiding the other, so their shares
// are 0 although their boxes are unbounded: the sweep must not integrate a
// zero area over an infinite height (0·Inf is NaN).
func TestHypervolumeContributionsOfEqualUnboundedRows(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name   string
		values []float64
		want   []float64
	}{
		// (3,0.5,1) holds [2,3]×[0,0.5]×[0,1] alone: 0.5.
		{"and a row beside them", []float64{2, 2, inf, 2, 2, inf, 3, 0.5, 1}, []float64{0, 0, 0.5}},
		// (1,3,2) adds [0,1]×[2,3]×[0,2]: 2.
		{"and a row on each side", []float64{2, 2, inf, 2, 2, inf, 3, 0.5, 1, 1, 3, 2}, []float64{0, 0, 0.5, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sharesOf(tt.values, 3, []bool{true, true, true}, []float64{0, 0, 0})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("shares (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHypervolumeContributionsOverflowedExtentManyColumns has an extent
// MaxFloat64 − (−MaxFloat64) that overflows in both rows, so that row 0's
// limited set holds it too, in 3 to 6 columns (padded with extents of 1)
// and in the four-column matrix: the kernels must get it rescaled,
// never as +Inf (hv4d never returned on one). Row 1 lies in row 0's box and
// adds nothing; row 0 adds 2·MaxFloat64·2^-10 − 2·MaxFloat64·2^-11 =
// MaxFloat64/1024 whatever the padding.
func TestHypervolumeContributionsOverflowedExtentManyColumns(t *testing.T) {
	const maxF = math.MaxFloat64
	for dims := 3; dims <= 6; dims++ {
		values := make([]float64, 2*dims)
		maximize := make([]bool, dims)
		ref := make([]float64, dims)
		copy(values, []float64{maxF, 0x1p-10})
		copy(values[dims:], []float64{maxF, 0x1p-11})
		ref[0] = -maxF
		for j := range dims {
			maximize[j] = true
			if j >= 2 {
				values[j], values[dims+j] = 1, 1
			}
		}
		call := fmt.Sprintf("HypervolumeContributions(%v, %d, %v, %v)", values, dims, maximize, ref)
		var got []float64
		testkit.ReturnsWithin(t, call, func() { got = sharesOf(values, dims, maximize, ref) })
		if want := []float64{maxF / 1024, 0}; !(math.Abs(got[0]-want[0]) <= 1e-15*want[0] && got[1] == 0) {
			t.Errorf("%s = %v, want %v", call, got, want)
		}
	}
	// The matrix, all minimized: row 0's extents (MaxFloat64 +
	// 1e308, 1e308, 1e308, 1e308) give a share far beyond MaxFloat64, +Inf;
	// row 1 is dominated by row 0 (equal or larger everywhere), 0.
	values := []float64{-maxF, 0, 0, 0, -maxF, 1, 0, 1}
	ref := []float64{1e308, 1e308, 1e308, 1e308}
	var got []float64
	testkit.ReturnsWithin(t, "HypervolumeContributions(issue 26's matrix)", func() {
		got = sharesOf(values, 4, make([]bool, 4), ref)
	})
	if diff := cmp.Diff([]float64{math.Inf(1), 0}, got); diff != "" {
		t.Errorf("shares (-want +got):\n%s", diff)
	}
}

// TestContributions2SmallPathMatchesTheSweep holds the two-column path for
// a few rows (contributions2Small, its scratch on the stack) to the general
// one, bit for bit, on up to 60 rows (the stack's scratch, the pool's, and
// each side of nd.SortStable's insertion sort) in every mix of
// directions. Half the pools mix continuous values, ties, NaN, infinities
// and ±MaxFloat64; the other half are lattices with each column scaled by
// its own power of two, up to 2^1022, where gaps overflow, and down to
// 2^-1000, so a share can fit although its width does not: the small path
// then hands the call over to be rescaled.
func TestContributions2SmallPathMatchesTheSweep(t *testing.T) {
	const maxF = math.MaxFloat64
	special := rapid.SampledFrom([]float64{0, 1, 2, -1, math.NaN(), math.Inf(1), math.Inf(-1), maxF, -maxF, 1e300, 1e-300, -1e-300})
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 60).Draw(t, "n")
		maximize := rapid.SliceOfN(rapid.Bool(), 2, 2).Draw(t, "maximize")
		values, ref := make([]float64, 2*n), make([]float64, 2)
		if rapid.Bool().Draw(t, "scaled lattice") {
			exp := rapid.SliceOfN(rapid.SampledFrom([]int{-1000, 0, 1022}), 2, 2).Draw(t, "exponents")
			for i := range values {
				values[i] = math.Ldexp(float64(rapid.IntRange(-3, 3).Draw(t, "k")), exp[i%2])
			}
			for j := range ref {
				ref[j] = math.Ldexp(float64(rapid.IntRange(-4, 4).Draw(t, "ref")), exp[j])
			}
		} else {
			for i := range values {
				if rapid.Bool().Draw(t, "special?") {
					values[i] = special.Draw(t, "special")
				} else {
					values[i] = rapid.Float64Range(-3, 3).Draw(t, "v")
				}
			}
			for j := range ref {
				ref[j] = rapid.SampledFrom([]float64{-4, 0, 4, -1e300, 1e300}).Draw(t, "ref")
			}
		}
		small := sharesOf(values, 2, maximize, ref)
		defer func(old int) { contrib2SmallMax = old }(contrib2SmallMax)
		contrib2SmallMax = 0
		if diff := cmp.Diff(sharesOf(values, 2, maximize, ref), small); diff != "" {
			t.Fatalf("contributions2Small (+) against the general path (-):\n%s", diff)
		}
	})
}

// TestContributions2StairsByHand: three minimized rows on a staircase,
// reference (4, 4). Row 1's box [1,4]×[1,4] less row 0's [0,4]×[3,4] and
// row 2's [3,4]×[0,4] is [1,3]×[1,3], 4; row 0 keeps [0,1]×[3,4], 1; row 2
// keeps [3,4]×[0,1], 1. A row past the reference (5, 0) and a NaN row
// take no part and keep 0, and so do (4, 2) and (2, 4), on the reference
// in x and in y, whose boxes are empty: read as inside, they would break
// the staircase, as row 2 dominates (4, 2) and row 1 dominates (2, 4). The
// same rows with row 1 moved to (1, 3), level with row 0 in y, are no
// staircase, and neither is a tie in x.
func TestContributions2StairsByHand(t *testing.T) {
	maximize, origin := []bool{false, false}, [2]float64{-4, -4}
	values := []float64{0, 3, 1, 1, 3, 0, 5, 0, math.NaN(), 1, 4, 2, 2, 4}
	out := make([]float64, 7)
	if !contributions2Stairs(values, 7, maximize, origin, out) {
		t.Fatal("contributions2Stairs refused a staircase")
	}
	if diff := cmp.Diff([]float64{1, 4, 1, 0, 0, 0, 0}, out); diff != "" {
		t.Errorf("shares (-want +got):\n%s", diff)
	}
	for _, rows := range [][]float64{
		{0, 3, 1, 3, 3, 0}, // row 0 dominates row 1
		{0, 3, 0, 1, 3, 0}, // row 1 dominates row 0, a tie in x
		{0, 1, 0, 3, 3, 0}, // the same rows read the other way round
		{0, 3, 1, 1, 1, 1}, // two equal rows
	} {
		out := make([]float64, 3)
		if contributions2Stairs(rows, 3, maximize, origin, out) {
			t.Errorf("contributions2Stairs(%v) took rows that are no staircase", rows)
		}
		if diff := cmp.Diff(make([]float64, 3), out); diff != "" {
			t.Errorf("contributions2Stairs(%v) wrote out when it refused (-want +got):\n%s", rows, diff)
		}
	}
}

// TestContributions2StairsMatchesTheSweep draws staircases of up to
// contrib2StackRows rows in every mix of directions, shuffled, with steps
// of a few ulps or larger, scaled into the subnormals or up to where gaps
// overflow, some with rows past or on the reference, NaN, ±Inf or
// MaxFloat64, and some with one row moved onto another's x or y or under
// it: contributions2Stairs must take exactly the pools whose rows inside
// the box are a strict staircase (checked pair by pair), give every share
// bit for bit as the general path does (and where a share comes out +Inf,
// Contributions must still agree with the general path), and leave out
// untouched when it refuses.
func TestContributions2StairsMatchesTheSweep(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, contrib2StackRows).Draw(t, "n")
		maximize := rapid.SliceOfN(rapid.Bool(), 2, 2).Draw(t, "maximize")
		ref := []float64{rapid.Float64Range(-2, 2).Draw(t, "ref x"), rapid.Float64Range(-2, 2).Draw(t, "ref y")}
		// Oriented: x falls and y rises along the staircase, from a start
		// near the reference's corner, by steps of a few ulps or of up to
		// 1; the whole pool is then scaled by a power of two into the
		// subnormals or to where gaps overflow.
		xs, ys := make([]float64, n), make([]float64, n)
		x, y := 3.0, -3.0
		ulps := rapid.Bool().Draw(t, "ulps")
		if ulps {
			y = 3 // a few ulps from 3: inside the box, as every reference is below 2
		}
		for i := range n {
			if ulps {
				for range rapid.IntRange(1, 3).Draw(t, "ulps apart") {
					x, y = math.Nextafter(x, math.Inf(-1)), math.Nextafter(y, math.Inf(1))
				}
			} else {
				x -= rapid.Float64Range(0x1p-40, 1).Draw(t, "dx")
				y += rapid.Float64Range(0x1p-40, 1).Draw(t, "dy")
			}
			xs[i], ys[i] = x, y
		}
		scale := rapid.SampledFrom([]float64{1, 0x1p-1060, 0x1p1021}).Draw(t, "scale")
		for i := range n {
			xs[i], ys[i] = xs[i]*scale, ys[i]*scale
		}
		ref[0], ref[1] = ref[0]*scale, ref[1]*scale
		var origin [2]float64
		for j := range 2 {
			origin[j] = ref[j]
			if !maximize[j] {
				origin[j] = -ref[j]
			}
		}
		if n >= 2 && rapid.IntRange(0, 3).Draw(t, "spoil") > 0 {
			// Mostly neighbours on the staircase: the spoils that
			// can pass a check on neighbours only.
			i := rapid.IntRange(0, n-2).Draw(t, "i")
			j := i + 1
			if rapid.IntRange(0, 3).Draw(t, "far") == 0 {
				j = rapid.IntRange(0, n-1).Draw(t, "j")
			}
			if rapid.Bool().Draw(t, "swap") {
				i, j = j, i
			}
			switch rapid.IntRange(0, 2).Draw(t, "how") {
			case 0:
				xs[i] = xs[j]
			case 1:
				ys[i] = ys[j]
			default:
				xs[i], ys[i] = xs[j]-0.5, ys[j]-0.5
			}
		}
		for i := range n {
			switch rapid.IntRange(0, 29).Draw(t, "odd row") {
			case 0:
				xs[i] = math.NaN()
			case 1:
				ys[i] = -5 // below any reference
			case 2:
				xs[i] = origin[0] // on the reference: outside the box
			case 3:
				ys[i] = origin[1]
			case 4:
				xs[i] = math.Inf(1)
			case 5:
				ys[i] = math.MaxFloat64
			case 6:
				ys[i] = math.Inf(-1)
			}
		}
		values, order := make([]float64, 2*n), make([]int, n)
		for i := range order {
			order[i] = i
		}
		for p, i := range rapid.Permutation(order).Draw(t, "order") {
			values[2*p], values[2*p+1] = xs[i], ys[i]
			for j := range 2 {
				if !maximize[j] {
					values[2*p+j] = -values[2*p+j]
				}
			}
		}
		stairs := true
		for i := range n {
			for k := range n {
				a := [2]float64{xs[i], ys[i]}
				b := [2]float64{xs[k], ys[k]}
				inside := func(p [2]float64) bool { return p[0] > origin[0] && p[1] > origin[1] }
				if i != k && inside(a) && inside(b) && (a[0] == b[0] || (a[0] > b[0]) != (a[1] < b[1])) {
					stairs = false
				}
			}
		}
		out := make([]float64, n)
		took := contributions2Stairs(values, n, maximize, origin, out)
		if took != stairs {
			t.Fatalf("contributions2Stairs took the rows: %v, they are a strict staircase: %v", took, stairs)
		}
		if !took {
			if diff := cmp.Diff(make([]float64, n), out); diff != "" {
				t.Fatalf("contributions2Stairs wrote out when it refused (-want +got):\n%s", diff)
			}
			return
		}
		small := sharesOf(values, 2, maximize, ref)
		defer func(old int) { contrib2SmallMax = old }(contrib2SmallMax)
		contrib2SmallMax = 0
		want := sharesOf(values, 2, maximize, ref)
		if slices.ContainsFunc(out, isPosInf) {
			// A share of +Inf sends the call on to the general path,
			// which rescales those that only overflowed on the way.
			out = small
		}
		if diff := cmp.Diff(want, out); diff != "" {
			t.Fatalf("contributions2Stairs (+) against the general path (-):\n%s", diff)
		}
	})
}

// TestTwoColumnSmallCallsAllocateOnlyTheirOutput: on a front of
// contrib2StackRows rows, the most the stack holds, Volume allocates
// nothing and Contributions only the slice it returns; on a thousand rows,
// from the pool, Contributions still allocates only that, with
// contrib2SmallMax lowered to 1000 so that the call is the largest the
// small path takes.
func TestTwoColumnSmallCallsAllocateOnlyTheirOutput(t *testing.T) {
	defer func(old int) { contrib2SmallMax = old }(contrib2SmallMax)
	contrib2SmallMax = 1000
	maximize, ref := []bool{false, false}, []float64{2000, 2000}
	for _, n := range []int{contrib2StackRows, 1000} {
		values := make([]float64, 0, 2*n)
		for i := range n {
			values = append(values, float64(i), float64(n-i)) // all on the front
		}
		if n <= contrib2StackRows {
			checkWarmAllocs(t, "Volume", 0, func() { Volume(values, n, 2, maximize, ref) })
		}
		checkWarmAllocs(t, fmt.Sprintf("Contributions of %d rows", n), 1, func() { Contributions(values, n, 2, maximize, ref) })
	}
}

// TestOrientedRowsKeepsOnlyRowsInsideTheBox: a row is inside the box only
// when it is strictly better than the reference in every column, so a row
// with one value on the reference (a box of zero volume) is left out, as
// is a row beyond it or with NaN. Kept rows come back oriented (a
// minimized value negated) with their indices; a single column gets a
// second column of 1s over an origin of 0.
func TestOrientedRowsKeepsOnlyRowsInsideTheBox(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name       string
		dims       int
		values     []float64
		maximize   []bool
		ref        []float64
		wantPts    []float64
		wantRows   []int
		wantOrigin []float64
	}{
		// Origin (0, −4, 0). Row 0 is (1, −3, 2) oriented, inside; rows 1,
		// 2 and 3 each sit on the reference in one column (x = 0, y = −4
		// oriented, z = 0); row 4 is NaN; row 5 is (2, −1, 5), inside.
		{"three columns", 3,
			[]float64{1, 3, 2, 0, 3, 2, 1, 4, 2, 1, 3, 0, nan, 3, 2, 2, 1, 5},
			[]bool{true, false, true}, []float64{0, 4, 0},
			[]float64{1, -3, 2, 2, -1, 5}, []int{0, 5}, []float64{0, -4, 0}},
		// Origin (−4, 0). Row 0 is (−1, 2), inside; row 1 (−4, 2) and row
		// 2 (−1, 0) sit on the reference in x and in y; row 3 (−5, 2) is
		// beyond it; row 4 is (−3, 1), inside.
		{"two columns", 2,
			[]float64{1, 2, 4, 2, 1, 0, 5, 2, 3, 1},
			[]bool{false, true}, []float64{4, 0},
			[]float64{-1, 2, -3, 1}, []int{0, 4}, []float64{-4, 0}},
		// Origin 1: 3 and 2 are inside, 1 is on the reference and 0.5
		// beyond it.
		{"one column", 1,
			[]float64{3, 1, 0.5, 2},
			[]bool{true}, []float64{1},
			[]float64{3, 1, 2, 1}, []int{0, 3}, []float64{1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			origin := make([]float64, max(tt.dims, 2))
			pts, rows := orientedRows(tt.values, len(tt.values)/tt.dims, tt.dims, tt.maximize, tt.ref, origin)
			if diff := cmp.Diff(tt.wantPts, pts); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantRows, rows); diff != "" {
				t.Errorf("indices (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantOrigin, origin); diff != "" {
				t.Errorf("origin (-want +got):\n%s", diff)
			}
		})
	}
}

// TestContributions2RectangleInOneProduct: back rows that cut nothing
// from a front row's rectangle must not split it into strips, whose
// products round where the whole one is exact. The float 0.24 is 0.24 −
// 8.9e-18, and 5 times it is the float 1.2 exactly; 3 − 0.24 rounds to the
// float 2.76, 2.76 − 2.1e-16, and 5 times that is 13.8 − 1.07e-15
// exactly; the strips then sum to 15 − 1.1e-15, which rounds to 15 − 2^-49
// (1.8e-15 apart from 15), while the whole rectangle 3·5 is 15. Maximized,
// reference (0, 0).
func TestContributions2RectangleInOneProduct(t *testing.T) {
	tests := []struct {
		name   string
		values []float64
		want   []float64
	}{
		// (3, 6) keeps its box, 18, less (4, 1)'s part of it, [0,3]×[0,1]:
		// 15; (4, 1) keeps [3,4]×[0,1], 1; (0.24, 1) lies inside (3, 6)'s
		// box and on the bottom of its rectangle [0,3]×[1,6].
		{"a back row on the rectangle's bottom", []float64{3, 6, 4, 1, 0.24, 1}, []float64{15, 1, 0}},
		// (3, 6) keeps 18 less (3, 1)'s box, 3: 15; (0.24, 1) lies inside
		// (3, 1)'s box, level with it.
		{"a back row level with another", []float64{3, 6, 3, 1, 0.24, 1}, []float64{15, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			up, ref := []bool{true, true}, []float64{0, 0}
			if diff := cmp.Diff(tt.want, sharesOf(tt.values, 2, up, ref)); diff != "" {
				t.Errorf("shares (-want +got):\n%s", diff)
			}
			defer func(old int) { contrib2SmallMax = old }(contrib2SmallMax)
			contrib2SmallMax = 0
			if diff := cmp.Diff(tt.want, sharesOf(tt.values, 2, up, ref)); diff != "" {
				t.Errorf("shares on the general path (-want +got):\n%s", diff)
			}
		})
	}
}

// TestContributionsSmallPathLimits: the paths with fixed scratch take
// every row count their scratch holds and no more. contributions3Small
// takes up to contributions3SmallMax rows, but never more than its sort
// keys index, contrib3SmallIndex+1 = 65536, however large the limit;
// contributions2Small keeps its scratch on the stack up to
// contrib2StackRows = 16 rows. Both only choose the fastest path: every
// path gives the same shares, so only these bounds show an off-by-one.
func TestContributionsSmallPathLimits(t *testing.T) {
	for _, tt := range []struct {
		limit, n int
		want     bool
	}{
		{512, 0, true},
		{512, 512, true},
		{512, 513, false},
		{0, 0, true},
		{0, 1, false},
		{1 << 30, 65536, true},
		{1 << 30, 65537, false},
	} {
		t.Run(fmt.Sprintf("%d rows under a limit of %d", tt.n, tt.limit), func(t *testing.T) {
			useContributions3Path(t, tt.limit)
			if got := contributions3SmallTakes(tt.n); got != tt.want {
				t.Errorf("contributions3SmallTakes(%d) = %v, want %v", tt.n, got, tt.want)
			}
		})
	}
	for _, tt := range []struct {
		n    int
		want bool
	}{{0, true}, {1, true}, {16, true}, {17, false}, {1000, false}} {
		if got := contrib2OnStack(tt.n); got != tt.want {
			t.Errorf("contrib2OnStack(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
}

// TestSlabsByHand: slabs cuts the box from origin (0, 0, 0) to p = (4, 4,
// 4) at the heights of the rows below it, 4, 3, 2 and 1, top down, and
// hands each slab the projections of the rows above its bottom, in the
// order it met them, from one buffer sized for all four rows (2 columns
// each, 8 values), so that no append reallocates. The row level with p's
// top bounds no slab: a slab of no height is never measured, which would
// take the projection's area for nothing (and 0·+Inf is NaN where that
// area overflows).
func TestSlabsByHand(t *testing.T) {
	type call struct {
		top, h float64
		proj   []float64
		cap    int
	}
	p, origin := []float64{4, 4, 4}, []float64{0, 0, 0}
	lim := []float64{1, 3, 3, 3, 1, 2, 2, 2, 1, 1, 1, 4}
	var got []call
	slabs(p, origin, lim, func(top, h float64, proj []float64) bool {
		got = append(got, call{top, h, slices.Clone(proj), cap(proj)})
		return false
	})
	want := []call{
		{4, 3, []float64{1, 1}, 8},
		{3, 2, []float64{1, 1, 1, 3}, 8},
		{2, 1, []float64{1, 1, 1, 3, 3, 1}, 8},
		{1, 0, []float64{1, 1, 1, 3, 3, 1, 2, 2}, 8},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(call{})); diff != "" {
		t.Errorf("slabs (-want +got):\n%s", diff)
	}
}

// TestLostToCancellation: a share is measured again when it is under
// 2^-12 of its box, not at 2^-12.
func TestLostToCancellation(t *testing.T) {
	for _, tt := range []struct {
		share, box float64
		want       bool
	}{
		{0x1p-12, 1, false},
		{math.Nextafter(0x1p-12, 0), 1, true},
		{0, 1, true},
		{0.5, 1, false},
		{3, 8 * 4096, true}, // 3 < 8
		{8, 8 * 4096, false},
		{0, 0, false},
	} {
		if got := lostToCancellation(tt.share, tt.box); got != tt.want {
			t.Errorf("lostToCancellation(%v, %v) = %v, want %v", tt.share, tt.box, got, tt.want)
		}
	}
}
