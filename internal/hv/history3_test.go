package hv

import (
	"slices"
	"testing"
)

// covers3 is the check that lets the knee and the last covering row settle a
// row without the tree; a row equal to q in some column is covered, so each
// column is tried at equality and just past it.
func TestCovers3AtItsBounds(t *testing.T) {
	q := [3]float64{2, 2, 2}
	for _, c := range []struct {
		p    [3]float64
		want bool
	}{
		{[3]float64{2, 2, 2}, true},
		{[3]float64{1, 1, 1}, true},
		{[3]float64{2, 1, 1}, true},
		{[3]float64{1, 2, 1}, true},
		{[3]float64{1, 1, 2}, true},
		{[3]float64{3, 2, 2}, false},
		{[3]float64{2, 3, 2}, false},
		{[3]float64{2, 2, 3}, false},
	} {
		if got := covers3(q, c.p); got != c.want {
			t.Errorf("covers3(%v, %v) = %v, want %v", q, c.p, got, c.want)
		}
	}
}

// The knee is the earlier row with the largest box, a later row only taking
// its place with a strictly larger one; the rows it covers stay out of the
// tree, and nothing else does.
func TestHistoryTreeLeavesKneeCoveredRowsOut(t *testing.T) {
	for _, c := range []struct {
		name   string
		pts    []float64
		gain   []float64
		inTree []int
	}{{
		// (2,3,4) has volume 24, (1,20,1) only 20, so the knee stays
		// (2,3,4), which does not cover (1,19,1): that row goes into
		// the tree though (1,20,1) covers it. Gains: 24; 20 minus the
		// [0,1]×[0,3]×[0,1] it shares with the first, 17; then 0.
		name:   "the larger product of three columns, y largest",
		pts:    []float64{2, 3, 4, 1, 20, 1, 1, 19, 1},
		gain:   []float64{24, 17, 0},
		inTree: []int{0, 1, 2},
	}, {
		// The same with z largest: (1,1,20) shares [0,1]×[0,1]×[0,4]
		// with (2,3,4), so it adds 20-4 = 16.
		name:   "the larger product of three columns, z largest",
		pts:    []float64{2, 3, 4, 1, 1, 20, 1, 1, 19},
		gain:   []float64{24, 16, 0},
		inTree: []int{0, 1, 2},
	}, {
		// (1,2,3) and (3,2,1) both have volume 6: the knee stays the
		// first, which does not cover (3,1,1). Gains: 6; 6 minus the
		// shared [0,1]×[0,2]×[0,1], 4; then 0.
		name:   "a tie in volume keeps the earlier knee",
		pts:    []float64{1, 2, 3, 3, 2, 1, 3, 1, 1},
		gain:   []float64{6, 4, 0},
		inTree: []int{0, 1, 2},
	}, {
		// (2,2,2) is the knee and covers its copy, (2,1,2) and (1,1,1).
		name:   "rows the knee covers, ties included",
		pts:    []float64{2, 2, 2, 2, 2, 2, 2, 1, 2, 1, 1, 1},
		gain:   []float64{8, 0, 0, 0},
		inTree: []int{0},
	}} {
		t.Run(c.name, func(t *testing.T) {
			gain, tree := historyTree3(c.pts)
			if !slices.Equal(gain, c.gain) {
				t.Errorf("gains %v, want %v", gain, c.gain)
			}
			got := slices.Sorted(slices.Values(tree.order))
			if !slices.Equal(got, c.inTree) {
				t.Errorf("rows in the tree %v, want %v", got, c.inTree)
			}
		})
	}
}

// endStepHides settles a box held by the first or the last step, each
// column tried at equality and just past it, and leaves the rest, a box
// held only by a middle step included, to the search.
func TestClipStairsEndStepHides(t *testing.T) {
	var s clipStairs
	s.reset(4, 4)
	if s.endStepHides(1, 1) {
		t.Errorf("an empty staircase hides (1,1)")
	}
	// Steps (1,3), (2,2), (3,1) in the 4×4 rectangle.
	for _, st := range [][2]float64{{1, 3}, {2, 2}, {3, 1}} {
		s.add(st[0], st[1])
	}
	for _, c := range []struct {
		a, b float64
		want bool
	}{
		{1, 3, true},     // the first step itself
		{0.5, 2, true},   // under the first step
		{1.5, 3, false},  // right of the first step, above the others
		{1, 3.5, false},  // above the first step
		{3, 1, true},     // the last step itself
		{2.5, 0.5, true}, // under the last step
		{3.5, 1, false},  // right of the last step
		{3, 1.5, false},  // above the last step, right of the others
		{2, 2, false},    // the middle step: for the search
	} {
		if got := s.endStepHides(c.a, c.b); got != c.want {
			t.Errorf("steps %v, %v: endStepHides(%v, %v) = %v, want %v", s.x, s.y, c.a, c.b, got, c.want)
		}
	}
}
