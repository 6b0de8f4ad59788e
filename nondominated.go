package spica

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// nonDominatedRows is the engine behind [NonDominated], whose godoc names
// the algorithms: the indices of the non-dominated rows of an already
// validated n×dims matrix, ascending. Every path compares the keys of
// fastKey, so "smaller is better" holds in every column; the radix sort is
// radixSort, the pre-filter pivotSet.
//
// Exact duplicates are why ties need care: equal rows never dominate each
// other, but a lexicographic sort makes every dominator of a row come before
// it, so once duplicates are grouped, "some earlier distinct row is no worse
// in every column" is exactly "dominated".
func nonDominatedRows(values []float64, n, dims int, maximize []bool) []int {
	return nonDominatedTuned(values, n, dims, maximize, ndDefaults)
}

// ndTuning holds the sizes at which one path gives way to another. They only
// trade speed; tests shrink them so that small inputs exercise every path.
type ndTuning struct {
	prefilterMin int // fewer rows than this skip the pivot pre-filter
	radixMin     int // fewer rows than this use a comparison sort
	leaf         int // divide and conquer compares all pairs at or below this
	brutePairs   int // the marriage step compares all pairs when |A|·|B| ≤ this
	probe        int // rows the pre-filter sees before judging whether it pays
}

var ndDefaults = ndTuning{prefilterMin: 256, radixMin: 256, leaf: 48, brutePairs: 2048, probe: 4096}

func nonDominatedTuned(values []float64, n, dims int, maximize []bool, t ndTuning) []int {
	if n == 0 {
		return []int{}
	}
	flip := keyFlips(maximize)
	switch dims {
	case 1:
		return minKeyRows(values, flip[0])
	case 2:
		return ascendingRows(front2(values, n, flip, t), n)
	}
	_, keep, rows := frontMarks(values, n, dims, flip, t)
	if rows == nil {
		rows = make([]int, 0, len(keep))
		for j, ok := range keep {
			if ok {
				rows = append(rows, j)
			}
		}
		return rows
	}
	// rows ascends, so compacting it in place keeps the order.
	f := 0
	for j, ok := range keep {
		if ok {
			rows[f] = rows[j]
			f++
		}
	}
	return rows[:f]
}

// frontLead is the engine for callers who want the front along its first
// column: the non-dominated rows as records of their first key and their
// row, key ascending, rows with equal first keys in no set order. The
// records are the engine's own sorted records, so the order costs nothing.
func frontLead(values []float64, n, dims int, maximize []bool, t ndTuning) []ndRec {
	if n == 0 {
		return nil
	}
	flip := keyFlips(maximize)
	switch dims {
	case 1:
		rows := minKeyRows(values, flip[0])
		front := make([]ndRec, len(rows))
		for i, r := range rows {
			front[i] = ndRec{fastKey(values[r], flip[0]), uint64(r)}
		}
		return front
	case 2:
		return front2(values, n, flip, t)
	}
	lex, keep, rows := frontMarks(values, n, dims, flip, t)
	f := 0
	for _, s := range lex {
		if keep[s.aux] {
			row := s.aux
			if rows != nil {
				row = uint64(rows[row])
			}
			lex[f] = ndRec{s.key, row}
			f++
		}
	}
	return lex[:f]
}

// frontMarks is the engine for three or more columns. It returns the key
// rows that pass the pre-filter in lexicographic order, as records of their
// first key and key row; keep, which marks the key rows on the front; and
// the row of each key row, or nil when key row j is row j.
func frontMarks(values []float64, n, dims int, flip []uint64, t ndTuning) (lex []ndRec, keep []bool, rows []int) {
	var keys []uint64
	if n >= t.prefilterMin {
		keys, rows = pivotFilter(values, n, dims, flip, t.probe)
	} else {
		keys = keyMatrix(values, dims, flip)
	}
	m := len(keys) / dims
	if dims == 3 {
		lex, keep = front3(keys, m, t)
	} else {
		lex, keep = frontKung(keys, dims, m, t)
	}
	return lex, keep, rows
}

// ascendingRows lists the rows of front in ascending order, in linear time
// through a bitmap over all n rows.
func ascendingRows(front []ndRec, n int) []int {
	set := make([]uint64, (n+63)/64)
	for _, rec := range front {
		set[rec.aux>>6] |= 1 << (rec.aux & 63)
	}
	rows := make([]int, 0, len(front))
	for w, b := range set {
		for b != 0 {
			rows = append(rows, w<<6|bits.TrailingZeros64(b))
			b &= b - 1
		}
	}
	return rows
}

// keyFlips gives each column the mask fastKey takes: all ones for a
// maximized column.
func keyFlips(maximize []bool) []uint64 {
	flip := make([]uint64, len(maximize))
	for c, up := range maximize {
		if up {
			flip[c] = math.MaxUint64
		}
	}
	return flip
}

// keyMatrix maps every value to its key.
func keyMatrix(values []float64, dims int, flip []uint64) []uint64 {
	keys := make([]uint64, len(values))
	for r := 0; r < len(values); r += dims {
		for c, v := range values[r : r+dims] {
			keys[r+c] = fastKey(v, flip[c])
		}
	}
	return keys
}

// fastKey is [objectiveKey] with the direction as a mask, flip all ones for
// a maximized column, so the passes over every value need no branch but
// the NaN test. Flipping every bit of a negative double and only the sign
// bit of a non-negative one gives the order-preserving image of IEEE 754;
// flipping all of that reverses the order for a maximized column, and keeps
// the image of -Inf, 0xFFF0…0, below NaN's MaxUint64.
func fastKey(v float64, flip uint64) uint64 {
	if v != v {
		return math.MaxUint64
	}
	b := math.Float64bits(v + 0) // -0 + 0 is +0 under round-to-nearest
	b ^= uint64(int64(b)>>63) | 1<<63
	return b ^ flip
}

// minKeyRows is the one-column front: every row that ties for the best key.
func minKeyRows(values []float64, flip uint64) []int {
	best := uint64(math.MaxUint64)
	count := 0
	for _, v := range values {
		switch k := fastKey(v, flip); {
		case k < best:
			best, count = k, 1
		case k == best:
			count++
		}
	}
	front := make([]int, 0, count)
	for i, v := range values {
		if fastKey(v, flip) == best {
			front = append(front, i)
		}
	}
	return front
}

// pivotSet is the pre-filter's memory: a few rows that every row is tested
// against before any sort. The best row of each column cuts the edges of the
// cloud; the row of least sum of normalized values sits near the knee of the
// front, where it covers the most. Pivots improve as rows stream by, so one
// pass both picks them and filters, and on random data the survivors are a
// thin shell near the front. Any row is a sound pivot, as dominance by any
// row disqualifies, so the normalization only has to be good, not exact: its
// range comes from a sample of leading rows.
type pivotSet struct {
	dims      int
	keys      []uint64 // dims+1 key rows: the knee, then each column's best
	kneeScore float64
	lo, scale []float64
	flip      []uint64
}

func newPivotSet(values []float64, n, dims int, flip []uint64) *pivotSet {
	const sample = 1024
	p := &pivotSet{dims: dims, flip: flip, keys: make([]uint64, (dims+1)*dims)}
	p.lo = make([]float64, 2*dims)
	p.scale = p.lo[dims:]
	p.lo = p.lo[:dims]
	for c := range dims {
		lo, hi := math.Inf(1), math.Inf(-1)
		for r := range min(n, sample) {
			v := values[r*dims+c]
			if flip[c] != 0 {
				v = -v
			}
			if !math.IsInf(v, 0) {
				lo, hi = min(lo, v), max(hi, v) // NaN wins neither
			}
		}
		if hi > lo && !math.IsNaN(lo) && !math.IsNaN(hi) {
			p.lo[c], p.scale[c] = lo, 1/(hi-lo)
		} // else a flat column does not steer the knee
	}
	for i := range dims + 1 {
		for c := range dims {
			p.keys[i*dims+c] = fastKey(values[c], flip[c])
		}
	}
	p.kneeScore = p.score(values[:dims])
	return p
}

// score is a row's sum of normalized values.
func (p *pivotSet) score(row []float64) float64 {
	s := 0.0
	for c, v := range row {
		if p.flip[c] != 0 {
			v = -v
		}
		s += unitClamp((v - p.lo[c]) * p.scale[c])
	}
	return s
}

// unitClamp clamps x to [0, 1], NaN to 1: NaN and infinities score as the
// worst or best seen.
func unitClamp(x float64) float64 {
	switch {
	case !(x <= 1):
		return 1
	case x < 0:
		return 0
	}
	return x
}

func (p *pivotSet) dominated(row []uint64) bool {
	for i := 0; i < len(p.keys); i += p.dims {
		if keysDominate(p.keys[i:i+p.dims], row) {
			return true
		}
	}
	return false
}

// offer makes a row that passed the filter a pivot where it beats one, and
// reports whether any pivot changed.
func (p *pivotSet) offer(values []float64, row []uint64) bool {
	d := p.dims
	changed := false
	if s := p.score(values); s < p.kneeScore {
		p.kneeScore = s
		copy(p.keys[:d], row)
		changed = true
	}
	for c := range d {
		best := p.keys[(c+1)*d : (c+2)*d]
		if row[c] < best[c] || keysDominate(row, best) {
			copy(best, row)
			changed = true
		}
	}
	return changed
}

// pivotFilter returns the key rows, and the rows, that no pivot dominates,
// in row order.
//
// When most of the first probe rows survive, as when every row is on the
// front, testing pivots only costs, and the filter stands down: it returns
// every key row and nil rows.
func pivotFilter(values []float64, n, dims int, flip []uint64, probe int) (keys []uint64, rows []int) {
	p := newPivotSet(values, n, dims, flip)
	keys = make([]uint64, 0, min(n, 4096)*dims)
	rows = make([]int, 0, min(n, 4096))
	row := make([]uint64, dims)
	stale := 0 // survivors before this one were tested against older pivots
	for r := 0; r < n; r++ {
		if r == probe && 2*len(rows) > r {
			return keyMatrix(values, dims, flip), nil
		}
		v := values[r*dims : (r+1)*dims]
		for c, x := range v {
			row[c] = fastKey(x, flip[c])
		}
		if p.dominated(row) {
			continue
		}
		if len(rows) == cap(rows) {
			c := growCap(cap(rows), n)
			keys = append(make([]uint64, 0, c*dims), keys...)
			rows = append(make([]int, 0, c), rows...)
		}
		keys = append(keys, row...)
		rows = append(rows, r)
		if p.offer(v, row) {
			stale = len(rows)
		}
	}
	f := 0
	for j, r := range rows {
		kj := keys[j*dims : (j+1)*dims]
		if j >= stale || !p.dominated(kj) {
			copy(keys[f*dims:], kj)
			rows[f] = r
			f++
		}
	}
	return keys[:f*dims], rows[:f]
}

// growCap is the next capacity for the survivors of a pre-filter over n rows.
// Survivors are few on most data, so buffers start small; growing first to
// an eighth and then to all of n keeps a call to at most three allocations
// of each buffer, however many survive.
func growCap(c, n int) int {
	if c < n/8 {
		return n / 8
	}
	return n
}

// keysDominate reports whether key row a dominates key row b: no worse in
// every column and strictly better in one.
func keysDominate(a, b []uint64) bool {
	strict := false
	for k, ka := range a {
		kb := b[k]
		if ka > kb {
			return false
		}
		if ka < kb {
			strict = true
		}
	}
	return strict
}

// ndRec is a sort record: a key and a payload, usually a position. At 16
// bytes, a million records stream through a radix pass a third faster than
// with a second key beside them.
type ndRec struct {
	key, aux uint64
}

// sortRecs sorts recs by key using buf, of the same length, as scratch. It
// returns the sorted slice, which is recs or buf, and the other one.
// Equal keys may come out in any order.
func sortRecs(recs, buf []ndRec, t ndTuning) (sorted, spare []ndRec) {
	if len(recs) < max(t.radixMin, 2) {
		slices.SortFunc(recs, func(a, b ndRec) int { return cmp.Compare(a.key, b.key) })
		return recs, buf
	}
	radixSort(recs, buf, false)
	return recs, buf
}

// sortStable sorts recs by key, equal keys by payload, which for payloads
// that rise with the input order is a stable sort. The result is in recs;
// buf is scratch, allocated when shorter than recs.
func sortStable(recs, buf []ndRec) []ndRec {
	if len(buf) < len(recs) {
		buf = make([]ndRec, len(recs))
	}
	sorted, _ := sortRecs(recs, buf[:len(recs)], ndDefaults)
	sortTiesByAux(sorted)
	return sorted
}

// sortTiesByAux orders each run of equal keys in sorted by payload, for
// callers whose payload is a row index and who need ties in row order.
func sortTiesByAux(sorted []ndRec) {
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j].key == sorted[i].key {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(sorted[i:j], func(a, b ndRec) int { return cmp.Compare(a.aux, b.aux) })
		}
		i = j
	}
}

// radixSort sorts a by key, leaving the result in buf if inBuf and in a
// otherwise; the other slice is scratch.
//
// It is a most-significant-digit radix sort. Keys of floats crowd into few
// exponents, so each call takes its digit just below the prefix its keys all
// share, and sizes the digit to the number of keys: a million keys are
// scattered once out of cache into 2048 buckets of a few hundred, and every
// later level runs in cache. A least-significant-digit sort would stream the
// whole array six times (11-bit digits) and measured about twice as slow here.
// Recursion stops at equal keys or a bucket small enough for insertion sort.
func radixSort(a, buf []ndRec, inBuf bool) {
	n := len(a)
	if n <= 32 {
		for i := 1; i < n; i++ {
			x := a[i]
			j := i
			for ; j > 0 && a[j-1].key > x.key; j-- {
				a[j] = a[j-1]
			}
			a[j] = x
		}
		if inBuf {
			copy(buf, a)
		}
		return
	}
	lo, hi := a[0].key, a[0].key
	for _, r := range a {
		lo, hi = min(lo, r.key), max(hi, r.key)
	}
	if lo == hi {
		if inBuf {
			copy(buf, a)
		}
		return
	}
	const maxDigit = 11
	top := bits.Len64(lo ^ hi) // bits from top up are the same in every key
	shift := max(top-min(maxDigit, bits.Len(uint(n))), 0)
	// Small buckets get a small count array: zeroing 2048 counts for a few
	// hundred keys would cost more than sorting them.
	if width := top - shift; width <= 8 {
		var ends [1<<8 + 1]int
		radixScatter(a, buf, inBuf, shift, ends[:1<<width+1])
	} else {
		var ends [1<<maxDigit + 1]int
		radixScatter(a, buf, inBuf, shift, ends[:1<<width+1])
	}
}

// radixScatter is one level of radixSort: it distributes a into buf by the
// digit at shift, len(ends)-1 values wide, and sorts each bucket.
func radixScatter(a, buf []ndRec, inBuf bool, shift int, ends []int) {
	mask := uint64(len(ends) - 2)
	for _, r := range a {
		ends[1+(r.key>>shift)&mask]++
	}
	for d := 1; d < len(ends); d++ {
		ends[d] += ends[d-1]
	}
	for _, r := range a {
		d := (r.key >> shift) & mask
		buf[ends[d]] = r
		ends[d]++ // ends up as the end of bucket d
	}
	// The buckets now sit in buf, so their sorted form belongs in a unless
	// the caller wants buf.
	s := 0
	for _, e := range ends[:mask+1] {
		switch e - s {
		case 0:
		case 1:
			if !inBuf {
				a[s] = buf[s]
			}
		default:
			radixSort(buf[s:e], a[s:e], !inBuf)
		}
		s = e
	}
}

// front2 is the two-column front. Within a run of equal first keys only the
// rows holding the run's least second key can survive; they do when that key
// beats every second key of a strictly better first key.
//
// A record's payload packs the row into its low bits and as much of the
// second key as fits above them, so the sweep reads the records in order and
// looks a second key up in values only when two prefixes tie, which on
// continuous data with a million rows (44 bits of prefix) is rare.
//
// The front comes back in the sweep's order, first key ascending, as records
// of the first key and the row, written over the sorted records.
func front2(values []float64, n int, flip []uint64, t ndTuning) []ndRec {
	f0, f1 := flip[0], flip[1]
	rowBits := uint(bits.Len(uint(n - 1)))
	rowMask := uint64(1)<<rowBits - 1
	pack := func(k1 uint64, r int) uint64 { return k1&^rowMask | uint64(r) }
	var recs []ndRec
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
		recs = make([]ndRec, 0, 2*min(n, 4096))
		stale := 0
		for r := 0; r < n; r++ {
			if r == t.probe && 2*len(recs) > r { // as in pivotFilter
				filtered = false
				break
			}
			v0, v1 := values[2*r], values[2*r+1]
			k0, k1 := fastKey(v0, f0), fastKey(v1, f1)
			dominated := false
			for i := 0; i < len(pk) && !dominated; i += 2 {
				p0, p1 := pk[i], pk[i+1]
				dominated = p0 <= k0 && p1 <= k1 && (p0 < k0 || p1 < k1)
			}
			if dominated {
				continue
			}
			if 2*len(recs) == cap(recs) {
				recs = append(make([]ndRec, 0, 2*growCap(len(recs), n)), recs...)
			}
			recs = append(recs, ndRec{k0, pack(k1, r)})
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
			k1 := fastKey(values[2*(rec.aux&rowMask)+1], f1)
			if j >= stale || !p.dominated([]uint64{rec.key, k1}) {
				recs[f] = rec
				f++
			}
		}
		recs = recs[:f]
	}
	if !filtered {
		recs = make([]ndRec, n, 2*n)
		for r := range recs {
			recs[r] = ndRec{fastKey(values[2*r], f0), pack(fastKey(values[2*r+1], f1), r)}
		}
	}
	m := len(recs)
	var buf []ndRec
	if cap(recs) >= 2*m {
		buf = recs[m : 2*m]
	} else {
		buf = make([]ndRec, m)
	}
	sorted, _ := sortRecs(recs, buf, t)
	exact := func(aux uint64) uint64 { return fastKey(values[2*(aux&rowMask)+1], f1) }
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
		sorted[count] = ndRec{k0, aux & rowMask}
		count++
	}
	for i := 0; i < m; {
		k0 := sorted[i].key
		j := i + 1
		for j < m && sorted[j].key == k0 {
			j++
		}
		if j == i+1 { // the common case: no tie in the first key
			if a := sorted[i].aux; !seen || less(a, best) {
				keep(k0, a)
				best, seen = a, true
			}
			i = j
			continue
		}
		run := sorted[i:j]
		runMin := run[0].aux
		for _, s := range run[1:] {
			if less(s.aux, runMin) {
				runMin = s.aux
			}
		}
		if !seen || less(runMin, best) {
			for _, s := range run {
				if !less(runMin, s.aux) {
					keep(k0, s.aux)
				}
			}
			best, seen = runMin, true
		}
		i = j
	}
	return sorted[:count]
}

// lexSort sorts the key rows lexicographically: a radix sort on the first
// column, then a comparison sort inside each run of equal first keys, which
// is short unless the data is degenerate.
func lexSort(keys []uint64, dims, m int, t ndTuning) (sorted, spare []ndRec) {
	recs := make([]ndRec, 2*m)
	for j := range m {
		recs[j] = ndRec{keys[dims*j], uint64(j)}
	}
	sorted, spare = sortRecs(recs[:m], recs[m:], t)
	for i := 0; i < m; {
		j := i + 1
		for j < m && sorted[j].key == sorted[i].key {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(sorted[i:j], func(a, b ndRec) int {
				x, y := int(a.aux), int(b.aux)
				return slices.Compare(keys[x*dims+1:(x+1)*dims], keys[y*dims+1:(y+1)*dims])
			})
		}
		i = j
	}
	return sorted, spare
}

// front3 is the three-column sweep in lexicographic order. Everything swept
// before a row is lexicographically smaller, so an earlier distinct row with
// second and third keys no worse dominates it. The staircase of those pairs is
// a Fenwick tree over the dense ranks of the second key holding prefix minima
// of the third: O(log n) to ask and to insert, with no rebalancing.
//
// It returns the key rows in lexicographic order (see lexSort) and keep,
// which marks, by key row, the rows on the front.
func front3(keys []uint64, m int, t ndTuning) (lex []ndRec, keep []bool) {
	lex, spare := lexSort(keys, 3, m, t)
	// One gather into lexicographic order, after which the sweep reads
	// sequentially: equal second keys have equal ranks, so a duplicate row
	// is an equal first key, rank and third key.
	byK1 := make([]ndRec, m)
	k2 := make([]uint64, m)
	for i, s := range lex {
		byK1[i] = ndRec{keys[3*s.aux+1], uint64(i)}
		k2[i] = keys[3*s.aux+2]
	}
	byK1, _ = sortRecs(byK1, spare, t)
	rank := make([]int, m)
	ranks := 0
	for i, s := range byK1 {
		if i > 0 && s.key != byK1[i-1].key {
			ranks++
		}
		rank[s.aux] = ranks
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
		for j < m && lex[j].key == lex[i].key && rank[j] == r && k2[j] == z {
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
				keep[s.aux] = true
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

// kung holds the distinct rows, in lexicographic order, for the divide and
// conquer of frontKung.
type kung struct {
	dims  int
	pts   []uint64 // distinct key rows, lexicographically ascending
	dead  []bool
	vals  []uint64 // scratch for median selection
	pairs []ndRec  // scratch for the two-column marriage
	spare []ndRec  // and for its sort
	t     ndTuning
}

func (k *kung) row(u int) []uint64 { return k.pts[u*k.dims : (u+1)*k.dims] }

// frontKung is the divide and conquer for four or more columns. It returns
// what front3 returns.
func frontKung(keys []uint64, dims, m int, t ndTuning) (lex []ndRec, keep []bool) {
	lex, _ = lexSort(keys, dims, m, t)
	same := func(a, b uint64) bool {
		return slices.Equal(keys[a*uint64(dims):(a+1)*uint64(dims)], keys[b*uint64(dims):(b+1)*uint64(dims)])
	}
	distinct := 0
	for i, s := range lex {
		if i == 0 || !same(s.aux, lex[i-1].aux) {
			distinct++
		}
	}
	k := &kung{
		dims:  dims,
		pts:   make([]uint64, 0, distinct*dims),
		dead:  make([]bool, distinct),
		vals:  make([]uint64, distinct),
		pairs: make([]ndRec, distinct),
		spare: make([]ndRec, distinct),
		t:     t,
	}
	for i, s := range lex {
		if i == 0 || !same(s.aux, lex[i-1].aux) {
			k.pts = append(k.pts, keys[int(s.aux)*dims:(int(s.aux)+1)*dims]...)
		}
	}
	ids := make([]int, distinct)
	for i := range ids {
		ids[i] = i
	}
	k.maxima(ids)
	keep = make([]bool, m)
	u := -1
	for i, s := range lex {
		if i == 0 || !same(s.aux, lex[i-1].aux) {
			u++
		}
		keep[s.aux] = !k.dead[u]
	}
	return lex, keep
}

// maxima marks dead every row of ids (distinct, lexicographically ascending)
// that another row of ids dominates, and returns the survivors, compacted
// to the front of ids. Only a lexicographically smaller row can dominate, so
// the first half is settled on its own and the second half only has to be
// checked against the first's survivors, which are no worse in column 0.
func (k *kung) maxima(ids []int) []int {
	if len(ids) <= k.t.leaf {
		f := 0
		for _, u := range ids {
			if k.covered(ids[:f], u, 0) {
				k.dead[u] = true
			} else {
				ids[f] = u
				f++
			}
		}
		return ids[:f]
	}
	mid := len(ids) / 2
	a := k.maxima(ids[:mid])
	b := k.maxima(ids[mid:])
	k.marry(a, b, 1)
	f := len(a)
	for _, u := range b {
		if !k.dead[u] {
			ids[f] = u
			f++
		}
	}
	return ids[:f]
}

// covered reports whether some row of set is no worse than row u in every
// column from lo on. For distinct rows no worse in the columns before lo,
// that is dominance.
func (k *kung) covered(set []int, u, lo int) bool {
	x := k.row(u)[lo:]
	for _, a := range set {
		y := k.row(a)[lo:]
		ok := true
		for c, v := range y {
			if v > x[c] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// marry marks dead each row of b that a row of a covers in the columns from
// lo on, given that every row of a is no worse than every row of b in the
// columns before lo. Splitting at the median m of column lo leaves three
// smaller problems: below m on both sides, above m on both sides, and a's rows
// at or below m against b's at or above, which are settled in column lo and
// so lose it. Rows equal to m sit in no same-width problem, so each one
// shrinks even when the column is full of ties.
func (k *kung) marry(a, b []int, lo int) {
	if len(a) == 0 || len(b) == 0 {
		return
	}
	d := k.dims
	if len(a)*len(b) <= k.t.brutePairs {
		for _, u := range b {
			if !k.dead[u] && k.covered(a, u, lo) {
				k.dead[u] = true
			}
		}
		return
	}
	if lo == d-2 {
		k.marry2(a, b, lo)
		return
	}
	vals := k.vals[:0]
	for _, u := range a {
		vals = append(vals, k.pts[u*d+lo])
	}
	for _, u := range b {
		vals = append(vals, k.pts[u*d+lo])
	}
	m := nthKey(vals, len(vals)/2)
	aLt, aGt := k.split3(a, lo, m)
	bLt, bGt := k.split3(b, lo, m)
	k.marry(a[:aLt], b[:bLt], lo)
	k.marry(a[aGt:], b[bGt:], lo)
	k.marry(a[:aGt], b[bLt:], lo+1)
}

// marry2 is the two-column marriage as a sweep in order of column lo: b's
// row is covered iff some a row at or before it is no worse in the last
// column. Rows with equal keys in column lo are taken as a group, a's first,
// which spares the sort a tie-break.
func (k *kung) marry2(a, b []int, lo int) {
	d := k.dims
	p := k.pairs[:0]
	for _, u := range a {
		p = append(p, ndRec{k.pts[u*d+lo], uint64(u)})
	}
	for _, u := range b {
		p = append(p, ndRec{k.pts[u*d+lo], ^uint64(u)}) // b's rows complemented
	}
	p, _ = sortRecs(p, k.spare[:len(p)], k.t)
	best := uint64(math.MaxUint64)
	seen := false
	for i := 0; i < len(p); {
		j := i
		for ; j < len(p) && p[j].key == p[i].key; j++ {
			if u := p[j].aux; u>>63 == 0 {
				best, seen = min(best, k.pts[int(u)*d+lo+1]), true
			}
		}
		for _, r := range p[i:j] {
			if u := int(^r.aux); r.aux>>63 != 0 && seen && best <= k.pts[u*d+lo+1] {
				k.dead[u] = true
			}
		}
		i = j
	}
}

// split3 reorders ids into those below m in column c, those equal, and those
// above, and returns where the equal ones start and end.
func (k *kung) split3(ids []int, c int, m uint64) (lt, gt int) {
	d := k.dims
	lt, gt = 0, len(ids)
	for i := 0; i < gt; {
		switch v := k.pts[ids[i]*d+c]; {
		case v < m:
			ids[lt], ids[i] = ids[i], ids[lt]
			lt++
			i++
		case v > m:
			gt--
			ids[i], ids[gt] = ids[gt], ids[i]
		default:
			i++
		}
	}
	return lt, gt
}

// nthKey returns the key that would be at index n if v were sorted, by
// Hoare's selection; it reorders v.
func nthKey(v []uint64, n int) uint64 {
	lo, hi := 0, len(v)-1
	for lo < hi {
		a, b, c := v[lo], v[lo+(hi-lo)/2], v[hi]
		if a > b {
			a, b = b, a
		}
		if b > c {
			b = c
		}
		p := max(a, b) // median of three
		i, j := lo, hi
		for i <= j {
			for v[i] < p {
				i++
			}
			for v[j] > p {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case n <= j:
			hi = j
		case n >= i:
			lo = i
		default:
			return v[n]
		}
	}
	return v[n]
}
