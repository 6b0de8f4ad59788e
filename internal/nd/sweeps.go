package nd

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// front2 is the two-column front, the planar case of Kung, Luccio and
// Preparata (JACM 1975): one sweep after the sort. Within a run of equal
// first keys only the rows holding the run's least second key can survive;
// they do when that key beats every second key of a strictly better first
// key.
//
// A record's payload packs the row into its low bits and as much of the
// second key as fits above them, so the sweep reads the records in order and
// looks a second key up in values only when two prefixes tie, which on
// continuous data with a million rows (44 bits of prefix) is rare.
//
// The front comes back in the sweep's order, first key ascending, as records
// of the first key and the row, written over the sorted records.
func front2(values []float64, n int, flip []uint64, t ndTuning) []Rec {
	f0, f1 := flip[0], flip[1]
	rowBits := uint(bits.Len(uint(n - 1)))
	rowMask := uint64(1)<<rowBits - 1
	pack := func(k1 uint64, r int) uint64 { return k1&^rowMask | uint64(r) }
	var recs []Rec
	filtered := n >= t.prefilterMin
	if filtered {
		// The pivot loop of pivotFilter, unrolled for two columns since it is
		// most of the cost when little survives.
		p := newPivotSet(values, n, 2, flip)
		pk := p.keys
		lo0, lo1, sc0, sc1 := p.lo[0], p.lo[1], p.scale[0], p.scale[1]
		if f0 != 0 {
			sc0 = -sc0 // score -v as (v - -lo)·-scale
			lo0 = -lo0
		}
		if f1 != 0 {
			sc1 = -sc1
			lo1 = -lo1
		}
		// Room for the sort's scratch comes with the survivors' records.
		recs = make([]Rec, 0, 2*min(n, 4096))
		stale := 0
		probe := t.probeAt(n)
		for r := 0; r < n; r++ {
			if r == probe && 2*len(recs) > r { // as in pivotFilter
				filtered = false
				break
			}
			v0, v1 := values[2*r], values[2*r+1]
			k0, k1 := FastKey(v0, f0), FastKey(v1, f1)
			dominated := false
			for i := 0; i < len(pk) && !dominated; i += 2 {
				p0, p1 := pk[i], pk[i+1]
				dominated = p0 <= k0 && p1 <= k1 && (p0 < k0 || p1 < k1)
			}
			if dominated {
				continue
			}
			if 2*len(recs) == cap(recs) {
				recs = append(make([]Rec, 0, 2*growCap(len(recs), n)), recs...)
			}
			recs = append(recs, Rec{Key: k0, Aux: pack(k1, r)})
			changed := false
			if s := unitClamp((v0-lo0)*sc0) + unitClamp((v1-lo1)*sc1); s < p.kneeScore {
				p.kneeScore, pk[0], pk[1], changed = s, k0, k1, true
			}
			// A column's lexicographic best is on the front.
			if k0 < pk[2] || k0 == pk[2] && k1 < pk[3] {
				pk[2], pk[3], changed = k0, k1, true
			}
			if k1 < pk[5] || k1 == pk[5] && k0 < pk[4] {
				pk[4], pk[5], changed = k0, k1, true
			}
			if changed {
				stale = len(recs)
			}
		}
		f := 0
		for j, rec := range recs {
			k1 := FastKey(values[2*(rec.Aux&rowMask)+1], f1)
			if j >= stale || !p.dominated([]uint64{rec.Key, k1}) {
				recs[f] = rec
				f++
			}
		}
		recs = recs[:f]
	}
	if !filtered {
		// A pre-filter that stood down leaves its buffer, big enough for
		// the records and the sort's scratch when n is small.
		if cap(recs) >= 2*n {
			recs = recs[:n]
		} else {
			recs = make([]Rec, n, 2*n)
		}
		for r := range recs {
			recs[r] = Rec{Key: FastKey(values[2*r], f0), Aux: pack(FastKey(values[2*r+1], f1), r)}
		}
	}
	m := len(recs)
	var buf []Rec
	if cap(recs) >= 2*m {
		buf = recs[m : 2*m]
	} else {
		buf = make([]Rec, m)
	}
	sorted, _ := sortRecs(recs, buf, t)
	exact := func(aux uint64) uint64 { return FastKey(values[2*(aux&rowMask)+1], f1) }
	// less reports whether the second key of payload a is below that of b.
	less := func(a, b uint64) bool {
		if a>>rowBits != b>>rowBits {
			return a>>rowBits < b>>rowBits
		}
		return exact(a) < exact(b)
	}
	var best uint64 // the payload of a row with the best second key so far
	seen := false
	// The front overwrites the records already read: count never passes i.
	count := 0
	keep := func(k0, aux uint64) {
		sorted[count] = Rec{Key: k0, Aux: aux & rowMask}
		count++
	}
	for i := 0; i < m; {
		k0 := sorted[i].Key
		j := KeyRunEnd(sorted, i)
		if j == i+1 { // the common case: no tie in the first key
			if a := sorted[i].Aux; !seen || less(a, best) {
				keep(k0, a)
				best, seen = a, true
			}
			i = j
			continue
		}
		run := sorted[i:j]
		runMin := run[0].Aux
		for _, s := range run[1:] {
			if less(s.Aux, runMin) {
				runMin = s.Aux
			}
		}
		if !seen || less(runMin, best) {
			for _, s := range run {
				if !less(runMin, s.Aux) {
					keep(k0, s.Aux)
				}
			}
			best, seen = runMin, true
		}
		i = j
	}
	return sorted[:count]
}

// front2Small is the two-column front of a pool of at most a few thousand
// rows, in ascending row order, or nil when it does not apply; it needs no
// sort of the whole pool. It works on the values themselves, negated in a
// maximized column, and so gives up (nil) on a NaN, an infinite first
// value, a range that overflows, or a second column holding both +Inf and
// -Inf, for the sorting path front2.
//
// The range of the first column is cut into 2n equal buckets (rangeCut),
// so an earlier bucket holds only smaller first values and equal values
// share one. A counting sort by bucket then orders the rows
// lexicographically: each row is inserted among the rows already in its
// bucket, a row or two on values that spread over their range, and a
// bucket of more than crowd rows is sorted instead, so that the worst case
// stays O(n log n). The sweep of front2 follows: a row is dominated iff an
// earlier one has a smaller second value, or an equal one and a smaller
// first value. Which rows survive is a coin toss on most data, so the
// sweep marks them by flags rather than branching.
//
// The cost is five short passes over the rows and one over the buckets,
// with no allocation but the result's (the rest is pooled): on a thousand
// rows of a line, all on the front, about 129 instructions a row under
// cachegrind. n must be below 1<<15, so that rows and buckets fit in 16
// bits.
func front2Small(values []float64, n int, flip []uint64, crowd int) []int {
	s0, s1 := flipSign(flip[0]), flipSign(flip[1])
	sc := front2Pool.Get().(*front2Scratch)
	front := sc.sweep(values[:2*n], n, s0, s1, crowd)
	front2Pool.Put(sc)
	return front
}

// sweep is front2Small on the scratch's memory.
func (sc *front2Scratch) sweep(values []float64, n int, s0, s1 float64, crowd int) []int {
	buckets := 2 * n
	sv, of, start, free, order, keep := sc.take(n, buckets)
	// sum is NaN once a value is, or once +Inf and -Inf met in it (then the
	// sorting path takes over too); the range passes a NaN over.
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for r := range sv {
		p := values[2*r : 2*r+2 : 2*r+2]
		v0, v1 := s0*p[0], s1*p[1]
		sum += v0 + v1
		sv[r] = [2]float64{v0, v1}
		if v0 < lo {
			lo = v0
		}
		if v0 > hi {
			hi = v0
		}
	}
	cut, ok := cutRange(lo, hi, buckets)
	if !ok || sum != sum {
		return nil
	}
	for r, v := range sv {
		b := cut.bucket(v[0])
		of[r] = uint16(b)
		start[b+1]++
	}
	prefixSums(start)
	// Each row goes to the next free place of its bucket, and then before
	// the rows of its bucket that it precedes. Once a bucket holds crowd
	// rows, the rows that follow are only appended, and the bucket is
	// sorted once all are in place, so that the worst case stays
	// O(n log n).
	copy(free, start)
	sc.crowded = sc.crowded[:0]
	for r, b := range of {
		p := free[b]
		free[b] = p + 1
		if p > start[b] {
			if held := int(p - start[b]); held < crowd {
				p = insertPlace(sv, order, start[b], p, sv[r])
			} else if held == crowd {
				sc.crowded = append(sc.crowded, uint16(b))
			}
		}
		order[p] = uint16(r)
	}
	for _, b := range sc.crowded {
		sortRows2(sv, order[start[b]:free[b]])
	}
	// best is the least second value so far, with the least first value
	// among the rows that hold it (both +Inf before the first row): a row is
	// dominated iff its second value is greater, or equal with a greater
	// first value; best's first value is never greater than the row's, but
	// for the +Inf it starts with. Marks are by row, for the front in row
	// order.
	best0, best1 := math.Inf(1), math.Inf(1)
	for _, r := range order {
		v := &sv[r]
		v0, v1 := v[0], v[1]
		keep[r] = uint8(1 ^ (OneIf(best1 < v1) | OneIf(best1 <= v1)&OneIf(best0 < v0)))
		if v1 < best1 || v1 == best1 && v0 < best0 {
			best0, best1 = v0, v1
		}
	}
	front := make([]int, n)
	f := 0
	for r, k := range keep {
		front[f] = r
		f += int(k)
	}
	return front[:f]
}

// insertPlace moves up by one the rows of order[lo:p] that v, a row's
// signed values, precedes lexicographically, and returns the place it left
// for v.
func insertPlace(sv [][2]float64, order []uint16, lo, p uint16, v [2]float64) uint16 {
	for ; p > lo; p-- {
		u := sv[order[p-1]]
		if !(v[0] < u[0] || v[0] == u[0] && v[1] < u[1]) {
			break
		}
		order[p] = order[p-1]
	}
	return p
}

// prefixSums replaces each count by the sum of the counts up to it. It
// runs over 2n buckets a call, twice as many as there are rows, so it adds
// four at a time.
func prefixSums(counts []uint16) {
	var at uint16
	b := 0
	for ; b+4 <= len(counts); b += 4 {
		c := counts[b : b+4 : b+4]
		c0 := at + c[0]
		c1 := c0 + c[1]
		c2 := c1 + c[2]
		at = c2 + c[3]
		c[0], c[1], c[2], c[3] = c0, c1, c2, at
	}
	for ; b < len(counts); b++ {
		at += counts[b]
		counts[b] = at
	}
}

// sortRows2 sorts rows lexicographically by their signed values sv.
func sortRows2(sv [][2]float64, rows []uint16) {
	slices.SortFunc(rows, func(a, b uint16) int { return slices.Compare(sv[a][:], sv[b][:]) })
}

// front2Scratch is the memory of one front2Small call but its result,
// pooled: allocating it each time costs about as much as the passes, in
// the collector's work more than in the allocation.
type front2Scratch struct {
	sv                              [][2]float64
	of, start, free, order, crowded []uint16
	keep                            []uint8
}

var front2Pool = sync.Pool{New: func() any { return new(front2Scratch) }}

// take returns the scratch's arrays for n rows and the given number of
// buckets: per row its signed values, its bucket, its place in the order
// and its mark; per bucket and one more a count, zeroed, and a next free
// place. The caller sets every other entry it reads.
func (sc *front2Scratch) take(n, buckets int) (sv [][2]float64, of, start, free, order []uint16, keep []uint8) {
	if cap(sc.of) < n {
		sc.sv, sc.of, sc.order, sc.keep = make([][2]float64, n), make([]uint16, n), make([]uint16, n), make([]uint8, n)
	}
	if cap(sc.start) < buckets+1 {
		sc.start, sc.free = make([]uint16, buckets+1), make([]uint16, buckets+1)
	}
	start = sc.start[:buckets+1]
	clear(start)
	return sc.sv[:n], sc.of[:n], start, sc.free[:buckets+1], sc.order[:n], sc.keep[:n]
}

// flipSign is the sign that turns a value of a column with FastKey's mask
// flip into one where smaller is better: -1 for a maximized column.
func flipSign(flip uint64) float64 {
	if flip != 0 {
		return -1
	}
	return 1
}

// rangeCut cuts a range of values into equal buckets, for front2Small and
// front3Buckets. A value's bucket is (value − least value) scaled to the
// bucket count and truncated; every step of that is monotone, so an earlier
// bucket holds only smaller values and equal values share a bucket.
type rangeCut struct {
	lo, scale, last float64
	buckets         int
}

// cutRange cuts [lo, hi] into buckets, or reports false when the range is
// infinite or overflows. When lo = hi the scale is +Inf and every value
// goes to the last bucket.
func cutRange(lo, hi float64, buckets int) (rangeCut, bool) {
	span := hi - lo
	if !(span <= math.MaxFloat64) {
		return rangeCut{}, false
	}
	return rangeCut{lo, float64(buckets) / span, float64(buckets - 1), buckets}, true
}

// bucket returns v's bucket, the last for NaN and for v at the top.
func (c rangeCut) bucket(v float64) int {
	if x := (v - c.lo) * c.scale; x < c.last {
		return int(x)
	}
	return c.buckets - 1
}

// LexSort is lexSort with the default tuning: the m key rows of keys, dims
// columns each, in lexicographic order, as records of their first key and
// key row.
func LexSort(keys []uint64, dims, m int) (sorted, spare []Rec) {
	return lexSort(keys, dims, m, ndDefaults)
}

// lexSort sorts the key rows lexicographically: a radix sort on the first
// column, then a comparison sort inside each run of equal first keys, which
// is short unless the data is degenerate.
func lexSort(keys []uint64, dims, m int, t ndTuning) (sorted, spare []Rec) {
	recs := make([]Rec, 2*m)
	for j := range m {
		recs[j] = Rec{Key: keys[dims*j], Aux: uint64(j)}
	}
	sorted, spare = sortRecs(recs[:m], recs[m:], t)
	for i := 0; i < m; {
		j := KeyRunEnd(sorted, i)
		if j-i > 1 {
			slices.SortFunc(sorted[i:j], func(a, b Rec) int {
				x, y := int(a.Aux), int(b.Aux)
				return slices.Compare(keys[x*dims+1:(x+1)*dims], keys[y*dims+1:(y+1)*dims])
			})
		}
		i = j
	}
	return sorted, spare
}

// front3 is the three-column maxima algorithm of H. T. Kung, F. Luccio and
// F. P. Preparata ("On finding the maxima of a set of vectors", JACM 22(4),
// 1975), O(n log n): a sweep in lexicographic order. Everything swept
// before a row is lexicographically smaller, so an earlier distinct row
// with second and third keys no worse dominates it. The staircase of those
// pairs is a Fenwick tree over the dense ranks of the second key holding
// prefix minima of the third: O(log n) to ask and to insert, with no
// rebalancing.
//
// It returns the key rows in lexicographic order (see lexSort) and keep,
// which marks, by key row, the rows on the front.
func front3(keys []uint64, m int, t ndTuning) (lex []Rec, keep []bool) {
	if m <= t.small3 {
		return front3Small(keys, m)
	}
	lex, spare := lexSort(keys, 3, m, t)
	// One gather into lexicographic order, after which the sweep reads
	// sequentially: equal second keys have equal ranks, so a duplicate row
	// is an equal first key, rank and third key.
	byK1 := make([]Rec, m)
	k2 := make([]uint64, m)
	for i, s := range lex {
		byK1[i] = Rec{Key: keys[3*s.Aux+1], Aux: uint64(i)}
		k2[i] = keys[3*s.Aux+2]
	}
	byK1, _ = sortRecs(byK1, spare, t)
	rank := make([]int, m)
	ranks := 0
	for i, s := range byK1 {
		if i > 0 && s.Key != byK1[i-1].Key {
			ranks++
		}
		rank[s.Aux] = ranks
	}
	ranks++
	tree := make([]uint64, ranks+1)
	for i := range tree {
		tree[i] = math.MaxUint64
	}
	// MaxUint64 is also the key of NaN, so emptiness is tracked apart: a
	// prefix holds a row iff it reaches the least rank inserted.
	lowest := ranks
	keep = make([]bool, m)
	for i := 0; i < m; {
		r, z := rank[i], k2[i]
		j := i + 1
		for j < m && lex[j].Key == lex[i].Key && rank[j] == r && k2[j] == z {
			j++
		}
		dominated := false
		if lowest <= r {
			best := uint64(math.MaxUint64)
			for x := r + 1; x > 0; x -= x & -x {
				best = min(best, tree[x])
			}
			dominated = best <= z
		}
		if !dominated {
			for _, s := range lex[i:j] {
				keep[s.Aux] = true
			}
			for x := r + 1; x <= ranks; x += x & -x {
				tree[x] = min(tree[x], z)
			}
			lowest = min(lowest, r)
		}
		i = j
	}
	return lex, keep
}

// front3Small is front3 for the few hundred rows a small pool leaves after
// the pre-filter, where the set-up of the Fenwick tree (a second sort, the
// ranks, five buffers) costs more than the sweep: one comparison sort into
// lexicographic order, and the staircase of the last two keys as a sorted
// slice, searched by bisection and edited in place, O(n log n + n·s) for a
// staircase of s steps.
func front3Small(keys []uint64, m int) (lex []Rec, keep []bool) {
	lex = make([]Rec, m)
	for j := range lex {
		lex[j] = Rec{Key: keys[3*j], Aux: uint64(j)}
	}
	slices.SortFunc(lex, func(a, b Rec) int {
		if a.Key != b.Key {
			return cmp.Compare(a.Key, b.Key)
		}
		x, y := keys[3*a.Aux+1:3*a.Aux+3], keys[3*b.Aux+1:3*b.Aux+3]
		if x[0] != y[0] {
			return cmp.Compare(x[0], y[0])
		}
		return cmp.Compare(x[1], y[1])
	})
	keep = make([]bool, m)
	// The steps (second key, third key) of the rows kept so far that no
	// other kept row beats in both: second keys ascending, third keys
	// descending. Every kept row is lexicographically earlier than the
	// row asked about, so a step no worse in both keys dominates it.
	type step struct{ y, z uint64 }
	stairs := make([]step, 0, 16)
	for i := 0; i < m; {
		r := 3 * lex[i].Aux
		y, z := keys[r+1], keys[r+2]
		j := i + 1
		for j < m && lex[j].Key == lex[i].Key && keys[3*lex[j].Aux+1] == y && keys[3*lex[j].Aux+2] == z {
			j++
		}
		// Of the steps with second key ≤ y, the last has the least third.
		p, _ := slices.BinarySearchFunc(stairs, y, func(s step, y uint64) int {
			if s.y <= y {
				return -1
			}
			return 1
		})
		if p > 0 && stairs[p-1].z <= z {
			i = j
			continue
		}
		for _, s := range lex[i:j] {
			keep[s.Aux] = true
		}
		// The steps after p have greater second keys; those with third
		// keys no better than z are beaten in both and go. (A step with
		// second key y just before p stays: redundant, never wrong.)
		q := p
		for q < len(stairs) && stairs[q].z >= z {
			q++
		}
		stairs = slices.Replace(stairs, p, q, step{y, z})
		i = j
	}
	return lex, keep
}

// front3Buckets is the three-column front of a pool of at most a few
// thousand rows, in ascending row order, or nil when it does not apply: the
// sweep of front3Small, in an order that buckets give without a sort of
// the pool. Like front2Small it works on the values, negated in maximized
// columns. It gives up (nil) on a NaN or a row holding both infinities (its
// sum is NaN), and on an infinite first value or a range that overflows
// among the rows the pre-filter keeps.
//
// A knee pre-filter comes first: the rows that the knee, the row so far of
// least scaled sum, does not dominate are candidates, and those seen before
// the last knee meet it again. The candidates' first-column range is cut
// into 2m equal buckets (rangeCut), read in order, the rows of each sorted
// lexicographically on the way (insertion sort; slices.SortFunc when more
// than a few), which puts the candidates in lexicographic order. Each row
// is tested first against the last row found to dominate another: on data
// with a small front a few rows dominate most of the pool, and the test
// spares the bisection of the staircase.
func front3Buckets(values []float64, n int, flip []uint64) []int {
	sign := [3]float64{flipSign(flip[0]), flipSign(flip[1]), flipSign(flip[2])}
	values = values[:3*n]
	row := func(r int) (v0, v1, v2 float64) {
		v := values[3*r : 3*r+3 : 3*r+3]
		return sign[0] * v[0], sign[1] * v[1], sign[2] * v[2]
	}
	// A knee pre-filter: the rows so far that the knee, the row of least
	// scaled sum, does not dominate are candidates. The scales are the
	// ranges of the first rows, so that no column's unit decides the knee.
	var scale [3]float64
	for c := range scale {
		lo, hi := math.Inf(1), math.Inf(-1)
		for r := range min(n, 16) {
			v := values[3*r+c]
			lo, hi = min(lo, v), max(hi, v)
		}
		scale[c] = sign[c]
		if w := hi - lo; w > 0 && w <= math.MaxFloat64 {
			scale[c] /= w
		}
	}
	cand := make([]uint16, 0, n)
	var knee [3]float64
	kneeScore := math.Inf(1)
	stale := 0 // the candidates from here on came after the knee did
	for r := range n {
		v := values[3*r : 3*r+3 : 3*r+3]
		// NaN anywhere makes the sum NaN (as does +Inf beside -Inf, which
		// then goes to front3 too).
		if sum := v[0] + v[1] + v[2]; sum != sum {
			return nil
		}
		v0, v1, v2 := sign[0]*v[0], sign[1]*v[1], sign[2]*v[2]
		if len(cand) > 0 && dominates3(&knee, v0, v1, v2) {
			continue
		}
		cand = append(cand, uint16(r))
		if s := scale[0]*v[0] + scale[1]*v[1] + scale[2]*v[2]; s < kneeScore || len(cand) == 1 {
			knee, kneeScore, stale = [3]float64{v0, v1, v2}, s, len(cand)
		}
	}
	// Candidates before the last knee meet it now, and the rest give the
	// range of the first column.
	lo, hi := math.Inf(1), math.Inf(-1)
	m := 0
	for i, r := range cand {
		v0, v1, v2 := row(int(r))
		if i < stale-1 && dominates3(&knee, v0, v1, v2) {
			continue
		}
		cand[m] = r
		m++
		if v0 < lo {
			lo = v0
		}
		if v0 > hi {
			hi = v0
		}
	}
	cand = cand[:m]
	buckets := 2 * m
	cut, ok := cutRange(lo, hi, buckets)
	if !ok {
		return nil
	}
	links := make([]uint16, buckets+m) // 1 + candidate; 0 ends a list
	head, next := links[:buckets], links[buckets:]
	for i, r := range cand {
		b := cut.bucket(sign[0] * values[3*int(r)])
		next[i], head[b] = head[b], uint16(i+1)
	}
	kept := make([]uint64, (n+63)/64)
	st := stairs3{steps: make([]step3, 0, 32)}
	var small [16]row3
	for _, h := range head {
		if h == 0 {
			continue
		}
		if next[h-1] == 0 { // the common case: a bucket of one row
			r := int(cand[h-1])
			if !st.covers(sign[1]*values[3*r+1], sign[2]*values[3*r+2]) {
				kept[r>>6] |= 1 << (r & 63)
			}
			continue
		}
		bucket := small[:0]
		for i := h; i != 0; i = next[i-1] {
			r := int(cand[i-1])
			v0, v1, v2 := row(r)
			bucket = append(bucket, row3{[3]float64{v0, v1, v2}, r})
		}
		sortRows3(bucket, len(small))
		for i := 0; i < len(bucket); {
			j := i + 1
			for j < len(bucket) && bucket[j].v == bucket[i].v {
				j++
			}
			if !st.covers(bucket[i].v[1], bucket[i].v[2]) {
				for _, x := range bucket[i:j] {
					kept[x.row>>6] |= 1 << (x.row & 63)
				}
			}
			i = j
		}
	}
	return setRows(kept)
}

// dominates3 reports whether the signed row p dominates (v0, v1, v2).
func dominates3(p *[3]float64, v0, v1, v2 float64) bool {
	return p[0] <= v0 && p[1] <= v1 && p[2] <= v2 && (p[0] < v0 || p[1] < v1 || p[2] < v2)
}

// row3 is a row of front3Buckets: its signed values and its index.
type row3 struct {
	v   [3]float64
	row int
}

// compareRows3 orders rows of front3Buckets, which hold no NaN,
// lexicographically.
func compareRows3(a, b *row3) int {
	if c := cmp.Compare(a.v[0], b.v[0]); c != 0 {
		return c
	}
	if c := cmp.Compare(a.v[1], b.v[1]); c != 0 {
		return c
	}
	return cmp.Compare(a.v[2], b.v[2])
}

// sortRows3 sorts rows lexicographically: by insertion up to few rows, by
// slices.SortFunc above.
func sortRows3(rows []row3, few int) {
	if len(rows) > few {
		slices.SortFunc(rows, func(a, b row3) int { return compareRows3(&a, &b) })
		return
	}
	for j := 1; j < len(rows); j++ {
		x := rows[j]
		k := j
		for ; k > 0 && compareRows3(&x, &rows[k-1]) < 0; k-- {
			rows[k] = rows[k-1]
		}
		rows[k] = x
	}
}

// step3 is a step of stairs3: the last two values of a row.
type step3 struct{ y, z float64 }

// stairs3 is the staircase of front3Small on values: the last two values of
// the rows kept so far that no other kept row beats in both, y ascending and
// z descending; and the last step found to dominate a row.
type stairs3 struct {
	steps      []step3
	cached     step3
	haveCached bool
}

// covers reports whether a row swept now, with last values y and z, is
// dominated: whether some earlier distinct row is no worse in both. When it
// is not, the row becomes a step. The test against the cached step is all
// most rows need on data with a small front, and small enough to inline.
func (s *stairs3) covers(y, z float64) bool {
	if s.haveCached && s.cached.y <= y && s.cached.z <= z {
		return true
	}
	return s.search(y, z)
}

// search is covers past the cached step.
func (s *stairs3) search(y, z float64) bool {
	// Of the steps with y' ≤ y, the last, before p, has the least z.
	lo, hi := 0, len(s.steps)
	for lo < hi {
		if mid := int(uint(lo+hi) >> 1); s.steps[mid].y <= y {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	p := lo
	if p > 0 && s.steps[p-1].z <= z {
		s.cached, s.haveCached = s.steps[p-1], true
		return true
	}
	// The steps from p on have greater y; those with z no better go. (A step
	// with y' = y just before p stays: redundant, never wrong.)
	q := p
	for q < len(s.steps) && s.steps[q].z >= z {
		q++
	}
	s.steps = slices.Replace(s.steps, p, q, step3{y, z})
	return false
}
