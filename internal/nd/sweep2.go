package nd

import (
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
	rowBits := payloadRowBits(n)
	rowMask := uint64(1)<<rowBits - 1
	pack := func(k1 uint64, r int) uint64 { return k1&^rowMask | uint64(r) }
	recs, filtered := front2Filter(values, n, flip, rowMask, t)
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
		return a>>rowBits < b>>rowBits || a>>rowBits == b>>rowBits && exact(a) < exact(b)
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

// payloadRowBits is the bits that front2's record payloads give the row,
// of n rows: as few as hold row n-1, so that as much of the second key as
// fits goes above them.
func payloadRowBits(n int) uint { return uint(bits.Len(uint(n - 1))) }

// front2Filter is front2's pre-filter, the pivot loop of pivotFilter
// unrolled for two columns since it is most of the cost when little
// survives. It returns the records of the rows that no pivot dominates, in
// row order, each of the row's first key and its payload (the second key
// above rowMask, the row in it), in a buffer with room for as many again,
// the sort's scratch; and true. Below t.prefilterMin rows it does not run,
// and at the probe row, when most rows so far survived, it stands down:
// then it returns false, with its buffer (nil if it did not run) for
// front2 to reuse.
func front2Filter(values []float64, n int, flip []uint64, rowMask uint64, t ndTuning) (recs []Rec, filtered bool) {
	if n < t.prefilterMin {
		return nil, false
	}
	f0, f1 := flip[0], flip[1]
	p := newPivotSet(values, n, 2, flip, nil)
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
			return recs, false
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
		recs = append(recs, Rec{Key: k0, Aux: k1&^rowMask | uint64(r)})
		changed := false
		if s := unitClamp((v0-lo0)*sc0) + unitClamp((v1-lo1)*sc1); s < p.kneeScore {
			p.kneeScore, pk[0], pk[1], changed = s, k0, k1, true
		}
		// A column's lexicographic best is on the front. No pivot
		// dominates the row, so if it is as good as the best in the
		// column and not equal to it, it is lexicographically better.
		if k0 <= pk[2] && (k0 != pk[2] || k1 != pk[3]) {
			pk[2], pk[3], changed = k0, k1, true
		}
		if k1 <= pk[5] && (k1 != pk[5] || k0 != pk[4]) {
			pk[4], pk[5], changed = k0, k1, true
		}
		if changed {
			stale = len(recs)
		}
	}
	// The survivors after stale met the final pivots; those before it meet
	// them now.
	f := 0
	for _, rec := range recs[:stale] {
		k1 := FastKey(values[2*(rec.Aux&rowMask)+1], f1)
		if !p.dominated([]uint64{rec.Key, k1}) {
			recs[f] = rec
			f++
		}
	}
	f += copy(recs[f:], recs[stale:])
	return recs[:f], true
}

// front2Small is the two-column front of a pool of at most a few thousand
// rows, in ascending row order, or nil when it does not apply; it needs no
// sort of the whole pool. It works on the values themselves, negated in a
// maximized column, and so gives up (nil) on a NaN, an infinite first
// value, a range that overflows, or a second column holding both +Inf and
// -Inf, for the sorting path front2.
//
// lexOrder orders the rows lexicographically without a comparison sort:
// by two counting passes over fixed-point keys of the first values for up
// to a couple of thousand rows (radixOrder), and by a counting sort into
// 2n buckets of equal width beyond (bucketOrder). The sweep of front2
// follows: a row is dominated iff an earlier one has a smaller second
// value, or an equal one and a smaller first value. Which rows survive is
// a coin toss on most data, so the sweep marks them by flags rather than
// branching.
//
// There is no allocation but the result's (the rest is pooled). n must be
// below 1<<15, so that rows and buckets fit in 16 bits.
func front2Small(values []float64, n int, flip []uint64, crowd int) []int {
	s0, s1 := flipSign(flip[0]), flipSign(flip[1])
	sc := front2Pool.Get().(*front2Scratch)
	front := sc.sweep(values[:2*n], n, s0, s1, crowd)
	front2Pool.Put(sc)
	return front
}

// SmallLexOrder2Max is the most rows LexOrder2 takes: its buckets, two per
// row, and its rows are numbered in 16 bits.
const SmallLexOrder2Max = 1 << 14

// LexOrder2 is the order of front2Small for the sweeps of other engines: it
// calls use with each row's values, negated in a maximized column so that
// smaller is better, and with the rows in lexicographic order of those
// (equal rows next to each other), and returns true. Where front2Small
// gives up (a NaN, an infinite first value, a range of first values that
// overflows, or a running sum of the signed values, row by row, that meets
// both infinities: +Inf and -Inf in the second column, or finite values
// that overflow beside an infinity of the other sign) it returns false
// without calling use. n must be at most SmallLexOrder2Max. sv and order
// are pooled: they are valid only until use returns.
func LexOrder2(values []float64, n int, maximize []bool, use func(sv [][2]float64, order []uint16)) bool {
	s0, s1 := 1.0, 1.0
	if maximize[0] {
		s0 = -1
	}
	if maximize[1] {
		s1 = -1
	}
	sc := front2Pool.Get().(*front2Scratch)
	sv, order, _, ok := sc.lexOrder(values[:2*n:2*n], n, s0, s1, ndDefaults.crowd)
	if ok {
		use(sv, order)
	}
	front2Pool.Put(sc)
	return ok
}

// sweep is front2Small on the scratch's memory.
func (sc *front2Scratch) sweep(values []float64, n int, s0, s1 float64, crowd int) []int {
	sv, order, keep, ok := sc.lexOrder(values, n, s0, s1, crowd)
	if !ok {
		return nil
	}
	// best is the least second value so far, with the least first value
	// among the rows that hold it (both +Inf before the first row): a row is
	// dominated iff its second value is greater, or equal with a greater
	// first value; best's first value is never greater than the row's, but
	// for the +Inf it starts with. Marks are by row, for the front in row
	// order.
	best0, best1 := math.Inf(1), math.Inf(1)
	kept := 0
	for _, r := range order {
		v := &sv[r]
		v0, v1 := v[0], v[1]
		k := 1 ^ (OneIf(best1 < v1) | OneIf(best1 <= v1)&OneIf(best0 < v0))
		keep[r] = uint8(k)
		kept += k
		// A kept row is the new best: its second value is below best's, or
		// equal with a first value no greater (an equal row changes
		// nothing).
		if k != 0 {
			best0, best1 = v0, v1
		}
	}
	// The result is allocated at its size: n places for a front of a few
	// rows cost more in zeroing and collection than the sweep.
	front := make([]int, kept)
	f := 0
	for r, k := range keep {
		if k != 0 {
			front[f] = r
			f++
		}
	}
	return front
}

// lexOrder is the first half of front2Small, an order without a
// comparison sort: it fills sv with each row's signed values and order
// with the rows in lexicographic order of those, and returns them with
// keep, room for a mark per row; or ok = false where front2Small gives up.
// Up to lexRadixMax rows it orders them by radixOrder, and beyond by
// bucketOrder.
func (sc *front2Scratch) lexOrder(values []float64, n int, s0, s1 float64, crowd int) (sv [][2]float64, order []uint16, keep []uint8, ok bool) {
	sv, order, keep = sc.take(n)
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
	if !(hi-lo <= math.MaxFloat64) || sum != sum {
		return nil, nil, nil, false
	}
	if n <= min(lexRadixMax, radixRows) {
		if sc.radix == nil {
			sc.radix = new(radixScratch)
		}
		sc.radix.radixOrder(sv, order, lo, hi, crowd)
	} else {
		sc.bucketOrder(sv, order, lo, hi, crowd)
	}
	return sv, order, keep, true
}

// lexRadixMax is the most rows lexOrder orders by radixOrder, at most
// radixRows; a variable so that tests can force either way.
//
// Placing each row among the rows already in its bucket, as bucketOrder
// does, branches on whether the bucket holds any, a coin toss that on
// fresh data the predictor cannot learn: cachegrind's model mispredicted
// 665 branches a call on a thousand rows of a circle. On 64
// fresh matrices of 1000 rows (BenchmarkMoocore's …/fresh rows,
// NonDominated and NonDominatedSort, five alternated runs), radixOrder's
// medians were 0.71-0.72 of bucketOrder's on a circle, 0.83-0.87 on a
// line and 0.84-0.96 on uniform rows. On one matrix timed again and
// again, whose branches the predictor learns, they were 1.09-1.39, and
// radixOrder runs more instructions; on 10⁴ rows bucketOrder stays the
// faster (radixOrder took 1.05-1.16 times as long), which sets the bound.
var lexRadixMax = radixRows

// The records of radixOrder are 32 bits: a row in the radixRowBits low
// bits and a key of two digits of at most radixDigitBits bits above.
const (
	radixRowBits   = 11
	radixRows      = 1 << radixRowBits
	radixDigitBits = 10
	radixDigits    = 1 << radixDigitBits
)

// radixOrder fills order with the rows in lexicographic order of their
// signed values sv, at most radixRows, whose first values lie in [lo, hi],
// finite.
//
// A row's key is its first value's bucket among 2^(2w) (rangeCut), which
// is monotone in the value, so ordering the keys orders the rows but
// within runs of equal keys. Two stable counting passes of w bits each order the keys without a
// branch on the data; a run of equal keys (equal first values, or values
// closer than the key's resolution), which continuous data hardly has, is
// then ordered by the values, by insertion up to crowd rows and by a sort
// beyond, so that the worst case stays O(n log n).
func (sc *radixScratch) radixOrder(sv [][2]float64, order []uint16, lo, hi float64, crowd int) {
	n := len(sv)
	order = order[:n]
	recs, buf := &sc.recs, &sc.buf
	// A span of 0, or one so small that the scale overflows, puts every row
	// in the last bucket, where the values order them.
	w := uint(min(max(bits.Len(uint(n)), 6), radixDigitBits))
	cut, _ := cutRange(lo, hi, 1<<(2*w))
	digit := uint32(1)<<w - 1
	low, high := &sc.counts[0], &sc.counts[1]
	clear(low[:1<<w])
	clear(high[:1<<w])
	for r, v := range sv {
		key := uint32(cut.bucket(v[0]))
		recs[r&(radixRows-1)] = key<<radixRowBits | uint32(r)
		low[key&digit&(radixDigits-1)]++
		high[key>>w&(radixDigits-1)]++
	}
	var l, h uint16
	for b, c := range low[:1<<w] {
		low[b], l = l, l+c
		high[b], h = h, h+high[b]
	}
	radixPass(recs[:n], buf, low, radixRowBits, digit)
	radixPass(buf[:n], recs, high, radixRowBits+w, digit)
	// Two records share a key iff a record, less the key of the one
	// before it, is below 1<<radixRowBits. first is the first record that
	// shares the key of the one before it, n if none does: on a circle,
	// whose first values crowd at one end, the runs are there, and the
	// search for them starts there (cachegrind, 64 fresh matrices of 1000
	// rows: 7% fewer instructions a call, 0.7% more on uniform rows). prev
	// starts at 1<<31, above every record (keys have at most 20 bits), so
	// that the first record starts a key of its own.
	prev, first := uint32(1)<<31, n
	for i, rec := range recs[:n] {
		order[i] = uint16(rec & (radixRows - 1))
		first = min(first, i+n*OneIf(rec-prev >= radixRows))
		prev = rec &^ (radixRows - 1)
	}
	if first < n {
		sortKeyRuns(sv, order[first-1:], recs[first-1:n], crowd)
	}
}

// radixPass is one stable counting pass of radixOrder: it moves the
// records of src into dst by their digit (the bits above shift, masked by
// digit), starts holding where the first record of each digit goes.
func radixPass(src []uint32, dst *[radixRows]uint32, starts *[radixDigits]uint16, shift uint, digit uint32) {
	for _, rec := range src {
		b := rec >> shift & digit & (radixDigits - 1)
		dst[starts[b]&(radixRows-1)] = rec
		starts[b]++
	}
}

// sortKeyRuns orders each run of rows of order whose records in recs have
// equal keys lexicographically by their values sv: by insertion up to
// crowd rows, and by a sort beyond.
func sortKeyRuns(sv [][2]float64, order []uint16, recs []uint32, crowd int) {
	for i := 0; i+1 < len(recs); i++ {
		key := recs[i] >> radixRowBits
		if recs[i+1]>>radixRowBits != key {
			continue
		}
		j := i + 2
		for j < len(recs) && recs[j]>>radixRowBits == key {
			j++
		}
		if run := order[i:j]; len(run) > crowd {
			sortRows2(sv, run)
		} else {
			for k, r := range run {
				run[insertPlace(sv, run, 0, uint16(k), sv[r])] = r
			}
		}
		i = j - 1
	}
}

// radixScratch is radixOrder's memory, its arrays the largest it takes so
// that every index, masked, needs no bounds check.
type radixScratch struct {
	recs, buf [radixRows]uint32
	counts    [2][radixDigits]uint16
}

// bucketOrder is radixOrder for more rows, by a counting sort on 2n
// buckets of equal width (rangeCut), an earlier bucket holding only
// smaller first values and equal values sharing one: each row is inserted
// among the rows already in its bucket, a row or two on values that spread
// over their range, and a bucket of more than crowd rows is sorted
// instead, so that the worst case stays O(n log n).
func (sc *front2Scratch) bucketOrder(sv [][2]float64, order []uint16, lo, hi float64, crowd int) {
	n := len(sv)
	buckets := 2 * n
	cut, _ := cutRange(lo, hi, buckets)
	of := Grow(&sc.of, n)
	start := Grow(&sc.start, buckets+1)
	free := Grow(&sc.free, buckets+1)
	clear(start)
	for r, v := range sv {
		b := cut.bucket(v[0])
		of[r] = uint16(b)
		start[b+1]++
	}
	prefixSums(start)
	// Each row goes to the next free place of its bucket, and then before
	// the rows of its bucket that it precedes. Once a bucket holds crowd
	// rows, the rows that follow are only appended, and the bucket is
	// sorted once all are in place.
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

// sortRows2 sorts rows lexicographically by their signed values sv.
func sortRows2(sv [][2]float64, rows []uint16) {
	slices.SortFunc(rows, func(a, b uint16) int { return slices.Compare(sv[a][:], sv[b][:]) })
}

// front2Scratch is the memory of one front2Small call but its result,
// pooled: allocating it each time costs about as much as the passes, in
// the collector's work more than in the allocation.
type front2Scratch struct {
	sv                       [][2]float64
	order                    []uint16
	keep                     []uint8
	radix                    *radixScratch
	of, start, free, crowded []uint16 // bucketOrder's
}

var front2Pool = sync.Pool{New: func() any { return new(front2Scratch) }}

// take returns the scratch's arrays for n rows: per row its signed values,
// its place in the order and its mark. The caller sets every entry it
// reads.
func (sc *front2Scratch) take(n int) (sv [][2]float64, order []uint16, keep []uint8) {
	return Grow(&sc.sv, n), Grow(&sc.order, n), Grow(&sc.keep, n)
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
	lo, scale, top float64 // top is the bucket count, as a float
	buckets        int
}

// cutRange cuts [lo, hi] into buckets, or reports false when the range is
// infinite or overflows. When lo = hi the scale is +Inf and every value
// goes to the last bucket.
func cutRange(lo, hi float64, buckets int) (rangeCut, bool) {
	span := hi - lo
	if !(span <= math.MaxFloat64) {
		return rangeCut{}, false
	}
	return rangeCut{lo, float64(buckets) / span, float64(buckets), buckets}, true
}

// bucket returns v's bucket, the last for NaN and for v at the top (a
// scaled value of at least the bucket count).
func (c rangeCut) bucket(v float64) int {
	if x := (v - c.lo) * c.scale; x < c.top {
		return int(x)
	}
	return c.buckets - 1
}
