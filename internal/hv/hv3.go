package hv

import (
	"sync"

	"github.com/spica-search/spica/internal/nd"
)

// staircase is the set of mutually weakly non-dominated points of a plane
// (no member is ≥ another in both coordinates), held by their ranks in x
// order; x and y are indexed by rank and shared between staircases. Ranks
// order ties in x arbitrarily, which is why the lookups below compare
// coordinates rather than trust ranks alone.
type staircase struct {
	set  rankSet
	x, y []float64
}

// cover returns the member with the smallest x ≥ the x of rank r, or -1;
// only it can weakly dominate r.
func (t *staircase) cover(r int) int {
	if q := t.set.prev(r); q >= 0 && t.x[q] >= t.x[r] {
		return q
	}
	return t.set.next(r)
}

// covers reports whether some member is ≥ rank r in both coordinates.
func (t *staircase) covers(r int) bool {
	q := t.cover(r)
	return q >= 0 && t.y[q] >= t.y[r]
}

// insert adds rank r, which no member covers, removes the members it covers
// (appending them to removed) and returns the area it adds to the union of
// the members' boxes [0,x]×[0,y] within the quadrant above (xlo, ylo).
func (t *staircase) insert(r int, xlo, ylo float64, removed []int) (float64, []int) {
	x, y := t.x[r], t.y[r]
	h := ylo // height of the union just left of the strip being measured
	if s := t.set.next(r); s != -1 {
		h = t.y[s]
		if t.x[s] <= x { // a tie in x that r dominates
			t.set.remove(s)
			removed = append(removed, s)
		}
	}
	gain, right := 0.0, x
	q := t.set.prev(r)
	for ; q >= 0; q = t.set.prev(q) {
		gain += rect(right-max(t.x[q], xlo), y-max(h, ylo))
		if t.y[q] > y {
			break
		}
		t.set.remove(q)
		removed = append(removed, q)
		h, right = t.y[q], t.x[q]
	}
	if q < 0 {
		gain += rect(right-xlo, y-max(h, ylo))
	}
	t.set.add(r)
	return gain, removed
}

// sweepOrder ranks the rows of a three-column extent matrix by x and returns
// the staircase coordinates and row of each rank, plus records (key z, aux
// rank) sorted by z.
func sweepOrder(pts []float64) (x, y []float64, row []int, byZ []nd.Rec) {
	return new(sweepScratch).order(pts)
}

// sweepScratch is the memory of a three-column sweep, which hv3 pools for
// small inputs: on a thousand rows its dozen allocations cost a tenth of
// the call.
type sweepScratch struct {
	recs    []nd.Rec
	coords  []float64
	rows    []int
	words   []uint64
	levels  [][]uint64
	removed []int
}

var sweepPool = sync.Pool{New: func() any { return new(sweepScratch) }}

// order is sweepOrder on the scratch's memory: its results are valid until
// the scratch's next use.
func (sc *sweepScratch) order(pts []float64) (x, y []float64, row []int, byZ []nd.Rec) {
	m := len(pts) / 3
	recs := nd.Grow(&sc.recs, 3*m)
	a, buf, z := recs[:m], recs[m:2*m], recs[2*m:]
	for i := range m {
		a[i] = nd.Rec{Key: nd.FastKey(pts[3*i], 0), Aux: uint64(i)}
	}
	byX := sortRanks(a, buf) // sorted in a, so buf is free again
	coords := nd.Grow(&sc.coords, 2*m)
	x, y, row = coords[:m], coords[m:], nd.Grow(&sc.rows, m)
	for r, e := range byX {
		i := int(e.Aux)
		row[r] = i
		x[r], y[r] = pts[3*i], pts[3*i+1]
		z[r] = nd.Rec{Key: nd.FastKey(pts[3*i+2], 0), Aux: uint64(r)} // nd.KeyValue decodes it
	}
	return x, y, row, sortRanks(z, buf)
}

// sortRanks is nd.SortStable by radix sort at every size: with a few dozen
// records, as the sweeps of small fronts have, a comparison sort through a
// function value costs twice the buckets (76 records: 6.2 against 2.4 µs).
func sortRanks(recs, buf []nd.Rec) []nd.Rec {
	nd.RadixSort(recs, buf, false)
	nd.SortTiesByAux(recs)
	return recs
}

// hv3 is the three-column hypervolume of finite, positive extents: the
// dimension sweep of N. Beume, C. M. Fonseca, M. López-Ibáñez, L. Paquete
// and J. Vahrenhold, "On the complexity of computing the hypervolume
// indicator", IEEE TEVC 13(5), 2009, O(n log n). Rows enter in decreasing z
// while the area of the two-dimensional staircase they cast is kept
// incrementally and integrated over z; the staircase lives in a 64-ary bit
// tree over the rows' ranks in x (rankSet), so each step is O(log₆₄ n)
// plus the rows it evicts.
func hv3(pts []float64) float64 {
	if len(pts) == 0 {
		return 0
	}
	var sc *sweepScratch
	if len(pts) <= hvPoolValues {
		sc = sweepPool.Get().(*sweepScratch)
		defer sweepPool.Put(sc)
	} else {
		sc = new(sweepScratch)
	}
	x, y, _, byZ := sc.order(pts)
	t := staircase{set: sc.rankSet(len(x)), x: x, y: y}
	removed := sc.removed[:0]
	defer func() { sc.removed = removed }()
	vol, area := 0.0, 0.0
	zPrev := nd.KeyValue(byZ[len(byZ)-1].Key)
	for i := len(byZ) - 1; i >= 0; i-- {
		z, r := nd.KeyValue(byZ[i].Key), int(byZ[i].Aux)
		vol += area * (zPrev - z)
		zPrev = z
		if !t.covers(r) {
			var gain float64
			gain, removed = t.insert(r, 0, 0, removed[:0])
			area += gain
		}
	}
	return vol + area*zPrev
}
