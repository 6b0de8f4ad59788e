package hv

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHistory2Live works the two-column pre-filter by hand: it keeps, in
// row order, the rows inside the box that the knee so far (the first row
// of largest area) does not cover, ties included, and stops at the first
// row inside the box with an infinite extent. Every row it leaves out adds
// nothing, so the volumes alone cannot tell a looser filter.
func TestHistory2Live(t *testing.T) {
	inf := math.Inf(1)
	up := []bool{true, true}
	tests := []struct {
		name     string
		values   []float64
		maximize []bool
		ref      []float64
		rows     []int
		infAt    int
	}{{
		// (2,2) is the knee, area 4; (2,1), (1,2) and (2,2) tie with it
		// in x or y or both and are covered; (3,1), area 3, is not.
		name:   "ties with the knee are left out",
		values: []float64{2, 2, 2, 1, 1, 2, 2, 2, 3, 1},
		ref:    []float64{0, 0}, maximize: up,
		rows: []int{0, 4}, infAt: 5,
	}, {
		// (2,2) and (4,1) both have area 4: the first stays the knee, so
		// (3,1), covered by (4,1) only, is kept, and so are (1,4) and
		// (1,3), which (2,2) does not cover either.
		name:   "the first of equal areas stays the knee",
		values: []float64{2, 2, 4, 1, 3, 1, 1, 4, 1, 3},
		ref:    []float64{0, 0}, maximize: up,
		rows: []int{0, 1, 2, 3, 4}, infAt: 5,
	}, {
		// (1,4) has area 4 but (3,2) has 6, so (3,2) becomes the knee and
		// covers (2,2) and (3,1); (1,3) lies left of it, under (1,4) but
		// not under the knee.
		name:   "a larger area moves the knee",
		values: []float64{1, 4, 3, 2, 2, 2, 3, 1, 1, 3},
		ref:    []float64{0, 0}, maximize: up,
		rows: []int{0, 1, 4}, infAt: 5,
	}, {
		// Extents (0,+Inf) and (+Inf,0) lie on the box's edge, outside
		// it, and so do (-1,5) and (NaN,1); (1,1) is kept; (2,+Inf) is
		// inside with an infinite extent, so it ends the list and (3,3)
		// after it is not looked at.
		name:   "rows outside the box and an infinite extent",
		values: []float64{0, inf, inf, 0, 1, 1, -1, 5, math.NaN(), 1, 2, inf, 3, 3},
		ref:    []float64{0, 0}, maximize: up,
		rows: []int{2}, infAt: 5,
	}, {
		// Minimized from ref (4,4) the extents are (3,1), (1,3), (2,2),
		// (1,1) and (0,4): the knee (3,1) covers neither (1,3), whose
		// area ties with its 3 and leaves it the knee, nor (2,2), whose
		// area 4 makes it the knee, covering (1,1); (0,4) is outside.
		name:   "minimized columns",
		values: []float64{1, 3, 3, 1, 2, 2, 3, 3, 4, 0},
		ref:    []float64{4, 4}, maximize: []bool{false, false},
		rows: []int{0, 1, 2}, infAt: 5,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := len(tt.values) / 2
			live, infAt := history2Live(tt.values, n, tt.maximize, tt.ref)
			rows := []int{}
			for _, s := range live {
				rows = append(rows, s.row)
				x, y := tt.values[2*s.row]-tt.ref[0], tt.values[2*s.row+1]-tt.ref[1]
				if !tt.maximize[0] {
					x, y = -x, -y
				}
				if s.x != x || s.y != y {
					t.Errorf("row %d has extents (%v, %v), want (%v, %v)", s.row, s.x, s.y, x, y)
				}
			}
			if diff := cmp.Diff(tt.rows, rows); diff != "" || infAt != tt.infAt {
				t.Errorf("rows kept (-want +got):\n%s\ninfAt = %d, want %d", diff, infAt, tt.infAt)
			}
		})
	}
}

// TestHistory2GainsFront works the two-column staircase by hand: the area
// each step adds, and the steps on the staircase after the last, the first
// of equal steps standing for all. A covered step that got in anyway, or
// an equal one that replaced the first, would add an area of 0 and change
// no later gain, so the gains alone cannot tell.
func TestHistory2GainsFront(t *testing.T) {
	tests := []struct {
		name  string
		steps [][2]float64 // x, y of rows 0, 1, …
		gain  []float64
		front []int // rows, by x
	}{{
		name:  "an equal step is covered",
		steps: [][2]float64{{2, 3}, {2, 3}},
		gain:  []float64{6, 0},
		front: []int{0},
	}, {
		name:  "a step of equal x and lower y is covered from the left",
		steps: [][2]float64{{2, 3}, {2, 1}},
		gain:  []float64{6, 0},
		front: []int{0},
	}, {
		// (1,2) has rank 0 and (3,2), of equal y, is the member right of it.
		name:  "a step of equal y is covered from the right",
		steps: [][2]float64{{3, 2}, {1, 2}},
		gain:  []float64{6, 0},
		front: []int{0},
	}, {
		// (1,3) adds 3; (3,1) adds 3 less the 1×1 it shares; (2,2) adds
		// the square [1,2]×[1,2]; the union is 6, and (4,4) adds 16 − 6
		// and covers all three. (5,1), right of it and lower, adds the
		// 1×1 strip beside it.
		name:  "a staircase swallowed by a larger step",
		steps: [][2]float64{{1, 3}, {3, 1}, {2, 2}, {4, 4}, {5, 1}},
		gain:  []float64{3, 2, 1, 10, 1},
		front: []int{3, 4},
	}, {
		// (1,3), (3,1), then (2,3) covers (1,3), adding [1,2]×[1,3] = 2,
		// and (3,3) covers both others, adding [2,3]×[1,3] = 2.
		name:  "equal heights walked over",
		steps: [][2]float64{{1, 3}, {3, 1}, {2, 3}, {3, 3}},
		gain:  []float64{3, 2, 2, 2},
		front: []int{3},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			live := make([]step2, len(tt.steps))
			for i, s := range tt.steps {
				live[i] = step2{s[0], s[1], i}
			}
			gain := make([]float64, len(live))
			pt, set := history2Gains(live, gain)
			front := []int{}
			for r := set.next(-1); r != -1; r = set.next(r) {
				front = append(front, pt[r].row)
			}
			if diff := cmp.Diff(tt.gain, gain); diff != "" {
				t.Errorf("gains (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.front, front); diff != "" {
				t.Errorf("front (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRescaledUnderflowed checks the bound below which a rescaled volume
// is measured again row by row: rows·2^-960, itself trusted.
func TestRescaledUnderflowed(t *testing.T) {
	bound := math.Ldexp(1, -960)
	for _, tt := range []struct {
		v    float64
		rows int
		want bool
	}{
		{bound, 1, false},
		{math.Nextafter(bound, 0), 1, true},
		{3 * bound, 3, false},
		{math.Nextafter(3*bound, 0), 3, true},
		{2 * bound, 3, true},
		{0.5, 1, false},
		{0, 1, true},
	} {
		if got := rescaledUnderflowed(tt.v, tt.rows); got != tt.want {
			t.Errorf("rescaledUnderflowed(%v, %d) = %v, want %v", tt.v, tt.rows, got, tt.want)
		}
	}
}

// TestFiniteRows checks the count of rows before the first with a +Inf
// value; -Inf does not count.
func TestFiniteRows(t *testing.T) {
	inf := math.Inf(1)
	for _, tt := range []struct {
		pts  []float64
		dims int
		want int
	}{
		{nil, 3, 0},
		{[]float64{1, 2, 3, 4, 5, 6}, 3, 2},
		{[]float64{1, 2, 3, 4, inf, 6}, 3, 1}, // value 4 is in row 4/3 = 1
		{[]float64{1, 2, 3, inf, 5, 6}, 3, 1},
		{[]float64{inf, 2, 3}, 3, 0},
		{[]float64{1, 2, math.Inf(-1), 3}, 2, 2},
		{[]float64{1, inf}, 1, 1},
	} {
		if got := finiteRows(tt.pts, tt.dims); got != tt.want {
			t.Errorf("finiteRows(%v, %d) = %d, want %d", tt.pts, tt.dims, got, tt.want)
		}
	}
}

// TestHistoryExtremeMagnitudesByHand measures curves whose plain products
// underflow or overflow, on powers of two, so every volume is exact.
func TestHistoryExtremeMagnitudesByHand(t *testing.T) {
	inf := math.Inf(1)
	p := func(e int) float64 { return math.Ldexp(1, e) }
	tests := []struct {
		name     string
		values   []float64
		maximize []bool
		ref      []float64
		want     []float64
	}{{
		// Maximized from ref 0 the extents are the values. The first two
		// columns' product, 2^-1200, underflows to 0 before 2^600
		// multiplies it, so the plain curve is 0, 0; the least extent,
		// 2^-600, has binary exponent -599 and 3·(-599-54) < -1022, so the
		// prefixes are measured again: 2^-600·2^-600·2^600 = 2^-600, then
		// the second box, which holds the first, 2^-599. The third row's
		// +Inf extent makes its volume +Inf.
		name:     "three columns underflowing",
		values:   []float64{p(-600), p(-600), p(600), p(-600), p(-600), p(601), p(-600), p(-600), inf},
		maximize: []bool{true, true, true},
		ref:      []float64{0, 0, 0},
		want:     []float64{p(-600), p(-599), inf},
	}, {
		// 2^-400 cubed is 2^-1200, 0, before 2^800 multiplies it; the
		// volume is 2^-1200·2^800 = 2^-400.
		name:     "four columns underflowing",
		values:   []float64{p(-400), p(-400), p(-400), p(800)},
		maximize: []bool{true, true, true, true},
		ref:      []float64{0, 0, 0, 0},
		want:     []float64{p(-400)},
	}, {
		// Column 0's extent, 2^1023 − (−2^1023) = 2^1024, overflows, so
		// the curve is measured again on halves: 2·2^1023·2^-4 = 2^1020.
		// The second row's extents are (0, +Inf): outside the box, it
		// changes nothing, though its other extent is infinite.
		name:     "an overflow and an infinite extent outside the box",
		values:   []float64{p(1023), p(-4), -p(1023), inf},
		maximize: []bool{true, true},
		ref:      []float64{-p(1023), 0},
		want:     []float64{p(1020), p(1020)},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := historyOf(tt.values, len(tt.maximize), tt.maximize, tt.ref)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("History (-want +got):\n%s", diff)
			}
		})
	}
}
