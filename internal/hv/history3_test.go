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

// The staircase stays strict: a box that a step as high reaches adds no
// step, and a box as high as a step left of it replaces that step.
func TestClipStairsStaysStrict(t *testing.T) {
	for _, c := range []struct {
		name   string
		boxes  [][2]float64
		x, y   []float64
		free   float64
		isFull bool
	}{{
		// Steps (1,3), (2,2), (3,1) in the 4×4 rectangle cover
		// 3+2+1 = 6, leaving 10.
		name:  "three steps",
		boxes: [][2]float64{{1, 3}, {2, 2}, {3, 1}},
		x:     []float64{1, 2, 3},
		y:     []float64{3, 2, 1},
		free:  10,
	}, {
		// (1.5,2) lies under the step (2,2), as high as it: no change,
		// though neither end step holds it.
		name:  "a box as high as the step right of it",
		boxes: [][2]float64{{1, 3}, {2, 2}, {3, 1}, {1.5, 2}},
		x:     []float64{1, 2, 3},
		y:     []float64{3, 2, 1},
		free:  10,
	}, {
		// (2.5,3) covers (2,2) and is as high as (1,3): both go. It adds
		// (2.5-2)×(3-1) = 1 right of x=2 and (2-1)×(3-2) = 1 over
		// [1,2], leaving 8 = 16 - 2.5×3 - 0.5×1.
		name:  "a box as high as a step left of it",
		boxes: [][2]float64{{1, 3}, {2, 2}, {3, 1}, {2.5, 3}},
		x:     []float64{2.5, 3},
		y:     []float64{3, 1},
		free:  8,
	}, {
		// The same at the bottom: (3,2) reaches the height of (2,2) and
		// covers (3,1), adding (3-2)×(2-1) = 1.
		name:  "a box as high as the step left of it, over the last step",
		boxes: [][2]float64{{1, 3}, {2, 2}, {3, 1}, {3, 2}},
		x:     []float64{1, 3},
		y:     []float64{3, 2},
		free:  9,
	}, {
		// Clipped to the rectangle, (5,5) is the whole of it.
		name:   "a box over the rectangle",
		boxes:  [][2]float64{{1, 3}, {5, 5}},
		x:      []float64{1},
		y:      []float64{3},
		free:   0,
		isFull: true,
	}} {
		t.Run(c.name, func(t *testing.T) {
			var s clipStairs
			s.reset(4, 4)
			for k, b := range c.boxes {
				if full := s.add(b[0], b[1]); full != (c.isFull && k == len(c.boxes)-1) {
					t.Fatalf("add(%v, %v) = %v", b[0], b[1], full)
				}
			}
			if !slices.Equal(s.x, c.x) || !slices.Equal(s.y, c.y) || s.free != c.free || s.full != c.isFull {
				t.Errorf("steps x %v y %v, free %v, full %v; want x %v y %v, free %v, full %v",
					s.x, s.y, s.free, s.full, c.x, c.y, c.free, c.isFull)
			}
		})
	}
}
