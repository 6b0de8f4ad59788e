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
