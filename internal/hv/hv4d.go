package hv

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"github.com/spica-search/spica/internal/nd"
)

// hv4d is the hypervolume of finite, positive four-column extents by the
// dimension sweep HV4D+ of Guerreiro and Fonseca ("Computing and updating
// hypervolume contributions in up to four dimensions", IEEE TEVC 22(3),
// 2018), O(n²) time and O(n) space.
//
// Rows enter by decreasing fourth extent w, so the volume is the sum over
// rows of w times the row's exclusive three-dimensional volume against the
// rows that entered before it. That volume is measured by a sweep down the
// third extent z over the list L of the rows kept so far, in decreasing
// lexicographic (z, y, x) order, in O(|L|): each row of L remembers its two
// neighbours on the staircase that the rows before it in L cast on the
// (x, y) plane, so the staircase at any height is rebuilt by relinking each
// row between its neighbours, O(1) a row, and the new row's exclusive area
// only changes where a later row cuts into it, each cut walking staircase
// steps that it removes. Rows another row weakly dominates are never kept,
// which is what makes the neighbours exact.
//
// This is our own formulation of the paper's algorithm in the extent space
// of [Volume] (larger is better, boxes anchored at the origin).
func hv4d(pts []float64) float64 {
	m := len(pts) / 4
	if m == 0 {
		return 0
	}
	var s *hv4Sweep
	if m <= hv4PoolRows {
		s = hv4Pool.Get().(*hv4Sweep)
		defer hv4Pool.Put(s)
	} else {
		s = new(hv4Sweep)
	}
	s.reset(m)
	for i := range m {
		s.nodes[i+2] = hv4Node{x: pts[4*i], y: pts[4*i+1], z: pts[4*i+2]}
	}
	vol := 0.0
	for _, i := range s.sort(pts, 4, 3, 2, 1, 0) {
		p := uint32(i + 2)
		if s.locate(p) {
			continue
		}
		vol += s.measure(p, true) * pts[4*i+3]
	}
	return vol
}

// hv4Pool keeps the buffers of a sweep of at most hv4PoolRows rows (its
// nodes, L and its sort) from one hv4d call to the next: on the fronts of a
// few hundred rows that most calls measure, allocating and clearing them
// cost about a tenth of the call (a 313-row U4 front, when its 4
// allocations, 32 kB, went: 37.7-42.4 µs against 33.3-35.8 µs in five
// interleaved rounds). A larger sweep costs far more than its allocation,
// and is not kept alive in the pool for the next call.
var hv4Pool = sync.Pool{New: func() any { return new(hv4Sweep) }}

const hv4PoolRows = 4096

// extentOrder returns the rows of an extent matrix with dims columns by
// decreasing extent in column cols[0], ties by decreasing extent in the
// columns cols[1:] in turn, and then by row, so that sums formed in this
// order do not depend on the order of the input (only equal rows tie). A
// radix sort on the first column does most of the work, or on at most
// extentKeysMax rows sortKeys (see extentKeys); the comparison sort only
// sees runs of ties, which continuous data hardly has.
func extentOrder(pts []float64, dims int, cols ...int) []int {
	var b extentSort
	return b.sort(pts, dims, cols...)
}

// extentSort is extentOrder with buffers that outlive one call: the order
// it returns is its own, valid until the next call.
type extentSort struct {
	order []int
	keys  []uint64 // extentKeys'
	recs  []nd.Rec // the radix sort's
}

func (b *extentSort) sort(pts []float64, dims int, cols ...int) []int {
	m := len(pts) / dims
	order := nd.Grow(&b.order, m)
	if byExtentKeys(m) {
		b.extentKeys(order, pts, dims, cols)
		return order
	}
	recs := nd.Grow(&b.recs, 2*m)
	for i := range m {
		// For positive floats the bit pattern orders like the value; its
		// complement orders the other way.
		recs[i] = nd.Rec{Key: ^math.Float64bits(pts[dims*i+cols[0]]), Aux: uint64(i)}
	}
	sorted := recs[:m]
	nd.RadixSort(sorted, recs[m:], false)
	for i, r := range sorted {
		order[i] = int(r.Aux)
	}
	sortExtentTies(order, pts, dims, cols)
	return order
}

// extentKeysMax is the number of rows up to which extentOrder sorts with
// sortKeys: on the fronts of tens of rows that most calls measure, its
// buckets cost about a third of the radix sort's count arrays.
const extentKeysMax = 512

// byExtentKeys reports whether extentOrder sorts m rows with extentKeys.
func byExtentKeys(m int) bool { return m <= extentKeysMax }

// extentKeys is extentOrder for at most extentKeysMax rows, into order, by
// sortKeysByValue: a key is the top 48 bits of the complement of the first
// extent's bits (which order positive floats) over the row.
func (b *extentSort) extentKeys(order []int, pts []float64, dims int, cols []int) {
	m := len(order)
	keys := nd.Grow(&b.keys, 2*m)
	for i := range m {
		keys[i] = ^math.Float64bits(pts[dims*i+cols[0]])&^contrib3SmallIndex | uint64(i)
	}
	agreed := sortKeysByValue(keys[:m], keys[m:], func(i int) float64 { return pts[dims*i+cols[0]] })
	for k, key := range keys[:m] {
		order[k] = int(key & contrib3SmallIndex)
	}
	if agreed { // else no two rows tie in cols[0]
		sortExtentTies(order, pts, dims, cols)
	}
}

// sortExtentTies sorts each run of rows of order with equal extents in
// column cols[0] by decreasing extent in cols[1:] in turn, then by row.
func sortExtentTies(order []int, pts []float64, dims int, cols []int) {
	// i steps from run to run, so it lands on len(order) exactly.
	for i := 0; i != len(order); {
		j := i + 1
		for j < len(order) && pts[dims*order[j]+cols[0]] == pts[dims*order[i]+cols[0]] {
			j++
		}
		if j != i+1 { // a run of one is sorted
			slices.SortFunc(order[i:j], func(a, b int) int {
				for _, c := range cols[1:] {
					// Extents are never NaN: decreasing by value.
					if o := cmp.Compare(pts[dims*b+c], pts[dims*a+c]); o != 0 {
						return o
					}
				}
				return a - b
			})
		}
		i = j
	}
}

// hv4Node is a row of the sweep: its first three extents and its staircase
// links, as indices into hv4Sweep.nodes. The indices are unsigned: a
// 32-bit load already zero-extends, where a signed index took an
// instruction of its own to extend each time one was read, three times a
// relink (cachegrind, a 313-row U4 front: 600k -> 579k instructions a
// call).
type hv4Node struct {
	x, y, z     float64
	left, right uint32 // staircase neighbours among the rows before it in L
	cl, cr      uint32 // staircase links while one contribution is measured
}

// The first two nodes are sentinels, the two ends of every staircase, which
// cover nothing (zero width or height) and are never passed, so their
// infinite coordinates only take part in comparisons.
const (
	hvLeft  = 0 // x = 0, y = +Inf
	hvRight = 1 // x = +Inf, y = 0
)

// hv4Sweep keeps L as an array of its members' coordinates in L's order, so
// that the scans that dominate the cost read memory in sequence. Inserting
// into the array moves O(|L|) words, within the O(|L|) a row costs anyway.
// Node i+2 is row i of the caller.
type hv4Sweep struct {
	nodes      []hv4Node
	l          []hv4Entry // L
	pos        int        // where the node last located goes in L
	extentSort            // the order of the rows
}

// hv4Entry is a member of L: a node and its coordinates as float64 bits,
// which for the positive extents order like the values, and integer
// comparisons let the scans select without branching.
type hv4Entry struct {
	x, y, z uint64
	id      uint32
}

// reset empties the sweep and makes room for the nodes of m rows, reusing
// the buffers of an earlier sweep; the caller sets the nodes' coordinates.
func (s *hv4Sweep) reset(m int) {
	if cap(s.nodes) < m+2 {
		s.nodes = make([]hv4Node, m+2)
		s.l = make([]hv4Entry, 0, m+1)
	}
	s.nodes = s.nodes[:m+2]
	s.nodes[hvLeft] = hv4Node{x: 0, y: math.Inf(1)}
	s.nodes[hvRight] = hv4Node{x: math.Inf(1), y: 0}
	s.l = s.l[:0]
}

// before reports whether member e of L comes before a node at (x, y, z):
// whether its (z, y, x) is lexicographically larger or equal.
func (e *hv4Entry) before(x, y, z uint64) bool {
	return e.z > z || e.z == z && (e.y > y || e.y == y && e.x >= x)
}

// above returns the number of members of L that come before a node at
// (x, y, z). The members above z are found by a bisection whose comparison
// moves the base through a mask rather than a branch, which data would
// mispredict half the time; members at z, rare on continuous data, are
// passed one by one, no more than locate then walks.
func (s *hv4Sweep) above(x, y, z uint64) int {
	l := s.l
	j := aboveBisect(l, z)
	for j < len(l) && l[j].before(x, y, z) {
		j++
	}
	return j
}

// aboveBisect returns the number of members of L above z, or one less (it
// never reads the last member it could count), by a bisection whose
// comparison moves the base through a mask rather than a branch.
func aboveBisect(l []hv4Entry, z uint64) int {
	j := 0
	for n := len(l); n > 1; {
		half := n >> 1
		j += half & -nd.OneIf(l[j+half-1].z > z)
		n -= half
	}
	return j
}

// locate reports whether one row of L alone covers node p (then p is to be
// dropped, as it is weakly dominated); otherwise it sets p's neighbours and
// its place in L for measure and insert, as place does.
//
// It rebuilds, through the cl and cr links, the staircase that the rows
// above p cast on the (x, y) plane at p's height, by relinking each of them
// between its two neighbours in L's order (HV4D+'s restart); no row of L
// hides another below it, so every row joins. It then walks the staircase
// from the left, where x rises and y falls, to p's corner: the last step
// higher than p is its left neighbour, the first one right of p its right
// one, and p is covered if the first step at or right of p's x is at least
// as high as p. The walk passes only the steps left of p, where a scan of L
// would pass every row above p.
//
// While L holds at most locateScanMax rows, the relinking finds the end of
// the rows above p itself, by their z, rather than after a bisection
// (above): the test is one more compare a row and its branch mispredicts
// once, at the end, where the bisection's dependent loads cost more than
// the whole test on the tens of rows that L holds on most data. Medians of
// four runs of each, one binary: a 313-row U4 front (L about 40 rows)
// 29.7 µs against 32.0 by bisection, 250 rows of a sphere 32.1 against 34.0;
// from 1000 rows of a sphere (L about 170) on, the bisection is 3-5% faster.
func (s *hv4Sweep) locate(p uint32) bool {
	nodes := s.nodes
	P := &nodes[p]
	px, py := P.x, P.y
	pzb := math.Float64bits(P.z)
	nodes[hvLeft].cr, nodes[hvRight].cl = hvRight, hvLeft
	l := s.l
	pxb, pyb := math.Float64bits(px), math.Float64bits(py)
	end := 0
	if locateBisects(len(l)) {
		end = s.above(pxb, pyb, pzb)
		for _, e := range l[:end] {
			relink(nodes, e.id)
		}
	} else {
		for ; end < len(l) && l[end].z > pzb; end++ {
			relink(nodes, l[end].id)
		}
		// Rows at p's height, rare on continuous data, come before p by
		// (y, x).
		for ; end < len(l) && l[end].before(pxb, pyb, pzb); end++ {
			relink(nodes, l[end].id)
		}
	}
	cl, t := uint32(hvLeft), nodes[hvLeft].cr
	for nodes[t].x < px {
		if nodes[t].y > py {
			cl = t
		}
		t = nodes[t].cr
	}
	if nodes[t].y >= py {
		return true
	}
	for nodes[t].x <= px { // a step at p's x, lower than p
		t = nodes[t].cr
	}
	P.left, P.right, s.pos = cl, t, end
	return false
}

// locateScanMax is the size of L up to which locate finds the end of the
// rows above p while relinking them; a variable so that tests can force
// either path.
var locateScanMax = 128

// locateBisects reports whether locate finds the end of the rows above p
// in an L of n rows by a bisection first.
func locateBisects(n int) bool { return n > locateScanMax }

// relink puts node q back on the staircase between its two neighbours.
func relink(nodes []hv4Node, q uint32) {
	Q := &nodes[q]
	Q.cl, Q.cr = Q.left, Q.right
	nodes[Q.left].cr = q
	nodes[Q.right].cl = q
}

// place is locate without the relinking, for a node that is inserted
// without being measured. L's order is decreasing lexicographic (z, y, x),
// and a member equal to p comes before it, so that it covers p. p's left
// neighbour is the row with the largest x among those higher than p, the
// right one the row with the largest y among those to the right of p; both
// are selected without branching, as which rows qualify is a coin toss on
// most data.
func (s *hv4Sweep) place(p uint32) bool {
	nodes := s.nodes
	P := &nodes[p]
	px, py, pz := math.Float64bits(P.x), math.Float64bits(P.y), math.Float64bits(P.z)
	cl, cr := uint32(hvLeft), uint32(hvRight)
	var clx, cry uint64
	covered := 0
	end := s.above(px, py, pz)
	for _, e := range s.l[:end] {
		x, y := e.x, e.y
		covered |= nd.OneIf(x >= px) & nd.OneIf(y >= py)
		// A tie in x with the current cl is a lower row that covers it.
		up := nd.OneIf(y > py) & nd.OneIf(x >= clx)
		if up != 0 {
			cl = e.id
		}
		if up != 0 {
			clx = x
		}
		right := nd.OneIf(x > px) & nd.OneIf(y >= cry)
		if right != 0 {
			cr = e.id
		}
		if right != 0 {
			cry = y
		}
	}
	if covered != 0 {
		return true
	}
	P.left, P.right, s.pos = cl, cr, end
	return false
}

// measure returns the volume of the box of node p, just located, that no
// box of L covers; with keep, it also inserts p into L as insert does, in
// the same pass over the rows below p.
func (s *hv4Sweep) measure(p uint32, keep bool) float64 {
	nodes, l := s.nodes, s.l
	P := &nodes[p]
	px, py := P.x, P.y
	pxb := math.Float64bits(px)
	cl, cr, pos := P.left, P.right, s.pos
	clx, cry := math.Float64bits(nodes[cl].x), math.Float64bits(nodes[cr].y)
	// The area of p's rectangle left uncovered at its own height: the steps
	// between its neighbours lie inside the rectangle.
	area, _ := s.openArea(cl, px, py)

	// Sweep down: each lower row that cuts into the area takes its part
	// away, and only those rows are linked in; cl and cr stay the steps
	// just outside the rectangle. A row right of the rectangle and lower
	// than cr, or left of it and left of cl, changes nothing, neither the
	// area nor its neighbours when p joins L (cr, or cl, is a nearer one),
	// so it costs a test, in a loop of its own that changes only k (in the
	// outer loop, which changes the sums and links too, the compiler
	// shuffled them all through registers a row: 2.8% of a U4 front's
	// instructions); the volume is added up only where the area changes.
	// The rows p drops from L are noted in mv, which moves the rest into
	// place by runs.
	vol, zPrev := 0.0, P.z
	mv := hv4Mover{at: pos, run: pos, shift: 1}
	k := pos
	for ; k < len(l); k++ {
		e := l[k]
		// Only a row at or right of p's x and as high as cr, or one left
		// of it and as far right as cl, changes anything. Rows inside the
		// rectangle and rows that end the sweep are among them: cr (cl)
		// is above such a row, right of p and lower than p (left and
		// higher), so a row failing the test would lie under it in x and
		// y, and L holds no row that one above it covers.
		for changesNothing(e, pxb, cry, clx) {
			if k++; k == len(l) {
				goto bottom
			}
			e = l[k]
		}
		x, y, z, q := math.Float64frombits(e.x), math.Float64frombits(e.y), math.Float64frombits(e.z), e.id
		vol += area * (zPrev - z)
		zPrev = z
		Q := &nodes[q]
		switch {
		case x >= px && y >= py:
			// Below z nothing of the rectangle is uncovered. Unless the
			// row is equal to p in x and y, and then p covers it, it also
			// hides p from the staircase of every row below.
			if keep {
				s.settle(p, k, mv)
			}
			return max(vol, 0)
		case x <= px && y <= py:
			// Inside the rectangle, the row covers exactly its own
			// exclusive area among the steps, which lie between its
			// neighbours. p covers it, so it leaves L.
			lost, _ := s.openArea(Q.left, x, y)
			area -= lost
			Q.cl, Q.cr = Q.left, Q.right
			nodes[Q.left].cr, nodes[Q.right].cl = q, q
			if keep {
				mv.drop(l, k)
			}
		case x > px: // y < py, y ≥ cr's: a cut from below
			lost, right, h := 0.0, px, nodes[cr].y
			t := nodes[cr].cl
			for {
				T := &nodes[t]
				lost += (right - T.x) * (y - h)
				if T.y > y {
					break
				}
				h, right = T.y, T.x
				t = T.cl
			}
			area -= lost
			Q.cl, Q.cr = t, cr
			nodes[t].cr, nodes[cr].cl = q, q
			cr, cry = q, e.y
			// p becomes Q's left neighbour if it is at or right of the
			// present one, L, which is higher than Q: an L at p's x and
			// higher than p would cover it (if before p in L) or have
			// ended this sweep (after), so at p's x L is no higher. The
			// same holds for the right neighbour below, and in insert.
			if L := &nodes[Q.left]; keep && px >= L.x {
				Q.left = p
			}
		default: // x < px, y > py, x ≥ cl's: a cut from the left
			lost, t := s.openArea(cl, x, py)
			area -= lost
			Q.cl, Q.cr = cl, t
			nodes[cl].cr, nodes[t].cl = q, q
			cl, clx = q, e.x
			if R := &nodes[Q.right]; keep && py >= R.y {
				Q.right = p
			}
		}
	}
bottom:
	if keep {
		s.settle(p, k, mv)
	}
	return max(vol+area*zPrev, 0)
}

// changesNothing reports whether measure passes member e of L without a
// look: at or right of p's x (pxb) and lower than cr (cry), or left of p's
// x and left of cl (clx). It selects between the two tests without a
// branch, as which side of p a row lies is a coin toss on most data.
func changesNothing(e hv4Entry, pxb, cry, clx uint64) bool {
	gx := nd.OneIf(e.x >= pxb)
	return gx&nd.OneIf(e.y >= cry)|(gx^1)&nd.OneIf(e.x >= clx) == 0
}

// openArea returns the area under height h and above the current
// staircase (the cr links) from node from's x to x, and the first step
// right of x.
func (s *hv4Sweep) openArea(from uint32, x, h float64) (float64, uint32) {
	nodes := s.nodes
	area, left := 0.0, nodes[from].x
	t := nodes[from].cr
	for nodes[t].x <= x {
		area += (nodes[t].x - left) * (h - nodes[t].y)
		left = nodes[t].x
		t = nodes[t].cr
	}
	return area + (x-left)*(h-nodes[t].y), t
}

// insert puts p, located and not covered, into L, drops the rows below it
// that it weakly dominates, and makes it the neighbour of the rows below it
// whose staircase it joins.
func (s *hv4Sweep) insert(p uint32) {
	s.settle(p, s.pos, hv4Mover{at: s.pos, run: s.pos, shift: 1})
}

// hv4Mover keeps L in place while p, going in at member at of L, drops
// rows below it: the rows scanned since the last drop, from run on, are to
// move by shift, 1 before the first drop (p takes a slot) and one less
// after each. Rows move by runs, a copy each, when a drop ends a run and
// once at the end, rather than one by one as the scans pass them.
type hv4Mover struct{ at, run, shift int }

// drop removes member k of L, which the scans have just passed.
func (m *hv4Mover) drop(l []hv4Entry, k int) {
	switch {
	case m.shift == 0:
	case m.shift > 0 || k-m.run > 4:
		copy(l[m.run+m.shift:], l[m.run:k])
	default: // a short run down: not worth a call
		for i := m.run; i != k; i++ {
			l[i+m.shift] = l[i]
		}
	}
	m.run, m.shift = k+1, m.shift-1
}

// settle is insert from member k of L on, mv holding the drops before k.
// A neighbour equal to p in x and y is below p, so this very pass drops it:
// p takes its place.
func (s *hv4Sweep) settle(p uint32, k int, mv hv4Mover) {
	nodes, l := s.nodes, s.l
	P := &nodes[p]
	px, py := P.x, P.y
	for ; k < len(l); k++ {
		e := l[k]
		x, y := math.Float64frombits(e.x), math.Float64frombits(e.y)
		if px >= x && py >= y {
			mv.drop(l, k)
			continue
		}
		if x >= px && y >= py {
			// This row hides p from the staircase of every row below it.
			break
		}
		Q := &nodes[e.id]
		if px < x { // py > y
			if L := &nodes[Q.left]; px >= L.x {
				Q.left = p
			}
		} else { // px > x, py < y
			if R := &nodes[Q.right]; py >= R.y {
				Q.right = p
			}
		}
	}
	// The last run reaches to the end of L, past the rows no scan passed.
	n := len(l)
	l = l[:max(n, n+mv.shift)]
	copy(l[mv.run+mv.shift:], l[mv.run:n])
	l = l[:n+mv.shift]
	l[mv.at] = hv4Entry{math.Float64bits(px), math.Float64bits(py), math.Float64bits(P.z), p}
	s.l = l
}
