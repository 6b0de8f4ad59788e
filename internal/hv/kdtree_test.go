package hv

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// kdFrontRows returns n rows (i, n+1−i, 1) for i = 1..n, mutually
// non-dominated, as a matrix.
func kdFrontRows(n int) []float64 {
	pts := make([]float64, 0, 3*n)
	for i := 1; i <= n; i++ {
		pts = append(pts, float64(i), float64(n+1-i), 1)
	}
	return pts
}

// TestKDClipsVisitsPSideFirst walks a tree of two leaves, the rows
// (i, 17−i, 1) for i = 1..8 on the left and (i, 17−i, 2) for i = 9..16 on
// the right, split on column 0 with the left's largest x 8, all active and
// mutually non-dominated. The clips come in the order the leaves are
// visited, p's side first: the left one unless p's x is beyond 8.
func TestKDClipsVisitsPSideFirst(t *testing.T) {
	pts := kdFrontRows(16)
	for i := 8; i < 16; i++ {
		pts[3*i+2] = 2
	}
	tree := newKDTree(pts, make([]bool, 16))
	for r := range 16 {
		tree.activate(r)
	}
	if n := tree.nodes; len(n) != 3 || n[0].axis != 0 || n[n[0].left].hi[0] != bitsOf([3]float64{8, 0, 0})[0] {
		t.Fatalf("the tree is not two leaves split at x = 8: %+v", n)
	}
	left := make([][3]float64, 8)
	for i := range left {
		left[i] = [3]float64{float64(i + 1), float64(16 - i), 1}
	}
	for _, c := range []struct {
		name  string
		p     [3]float64
		clips [][3]float64
		under []int // rows, counted from 0
	}{
		// p's x equals the left's largest: left first. The left rows
		// lie under p, their clips themselves; the right rows clip to
		// (8, 17−i, 2), all inside row 9's, (8, 8, 2).
		{"at the left's bound", [3]float64{8, 16, 2}, append(left, [3]float64{8, 8, 2}), []int{0, 1, 2, 3, 4, 5, 6, 7}},
		// Beyond it: right first. Row 9, (9, 8, 2), lies under p; the
		// others clip inside it; then the left rows, all under p. Rows
		// count from 0 below, so row i is i−1.
		{"beyond the left's bound", [3]float64{9, 16, 2}, append([][3]float64{{9, 8, 2}}, left...), []int{8, 0, 1, 2, 3, 4, 5, 6, 7}},
	} {
		out, _, covered := tree.clips(bitsOf(c.p), nil)
		if covered {
			t.Errorf("%s: p %v covered", c.name, c.p)
			continue
		}
		var want [][3]uint64
		for _, q := range c.clips {
			want = append(want, bitsOf(q))
		}
		if diff := cmp.Diff(want, out); diff != "" {
			t.Errorf("%s: clips (-want +got):\n%s", c.name, diff)
		}
		var under []int
		for _, k := range tree.under {
			under = append(under, tree.order[k])
		}
		if diff := cmp.Diff(c.under, under); diff != "" {
			t.Errorf("%s: rows under p (-want +got):\n%s", c.name, diff)
		}
	}
}
