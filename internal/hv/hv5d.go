package hv

import (
	"math"
	"slices"
	"sync"

	"github.com/spica-search/spica/internal/nd"
)

// hv5d is the hypervolume of finite, positive five-column extents by the
// dimension sweep of C. M. Fonseca, L. Paquete and M. López-Ibáñez, "An
// improved dimension-sweep algorithm for the hypervolume indicator", IEEE
// CEC 2006, with the four-column contribution of one row by HV4D+ (A. P.
// Guerreiro and C. M. Fonseca, IEEE TEVC 2018) as its base case, as the
// moocore library runs it: O(n³) time in the worst case, O(n) space.
//
// Rows enter by decreasing fifth extent v, so the volume is the sum over
// rows of v times the row's exclusive four-column volume against the rows
// entered before it, the prefix. The prefix is kept sorted as HV4D+ sweeps
// it, by decreasing fourth extent, each row inserted by bisection, so no
// row's contribution pays for sorting it; see contribution4 for the rest. A row that one row of
// the prefix weakly dominates in the first four columns adds nothing, now
// or later, and never enters; rows that a new row weakly dominates there
// leave, as they add nothing to any later row's exclusive volume: the
// prefix stays a four-column front, FPL's skip of rows that leave a slice
// unchanged.
func hv5d(pts []float64) float64 {
	m := len(pts) / 5
	if m == 0 {
		return 0
	}
	var s *hv5Sweep
	if m <= hv4PoolRows {
		s = hv5Pool.Get().(*hv5Sweep)
		defer hv5Pool.Put(s)
	} else {
		s = new(hv5Sweep)
	}
	// The prefix, sorted as extentOrder(pts, 5, 3, 2, 1, 0) sorts it: the
	// order of the sweep.
	byW := nd.Grow(&s.byW, m)[:0]
	gone := nd.Grow(&s.gone, m)
	clear(gone)
	s.reset(m)
	vol := 0.0
	for _, i := range s.sort(pts, 5, 4, 3, 2, 1, 0) {
		pos := rowPosition(byW, pts, i)
		c, covered := s.contribution4(pts, byW, pos, i)
		if covered {
			continue
		}
		vol += c * pts[5*i+4]
		p := pts[5*i : 5*i+3]
		dropped := 0 // the tests below set flags rather than branch
		for _, j := range byW[pos:] {
			d := within3(pts[5*j:5*j+3:5*j+3], p)
			gone[j] = d != 0
			dropped |= d
		}
		if dropped != 0 {
			byW = slices.DeleteFunc(byW, func(j int) bool { return gone[j] })
		}
		byW = slices.Insert(byW, pos, i)
	}
	return vol
}

// hv5Sweep is the HV4D+ sweep with a buffer for the rows contribution4
// sets aside, and hv5d's prefix and marks. hv5d pools it, as hv4d pools
// its sweep, for inputs of up to hv4PoolRows rows: a thousand rows
// otherwise cost some thirty allocations as its buffers grow.
type hv5Sweep struct {
	hv4Sweep
	rows      []int
	recs, buf []nd.Rec // sortL's
	byW       []int
	gone      []bool
}

var hv5Pool = sync.Pool{New: func() any { return new(hv5Sweep) }}

// sortL sorts rows, whose clipped nodes are set, into L's order: z, y and x
// descending. It radix-sorts the bits of z and then, within each run of
// equal z (common, since rows clip to the box), those of y and of x: a
// comparison sort would mispredict about one branch a comparison. The bits
// of a positive float rise with it, so their complement orders it down.
func (s *hv5Sweep) sortL(rows []int) {
	recs := s.recs[:0]
	for _, j := range rows {
		recs = append(recs, nd.Rec{Key: ^math.Float64bits(s.nodes[j+2].z), Aux: uint64(j)})
	}
	if cap(s.buf) < len(recs) {
		s.buf = make([]nd.Rec, len(recs))
	}
	s.sortRun(recs, 0)
	for k, r := range recs {
		rows[k] = int(r.Aux)
	}
	s.recs = recs
}

// sortRun sorts recs by key, and each run of equal keys by the next
// coordinate of L's order: y after z (level 0), x after y.
func (s *hv5Sweep) sortRun(recs []nd.Rec, level int) {
	nd.RadixSort(recs, s.buf[:len(recs)], false)
	if level == 2 {
		return
	}
	for i, j := nd.NextTieRun(recs, 0); i != len(recs); i, j = nd.NextTieRun(recs, j) {
		run := recs[i:j]
		for k, r := range run {
			n := &s.nodes[r.Aux+2]
			run[k].Key = ^math.Float64bits([2]float64{n.y, n.x}[level])
		}
		s.sortRun(run, level+1)
	}
}

// rowPosition returns where row i of a five-column extent matrix goes in
// order, rows sorted by decreasing fourth extent, ties by decreasing third,
// second and first extent and then by row, as extentOrder(pts, 5, 3, 2, 1,
// 0) sorts them.
func rowPosition(order []int, pts []float64, i int) int {
	before := func(a int) bool { // a sorts before i
		for c := 3; c >= 0; c-- {
			if x, y := pts[5*a+c], pts[5*i+c]; x != y {
				return x > y
			}
		}
		return a < i
	}
	lo, hi := 0, len(order)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if before(order[h]) {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo
}

// contribution4 returns the volume of row i's box in the first four columns
// of a five-column extent matrix that no box of the prefix's rows covers,
// byW being the prefix sorted as rowPosition sorts it and pos i's place in
// it; or covered, when a single row of the prefix weakly dominates row i
// there.
//
// It is the one-contribution problem of HV4D+ on the prefix limited to the
// row's box (each row clipped to it, as WFG limits sets). The rows before
// pos, at least as high in the fourth column, build the staircase structure
// of the sweep without being measured: their order does not matter, so they
// enter in L's order, each landing at the end of L or found covered, and
// few of them need the walk at all (see below). The row's three-column
// exclusive volume against them then holds down to the fourth extent of
// the next row, and each lower row takes its own exclusive volume among
// the clipped rows away from it, until a row covers the row's box in three
// columns.
func (s *hv5Sweep) contribution4(pts []float64, byW []int, pos, i int) (vol float64, covered bool) {
	s.reset(len(pts) / 5)
	r := pts[5*i : 5*i+4]
	px, py, pz, pw := r[0], r[1], r[2], r[3]
	nodes := s.nodes
	clip := func(j int) uint32 {
		q := pts[5*j : 5*j+3]
		nodes[j+2] = hv4Node{x: min(q[0], px), y: min(q[1], py), z: min(q[2], pz)}
		return uint32(j + 2)
	}
	// A row at least as good as row i in two of the three columns clips to
	// i's box but for the third, so of those only the one with the largest
	// third coordinate counts (two[c], -1 for none); the others wait in
	// s.rows.
	two := [3]int{-1, -1, -1}
	rest := s.rows[:0]
	for _, j := range byW[:pos] {
		q := pts[5*j : 5*j+3]
		c := shortColumn(q, px, py, pz)
		switch c {
		case 3:
			return 0, true
		case -1:
			rest = append(rest, j)
			continue
		}
		if b := two[c]; b < 0 || q[c] > pts[5*b+c] {
			two[c] = j
		}
	}
	// They enter L first, in L's order, and then the rest in L's order, so
	// that each lands at the end of L or is found covered. With the largest
	// third coordinates top, a row at most as good as one of them in that
	// coordinate is covered by it, as its clipped row is ≤ i's box in the
	// two others: a test that leaves few rows to sort and walk.
	var top [3]float64
	for c, j := range two {
		if j >= 0 {
			top[c] = pts[5*j+c]
			if q := clip(j); !s.place(q) {
				s.insert(q)
			}
		}
	}
	// Every row is clipped and written, and counted when kept: no branch
	// for the data to mispredict.
	n := 0
	for _, j := range rest {
		q := pts[5*j : 5*j+3 : 5*j+3]
		clip(j)
		rest[n] = j
		n += beyond3(q, top)
	}
	kept := rest[:n]
	s.sortL(kept)
	for _, j := range kept {
		if q := uint32(j + 2); !s.place(q) {
			s.insert(q)
		}
	}
	s.rows = rest
	p := uint32(i + 2)
	nodes[p] = hv4Node{x: px, y: py, z: pz}
	// Only a clipped row equal to p's box could cover it, that is a row ≥ i
	// in x, y and z, and that returned above.
	s.locate(p)
	c := s.measure(p, false)
	w := pw
	for _, j := range byW[pos:] {
		q := pts[5*j : 5*j+4]
		vol += c * (w - q[3])
		w = q[3]
		k := shortColumn(q, px, py, pz)
		if k == 3 {
			return max(vol, 0), false // nothing of the box is left below
		}
		if beyond3(q, top) == 0 {
			continue
		}
		if k != -1 {
			top[k] = q[k]
		}
		if q := clip(j); !s.locate(q) {
			c -= s.measure(q, true)
		}
	}
	return max(vol+c*w, 0), false
}

// shortColumn tells how a row q compares with a box corner (px, py, pz) in its
// first three columns: 3 when q is no worse in all three, c when it is no
// worse in the two other than c and worse in c, and -1 otherwise.
//
// The three comparisons index a table rather than branch: sweeps ask this
// of every row of the prefix, with answers that data mispredicts.
func shortColumn(q []float64, px, py, pz float64) int {
	return int(shortColumns[nd.OneIf(q[0] >= px)|nd.OneIf(q[1] >= py)<<1|nd.OneIf(q[2] >= pz)<<2])
}

// within3 is 1 when q is at most p in each of the first three columns,
// else 0: p weakly dominates q there. hv5d drops such rows from the
// prefix, as they add nothing to any later row's exclusive volume; kept,
// they would only cost work.
func within3(q, p []float64) int {
	return nd.OneIf(q[0] <= p[0]) & nd.OneIf(q[1] <= p[1]) & nd.OneIf(q[2] <= p[2])
}

// beyond3 is 1 when q exceeds top in each of the first three columns,
// else 0. contribution4 passes the rows that are not: the row that set
// top[c] clips to row i's box but for column c, so it covers any clipped
// row that is at most top[c] in column c; they would only cost work.
func beyond3(q []float64, top [3]float64) int {
	return nd.OneIf(q[0] > top[0]) & nd.OneIf(q[1] > top[1]) & nd.OneIf(q[2] > top[2])
}

// shortColumns is shortColumn by the bits x, y and z of the columns in
// which q is no worse: all three give 3, two the third's column, fewer -1.
var shortColumns = [8]int8{-1, -1, -1, 2, -1, 1, 0, 3}
