package nd

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The functions here serve the other engines (ndsort, hv) and the root, not
// this package's own front: a mistake in them leaves every front test here
// passing, so each is checked directly.

// TestSelectNth checks quickselect against a sort: a[k] is the element of
// rank k, none before it larger and none after it smaller, and a is a
// reordering of what it was. Few distinct values, so pivots tie often.
func TestSelectNth(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := rapid.SliceOfN(rapid.IntRange(0, rapid.IntRange(0, 40).Draw(t, "top")), 1, 300).Draw(t, "a")
		k := rapid.IntRange(0, len(a)-1).Draw(t, "k")
		want := slices.Clone(a)
		slices.Sort(want)
		SelectNth(a, k, func(v int) int { return v })
		if a[k] != want[k] {
			t.Fatalf("a[%d] = %d, want %d (the sorted slice is %v)", k, a[k], want[k], want)
		}
		for i, v := range a {
			if i < k && v > a[k] || i > k && v < a[k] {
				t.Fatalf("a[%d] = %d on the wrong side of a[%d] = %d: %v", i, v, k, a[k], a)
			}
		}
		got := slices.Clone(a)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("SelectNth changed the elements: %v, want a reordering of %v", got, want)
		}
	})
}

func TestCovers(t *testing.T) {
	for _, tc := range []struct {
		a, b []uint64
		want bool
	}{
		{[]uint64{1, 2}, []uint64{1, 2}, true}, // equal keys cover
		{[]uint64{0, 2}, []uint64{1, 2}, true},
		{[]uint64{1, 3}, []uint64{1, 2}, false}, // larger in the last column
		{[]uint64{2, 0}, []uint64{1, 9}, false}, // larger in the first column
		{[]uint64{}, []uint64{5}, true},
		{[]uint64{4}, []uint64{4, 0}, true}, // b is read as far as a goes
	} {
		if got := Covers(tc.a, tc.b); got != tc.want {
			t.Errorf("Covers(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestLexOrder2 checks the order LexOrder2 hands to other engines against
// its contract: each row's values signed so that smaller is better, every
// row once, in lexicographic order of those; and a refusal, without a
// call, exactly where the doc says front2Small gives up. Each check orders
// by radixOrder or by bucketOrder.
func TestLexOrder2(t *testing.T) {
	pool := []float64{0, math.Copysign(0, -1), 1, 2, 2.5, -3, 1e300, -1e300, math.MaxFloat64, -math.MaxFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), 1 + 0x1p-52, 1 + 0x1p-51, 0x1p-1074}
	defer func(old int) { lexRadixMax = old }(lexRadixMax)
	rapid.Check(t, func(t *rapid.T) {
		lexRadixMax = rapid.SampledFrom([]int{0, math.MaxInt}).Draw(t, "lexRadixMax")
		n := rapid.IntRange(0, 60).Draw(t, "n")
		maximize := []bool{rapid.Bool().Draw(t, "max0"), rapid.Bool().Draw(t, "max1")}
		special := rapid.Bool().Draw(t, "special")
		values := make([]float64, 2*n)
		for i := range values {
			if special {
				values[i] = rapid.SampledFrom(pool).Draw(t, "v")
			} else {
				values[i] = float64(rapid.IntRange(-4, 4).Draw(t, "v"))
			}
		}
		// Each row's values signed so that smaller is better.
		signed := make([][2]float64, n)
		for i, v := range values {
			if maximize[i%2] {
				v = -v
			}
			signed[i/2][i%2] = v
		}
		// Where front2Small gives up: a NaN, an infinite first value, a
		// range of first values that overflows, or a running sum of the
		// signed values that meets both infinities (NaN then).
		lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
		giveUp := false
		for _, v := range signed {
			giveUp = giveUp || math.IsInf(v[0], 0)
			sum += v[0] + v[1]
			lo, hi = min(lo, v[0]), max(hi, v[0])
		}
		giveUp = giveUp || math.IsNaN(sum) || n > 0 && math.IsInf(hi-lo, 0)

		called := false
		ok := LexOrder2(values, n, maximize, func(sv [][2]float64, order []uint16) {
			called = true
			if len(order) != n {
				t.Fatalf("%d rows in the order, want %d", len(order), n)
			}
			seen := make([]bool, n)
			for k, r := range order {
				if int(r) >= n || seen[r] {
					t.Fatalf("order %v: row %d out of range or twice", order, r)
				}
				seen[r] = true
				if sv[r] != signed[r] {
					t.Fatalf("sv[%d] = %v, want %v", r, sv[r], signed[r])
				}
				if k > 0 {
					p := sv[order[k-1]]
					if p[0] > sv[r][0] || p[0] == sv[r][0] && p[1] > sv[r][1] {
						t.Fatalf("rows %d then %d: %v before %v is not lexicographic", order[k-1], r, p, sv[r])
					}
				}
			}
		})
		if ok == giveUp || called != ok {
			t.Fatalf("LexOrder2 of %v = %v (use called: %v), want %v", values, ok, called, !giveUp)
		}
	})
}

// TestRadixOrderTieAmongHighRows gives radixOrder one tie, between the last
// two of 1026 rows, numbered 1024 and 1025: their first values are equal
// and the later row's second value is smaller, so it must come first,
// which only the settling of ties puts right (the counting passes keep the
// rows' order). A tie test that looked at fewer of a record's row bits
// would miss it.
func TestRadixOrderTieAmongHighRows(t *testing.T) {
	const n = 1<<10 + 2
	values := make([]float64, 2*n)
	for r := range n {
		values[2*r], values[2*r+1] = float64(min(r, n-2)), float64(n-r)
	}
	values[2*(n-1)+1] = 0.5 // below row n-2's 2
	LexOrder2(values, n, []bool{false, false}, func(sv [][2]float64, order []uint16) {
		if got := order[n-2:]; got[0] != n-1 || got[1] != n-2 {
			t.Errorf("the last two rows come as %v, want [%d %d]", got, n-1, n-2)
		}
		for k := range n - 2 {
			if order[k] != uint16(k) {
				t.Fatalf("order[%d] = %d, want %d", k, order[k], k)
			}
		}
	})
}

// TestLexOrder2SumOfSignedValues pins the running sum of the signed values
// that decides where LexOrder2 gives up: finite values that overflow beside
// an infinity of the other sign make it NaN, and rows whose values cancel
// do not, whichever way an infinity lies.
func TestLexOrder2SumOfSignedValues(t *testing.T) {
	mx, inf := math.MaxFloat64, math.Inf(1)
	for _, tt := range []struct {
		values []float64
		want   bool
	}{
		// Max+Max overflows to +Inf, and -Inf then makes the sum NaN.
		{[]float64{mx, mx, mx, mx, mx, -inf}, false},
		// Each row's Max and -Max cancel, and +Inf leaves the sum +Inf.
		{[]float64{mx, -mx, mx, -mx, mx, inf}, true},
	} {
		if got := LexOrder2(tt.values, 3, []bool{false, false}, func([][2]float64, []uint16) {}); got != tt.want {
			t.Errorf("LexOrder2(%v) = %v, want %v", tt.values, got, tt.want)
		}
	}
}

// TestLexOrder2RangeOfFirstValues pins the other place LexOrder2 gives up:
// a range of first values wider than MaxFloat64. 0 and MaxFloat64 span
// exactly MaxFloat64, which fits, and are ordered; −MaxFloat64 and
// MaxFloat64 span 2·MaxFloat64, which overflows, whichever row comes first.
func TestLexOrder2RangeOfFirstValues(t *testing.T) {
	mx := math.MaxFloat64
	for _, tt := range []struct {
		values []float64
		want   bool
		order  []uint16
	}{
		{[]float64{mx, 1, 0, 2}, true, []uint16{1, 0}},
		{[]float64{-mx, 1, mx, 2}, false, nil},
		{[]float64{mx, 1, -mx, 2}, false, nil},
	} {
		var order []uint16
		got := LexOrder2(tt.values, 2, []bool{false, false}, func(_ [][2]float64, o []uint16) { order = slices.Clone(o) })
		if got != tt.want || !slices.Equal(order, tt.order) {
			t.Errorf("LexOrder2(%v) = %v, order %v; want %v, order %v", tt.values, got, order, tt.want, tt.order)
		}
	}
}
