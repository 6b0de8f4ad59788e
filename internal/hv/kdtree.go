package hv

import (
	"cmp"
	"math"
	"slices"

	"github.com/spica-search/spica/internal/nd"
)

// kdTree is a static k-d tree over the rows of a three-column extent
// matrix, in which rows are switched on and off. Each node keeps the
// largest coordinates of all its rows, active or not, and the number of
// its active rows. Once built, the rows' values and switches are kept in
// the order of the leaves, so that a leaf reads them in sequence.
type kdTree struct {
	nodes  []kdNode
	order  []int       // rows, leaf by leaf
	at     [][3]uint64 // the values of order's rows, as bits (see bitsOf)
	on     []bool      // whether order's rows are active
	pos    []int       // row -> its place in order
	leaf   []int       // row -> its leaf
	stack  []int       // clips' nodes to visit
	sample []uint64    // build's sample of a column
	under  []int       // places in order of the active rows clips found ≤ p
}

type kdNode struct {
	hi          [3]uint64 // the largest values of its rows, as bits
	start, end  int32     // the rows order[start:end]
	left, right int32     // children, -1 at a leaf
	parent      int32
	count       int32 // active rows below
	axis        int32 // the column split on
}

const kdLeafSize = 8

// newKDTree builds the tree over the rows not skipped, splitting each node
// of more than kdLeafSize rows near the median of its widest coordinate,
// the first of equally wide ones. The rows' values are gathered
// first and move with them, so that the build reads memory in sequence,
// and each split also bounds its two halves. On a sphere of 1e5 rows the
// build took about 75 ms, three Hypervolume calls, with exact medians
// selected through the matrix; it takes about 31.
func newKDTree(pts []float64, skip []bool) *kdTree {
	m := len(pts) / 3
	t := &kdTree{pos: make([]int, m), leaf: make([]int, m)}
	recs := make([]kdRec, 0, m)
	t.nodes = make([]kdNode, 0, 4*m/kdLeafSize+1)
	for i := range m {
		if !skip[i] {
			recs = append(recs, kdRec{bitsOf([3]float64{pts[3*i], pts[3*i+1], pts[3*i+2]}), i})
		}
	}
	if len(recs) > 0 {
		t.build(recs, 0, len(recs), -1, boxOf(recs))
	}
	t.order, t.at, t.on = make([]int, len(recs)), make([][3]uint64, len(recs)), make([]bool, len(recs))
	for k, r := range recs {
		t.order[k], t.at[k] = r.row, r.p
		t.pos[r.row] = k
	}
	return t
}

// kdRec is a row and its values while the tree is built.
type kdRec struct {
	p   [3]uint64
	row int
}

// kdBox is the smallest and the largest values of some rows, per column.
type kdBox struct{ lo, hi [3]uint64 }

func boxOf(recs []kdRec) kdBox {
	lo0, lo1, lo2 := recs[0].p[0], recs[0].p[1], recs[0].p[2]
	hi0, hi1, hi2 := lo0, lo1, lo2
	for i := range recs {
		p := &recs[i].p
		lo0, lo1, lo2 = min(lo0, p[0]), min(lo1, p[1]), min(lo2, p[2])
		hi0, hi1, hi2 = max(hi0, p[0]), max(hi1, p[1]), max(hi2, p[2])
	}
	return kdBox{[3]uint64{lo0, lo1, lo2}, [3]uint64{hi0, hi1, hi2}}
}

// build adds the node of recs[start:end], whose box is box, and the nodes
// below it, and returns its id.
func (t *kdTree) build(recs []kdRec, start, end, parent int, box kdBox) int {
	id := len(t.nodes)
	t.nodes = append(t.nodes, kdNode{hi: box.hi, start: int32(start), end: int32(end), left: -1, right: -1, parent: int32(parent)})
	if end-start <= kdLeafSize {
		for _, r := range recs[start:end] {
			t.leaf[r.row] = id
		}
		return id
	}
	axis, widest := 0, 0.0
	for c := range 3 {
		if w := math.Float64frombits(box.hi[c]) - math.Float64frombits(box.lo[c]); w > widest {
			axis, widest = c, w
		}
	}
	t.nodes[id].axis = int32(axis)
	low, boxes := t.split(recs[start:end], axis)
	left := t.build(recs, start, start+low, id, boxes[0])
	right := t.build(recs, start+low, end, id, boxes[1])
	t.nodes[id].left, t.nodes[id].right = int32(left), int32(right)
	return id
}

// split reorders recs, more than one, so that the first low rows are below
// the rest in column axis, about half of them, and returns low and the
// boxes of both parts. The cut is the median of a sample of up to 31 rows,
// and the rows are moved without a branch on which side they go (a coin
// toss), and the boxes taken by minima and maxima without one; only when
// the sample left under a sixteenth of the rows on one side, as on many
// equal values, does an exact median selection split them by rank. The
// tree's bounds are those of the rows under each node, so any split is
// correct; the median keeps its depth logarithmic.
func (t *kdTree) split(recs []kdRec, axis int) (low int, boxes [2]kdBox) {
	sample := t.sample[:0]
	step := max(1, len(recs)/31)
	for i := step / 2; i < len(recs); i += step {
		sample = append(sample, recs[i].p[axis])
	}
	t.sample = sample
	nd.SelectNth(sample, len(sample)/2, func(v uint64) uint64 { return v })
	cut := sample[len(sample)/2]
	for i := range recs {
		x := recs[i]
		recs[i] = recs[low]
		recs[low] = x
		low += nd.OneIf(x.p[axis] < cut)
	}
	if min(low, len(recs)-low)*16 < len(recs) {
		low = len(recs) / 2
		nd.SelectNth(recs, low, func(r kdRec) uint64 { return r.p[axis] })
	}
	return low, [2]kdBox{boxOf(recs[:low]), boxOf(recs[low:])}
}

func (t *kdTree) activate(r int) {
	t.on[t.pos[r]] = true
	for id := t.leaf[r]; id >= 0; id = int(t.nodes[id].parent) {
		t.nodes[id].count++
	}
}

// deactivateFound switches off the active rows that the last clips call,
// for a row p it did not find covered, found under p in every coordinate.
// They are all the active rows p dominates: the active rows are mutually
// non-dominated, so such a row q is never pruned, as its clip, q itself,
// could only lie inside the clip of another active row that is ≥ q.
func (t *kdTree) deactivateFound() {
	for _, k := range t.under {
		t.on[k] = false
		for up := t.leaf[t.order[k]]; up >= 0; up = int(t.nodes[up].parent) {
			t.nodes[up].count--
		}
	}
}

// clips appends to out the boxes of the active rows clipped to p's box,
// min(p, q), leaving out those found inside another; covered reports that
// an active row covers p, by being that row. The active rows found under p
// in every coordinate, whose clip is themselves, are listed in t.under for
// deactivateFound. The walk is depth first, the child on p's side of the
// split first: the right one when p lies beyond every row of the left one
// in the column split on, else the left one. Its rows are p's nearest, and
// their clips prune the most. (Ordering by the volume of each child's
// bound clipped to p, which needs both children's bounds, visited as many
// nodes, 89 against 88 a row on a sphere of 1e5 rows, but cost 10% more
// instructions and a cache miss a node.) A subtree is skipped when it
// holds no active row or when the clip of its bound lies inside a clip
// already found.
func (t *kdTree) clips(p [3]uint64, out [][3]uint64) (clips [][3]uint64, by [3]uint64, covered bool) {
	if len(t.nodes) == 0 {
		return out, by, false
	}
	stack := append(t.stack[:0], 0)
	t.under = t.under[:0]
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := &t.nodes[id]
		if n.count == 0 {
			continue
		}
		if inside(out, min(p[0], n.hi[0]), min(p[1], n.hi[1]), min(p[2], n.hi[2])) {
			continue
		}
		if n.left != -1 {
			a, b := n.left, n.right
			if p[n.axis] > t.nodes[a].hi[n.axis] {
				a, b = b, a
			}
			stack = append(stack, int(b), int(a))
			continue
		}
		if out, by, covered = t.leafClips(p, int(n.start), int(n.end), out); covered {
			break
		}
	}
	t.stack = stack
	return out, by, covered
}

// leafClips is clips on the rows order[start:end] of a leaf. It is a
// function of its own, too large to inline, so that the walk over the
// nodes, which runs more often, keeps more of its state in registers.
func (t *kdTree) leafClips(p [3]uint64, start, end int, out [][3]uint64) (clips [][3]uint64, by [3]uint64, covered bool) {
	for k := start; k < end; k++ {
		if !t.on[k] {
			continue
		}
		q := t.at[k]
		c := [3]uint64{min(p[0], q[0]), min(p[1], q[1]), min(p[2], q[2])}
		if c == p {
			return out, q, true
		}
		if c == q {
			t.under = append(t.under, k)
		}
		if inside(out, c[0], c[1], c[2]) {
			continue
		}
		// c replaces the clips inside it.
		w := 0
		for _, f := range out {
			out[w] = f
			w += int(((c[0] - f[0]) | (c[1] - f[1]) | (c[2] - f[2])) >> 63)
		}
		out = append(out[:w], c)
	}
	return out, by, false
}

// inside reports whether some clip of out is ≥ (c0, c1, c2) in every
// coordinate, all as bits (see bitsOf). It tests every clip, one sign each
// rather than a branch: which clip holds the point, if any, is a coin
// toss, and the clips are few. The point comes as three numbers and each
// clip is read through a pointer, so that, inlined into clips, the loop
// keeps all in registers (as arrays they were copied to the stack at each
// step: 15% of the instructions of a sphere's history).
func inside(out [][3]uint64, c0, c1, c2 uint64) bool {
	miss := uint64(1)
	for i := range out {
		f := &out[i]
		miss &= ((f[0] - c0) | (f[1] - c1) | (f[2] - c2)) >> 63
	}
	return miss == 0
}

// sortClips sorts clips by falling z. They are six on average on a
// sphere's front, where an insertion sort in line saves 3% of the
// history's instructions over slices.SortFunc and its comparison calls;
// more than sixteen go to the latter. The insertion sort moves a clip only
// past lower ones, so up to sixteen clips of equal z keep their order.
func sortClips(clips [][3]uint64) {
	if len(clips) > 16 {
		slices.SortFunc(clips, func(a, b [3]uint64) int { return cmp.Compare(b[2], a[2]) })
		return
	}
	for j := 1; j < len(clips); j++ {
		for k := j; k > 0 && clips[k][2] > clips[k-1][2]; k-- {
			clips[k], clips[k-1] = clips[k-1], clips[k]
		}
	}
}

// bitsOf returns the bit patterns of three finite, positive extents. They
// order as the values do, and below 2⁶³, so that the difference of two of
// them, as a signed number, is negative exactly when the first is smaller:
// the k-d search tests a clip against another with one sign, as
// nd's frontKung (coveredIn) does with ranks, and takes minima without the NaN
// handling of float min.
func bitsOf(p [3]float64) [3]uint64 {
	return [3]uint64{math.Float64bits(p[0]), math.Float64bits(p[1]), math.Float64bits(p[2])}
}
