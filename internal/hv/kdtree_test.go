package hv

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// kdRecsOf returns rows (x, 1, 1) for the given x, row i for xs[i].
func kdRecsOf(xs []float64) []kdRec {
	recs := make([]kdRec, len(xs))
	for i, x := range xs {
		recs[i] = kdRec{bitsOf([3]float64{x, 1, 1}), i}
	}
	return recs
}

// kdBoxX is the box of rows (x, 1, 1) with x from lo to hi.
func kdBoxX(lo, hi float64) kdBox {
	return kdBox{bitsOf([3]float64{lo, 1, 1}), bitsOf([3]float64{hi, 1, 1})}
}

// TestKDSplitByHand splits rows on column 0 and checks where the cut
// falls and the boxes of both parts: at the sample's median, counting the
// rows strictly below it, unless one side keeps under a sixteenth of the
// rows, when the rows are split by rank at half.
func TestKDSplitByHand(t *testing.T) {
	descending := make([]float64, 20)
	for i := range descending {
		descending[i] = float64(20 - i)
	}
	ties := make([]float64, 20)
	for i := range ties {
		ties[i] = 2
		if i%5 < 2 {
			ties[i] = 1
		}
	}
	twoLow := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = 2
		}
		xs[0], xs[n-1] = 1, 1
		return xs
	}
	unrepresentative := make([]float64, 1000)
	for i := range unrepresentative {
		unrepresentative[i] = 1
		if i%32 == 16 {
			unrepresentative[i] = 2
		}
	}
	for _, c := range []struct {
		name       string
		xs         []float64
		low        int
		left, rest kdBox
	}{
		// Under 62 rows the step is 1 and the sample is every row from
		// the first: 20..1, whose element of rank 10 is 11. The ten
		// rows 1..10 are below it, 10·16 ≥ 20, so low stays 10.
		{"every row sampled", descending, 10, kdBoxX(1, 10), kdBoxX(11, 20)},
		// Eight 1s (i%5 < 2) and twelve 2s: the element of rank 10 is
		// 2, eight rows are below it, and 8·16 ≥ 20: the cut keeps 8
		// rather than half the rows.
		{"ties cut at the median", ties, 8, kdBoxX(1, 1), kdBoxX(2, 2)},
		// Two 1s among 32 rows: the median is 2 and two rows are below
		// it, 2·16 = 32 is not under 32, so low stays 2.
		{"a sixteenth on one side", twoLow(32), 2, kdBoxX(1, 1), kdBoxX(2, 2)},
		// Two 1s among 33: 2·16 < 33, so the rows are split by rank at
		// 33/2 = 16; the ranks 0 and 1 are the 1s, the rest 2s.
		{"under a sixteenth on one side", twoLow(33), 16, kdBoxX(1, 2), kdBoxX(2, 2)},
		// 1000 rows sample every 1000/31 = 32nd row from 16: the 31
		// rows 16, 48, ..., 976, exactly the 2s. The cut 2 leaves 969
		// rows below it and 31 at it, 31·16 < 1000, so the split is by
		// rank at 500, whose rank is a 1; the 31 2s are in the rest.
		{"a sample of the high rows", unrepresentative, 500, kdBoxX(1, 1), kdBoxX(1, 2)},
	} {
		var tree kdTree
		recs := kdRecsOf(c.xs)
		low, boxes := tree.split(recs, 0)
		if low != c.low {
			t.Errorf("%s: low = %d, want %d", c.name, low, c.low)
			continue
		}
		if boxes[0] != c.left || boxes[1] != c.rest {
			t.Errorf("%s: boxes %v, want %v and %v", c.name, boxes, c.left, c.rest)
		}
		if got, want := boxOf(recs[:low]), c.left; got != want {
			t.Errorf("%s: the first %d rows span %v, want %v", c.name, low, got, want)
		}
		if got, want := boxOf(recs[low:]), c.rest; got != want {
			t.Errorf("%s: the rows from %d span %v, want %v", c.name, low, got, want)
		}
	}
}

// kdFrontRows returns n rows (i, n+1−i, 1) for i = 1..n, mutually
// non-dominated, as a matrix.
func kdFrontRows(n int) []float64 {
	pts := make([]float64, 0, 3*n)
	for i := 1; i <= n; i++ {
		pts = append(pts, float64(i), float64(n+1-i), 1)
	}
	return pts
}

// TestKDTreeShapeByHand builds trees small enough to know their nodes: a
// node of at most kdLeafSize rows is a leaf, with no children on either
// side, and a larger one splits on its widest column, the first of equally
// wide ones. The node slice is made for 4m/kdLeafSize+1 nodes up front.
func TestKDTreeShapeByHand(t *testing.T) {
	// Nine rows whose column 0 holds the largest values but column 1
	// the widest spread: widths 1, 8 and 0, their sums 201, 10 and 2.
	narrowHigh := make([]float64, 0, 27)
	for i := range 9 {
		narrowHigh = append(narrowHigh, float64(100+i%2), float64(i+1), 1)
	}
	type span struct{ Start, End int32 }
	for _, c := range []struct {
		name  string
		pts   []float64
		axis  int32
		nodes []span // root, then its children
		cap   int
	}{
		// 4·8/8+1 = 5.
		{"kdLeafSize rows", kdFrontRows(8), 0, []span{{0, 8}}, 5},
		// Widths 8, 8 and 0: column 0 is the first widest. The median
		// of 1..9 is 5, so four rows go left. 4·9/8+1 = 5.
		{"one more row", kdFrontRows(9), 0, []span{{0, 9}, {0, 4}, {4, 9}}, 5},
		// Column 1 is the widest, its median 5 and four rows below.
		{"widest is not largest", narrowHigh, 1, []span{{0, 9}, {0, 4}, {4, 9}}, 5},
		// 4·16/8+1 = 9.
		{"two leaves of eight", kdFrontRows(16), 0, []span{{0, 16}, {0, 8}, {8, 16}}, 9},
	} {
		tree := newKDTree(c.pts, make([]bool, len(c.pts)/3))
		var got []span
		for _, n := range tree.nodes {
			got = append(got, span{n.start, n.end})
		}
		if diff := cmp.Diff(c.nodes, got); diff != "" {
			t.Errorf("%s: nodes (-want +got):\n%s", c.name, diff)
			continue
		}
		if len(got) > 1 && tree.nodes[0].axis != c.axis {
			t.Errorf("%s: the root splits on column %d, want %d", c.name, tree.nodes[0].axis, c.axis)
		}
		for id, n := range tree.nodes {
			if (n.end-n.start <= kdLeafSize) != (n.left == -1 && n.right == -1) {
				t.Errorf("%s: node %d of %d rows has children %d and %d", c.name, id, n.end-n.start, n.left, n.right)
			}
		}
		if cap(tree.nodes) != c.cap {
			t.Errorf("%s: room for %d nodes, want %d", c.name, cap(tree.nodes), c.cap)
		}
	}
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

// TestSortClipsByHand sorts clips by falling z; up to sixteen, clips of
// equal z keep their order.
func TestSortClipsByHand(t *testing.T) {
	// x = i and z = i%2: the odd x first, then the even, each ascending.
	alternating := func(n int) (clips, want [][3]uint64) {
		for i := range n {
			clips = append(clips, [3]uint64{uint64(i), 0, uint64(i % 2)})
		}
		for _, parity := range []int{1, 0} {
			for i := parity; i < n; i += 2 {
				want = append(want, [3]uint64{uint64(i), 0, uint64(parity)})
			}
		}
		return clips, want
	}
	sixteen, sixteenWant := alternating(16)
	for _, c := range []struct {
		name        string
		clips, want [][3]uint64
	}{
		{"none", nil, nil},
		{"a tie, then a higher one", [][3]uint64{{1, 2, 5}, {3, 1, 5}, {2, 2, 7}}, [][3]uint64{{2, 2, 7}, {1, 2, 5}, {3, 1, 5}}},
		{"rising", [][3]uint64{{0, 0, 1}, {0, 0, 2}, {0, 0, 3}}, [][3]uint64{{0, 0, 3}, {0, 0, 2}, {0, 0, 1}}},
		{"sixteen in two ties", sixteen, sixteenWant},
	} {
		sortClips(c.clips)
		if diff := cmp.Diff(c.want, c.clips); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
	// Beyond sixteen only the order of z is promised: the eight odd x
	// of 0..16 have z 1, the nine even ones z 0.
	clips, _ := alternating(17)
	sortClips(clips)
	for k, c := range clips {
		want := uint64(0)
		if k < 8 {
			want = 1
		}
		if c[2] != want {
			t.Errorf("17 clips: clip %d has z %d, want %d", k, c[2], want)
		}
	}
}
