package spica

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// nonDominatedRows is the engine behind [NonDominated]: the indices of the
// non-dominated rows of an already validated n×dims matrix, ascending.
//
// Every path compares the order-preserving keys of [objectiveKey], so
// "smaller is better" holds in every column. The algorithms are those of
// Kung, Luccio and Preparata, "On finding the maxima of a set of vectors",
// JACM 22(4), 1975:
//
//   - d = 1: one pass for the minimum key, O(n).
//   - d = 2: sort by the first key and sweep, keeping the best second key
//     seen so far, O(n) after an LSD radix sort of the 64-bit keys
//     (11-bit digits, passes over a digit that every key shares skipped).
//   - d = 3: sort lexicographically and sweep, keeping the staircase of the
//     last two keys as a prefix-minimum Fenwick tree over the ranks of the
//     second key, O(n log n).
//   - d ≥ 4: divide and conquer on the lexicographic order, with the
//     "marriage" step split on medians and dropping a column whenever one
//     side is known to be no worse in it, O(n log^(d-2) n); subproblems
//     below a few dozen rows compare all pairs.
//
// Before any sort, rows dominated by a handful of pivot rows (the best row of
// each column and the row of least normalized sum) are dropped in one linear
// pass. On random data that leaves a thin shell near the front, so the cost
// is about that of reading the matrix.
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
}

var ndDefaults = ndTuning{prefilterMin: 256, radixMin: 256, leaf: 48, brutePairs: 2048}

func nonDominatedTuned(values []float64, n, dims int, maximize []bool, t ndTuning) []int {
	if n == 0 {
		return []int{}
	}
	keys := make([]uint64, n*dims)
	for r := 0; r < n; r++ {
		kr := keys[r*dims : (r+1)*dims]
		for c, v := range values[r*dims : (r+1)*dims] {
			kr[c] = objectiveKey(v, maximize[c])
		}
	}
	if dims == 1 {
		return minKeyRows(keys)
	}
	var cand []int
	if n >= t.prefilterMin {
		cand = pivotFilter(values, keys, n, dims, maximize)
	} else {
		cand = make([]int, n)
		for i := range cand {
			cand[i] = i
		}
	}
	var front []int
	switch dims {
	case 2:
		front = front2(keys, cand, t)
	case 3:
		front = front3(keys, cand, t)
	default:
		front = frontKung(keys, dims, cand, t)
	}
	return ascending(front, n)
}

// minKeyRows is the one-column front: every row that ties for the best key.
func minKeyRows(keys []uint64) []int {
	best := slices.Min(keys)
	front := make([]int, 0, 1)
	for i, k := range keys {
		if k == best {
			front = append(front, i)
		}
	}
	return front
}

// pivotFilter returns, ascending, the rows that no pivot row dominates. The
// per-column best rows cut the edges of the cloud; the row of least sum of
// min-max normalized values sits near the knee, where it covers the most.
// Any row is a sound pivot, since dominance by any row disqualifies, so the
// float arithmetic here only has to be good, not exact.
func pivotFilter(values []float64, keys []uint64, n, dims int, maximize []bool) []int {
	lo := make([]float64, 2*dims)
	hi := lo[dims:]
	lo = lo[:dims]
	bestRow := make([]int, dims, dims+1)
	for c := range lo {
		lo[c], hi[c] = math.Inf(1), math.Inf(-1)
	}
	for r := 0; r < n; r++ {
		kr := keys[r*dims : (r+1)*dims]
		for c, v := range values[r*dims : (r+1)*dims] {
			if kr[c] < keys[bestRow[c]*dims+c] {
				bestRow[c] = r
			}
			if maximize[c] {
				v = -v
			}
			if v < lo[c] && !math.IsInf(v, 0) {
				lo[c] = v
			}
			if v > hi[c] && !math.IsInf(v, 0) {
				hi[c] = v
			}
		}
	}
	for c := range lo {
		if hi[c] > lo[c] {
			hi[c] = 1 / (hi[c] - lo[c]) // now the scale; 0 ignores a flat column
		} else {
			lo[c], hi[c] = 0, 0
		}
	}
	knee, kneeScore := 0, math.Inf(1)
	for r := 0; r < n; r++ {
		s := 0.0
		for c, v := range values[r*dims : (r+1)*dims] {
			if maximize[c] {
				v = -v
			}
			x := (v - lo[c]) * hi[c]
			switch {
			case !(x <= 1): // NaN or +Inf: worst
				x = 1
			case x < 0:
				x = 0
			}
			s += x
		}
		if s < kneeScore {
			knee, kneeScore = r, s
		}
	}
	pivots := append(bestRow, knee)
	pivots[0], pivots[dims] = pivots[dims], pivots[0] // the knee first: it kills most
	slices.Sort(pivots[1:])
	pivots = slices.Compact(pivots)

	cand := make([]int, 0, 64)
	for r := 0; r < n; r++ {
		kr := keys[r*dims : (r+1)*dims]
		dominated := false
		for _, p := range pivots {
			if keysDominate(keys[p*dims:(p+1)*dims], kr) {
				dominated = true
				break
			}
		}
		if !dominated {
			cand = append(cand, r)
		}
	}
	return cand
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

// ascending sorts a set of row indices below n. A large set goes through a
// bitmap, which is linear where a comparison sort of a million rows is not.
func ascending(rows []int, n int) []int {
	if len(rows) < n/32 {
		slices.Sort(rows)
		return rows
	}
	set := make([]uint64, (n+63)/64)
	for _, r := range rows {
		set[r>>6] |= 1 << (r & 63)
	}
	out := rows[:0]
	for w, b := range set {
		for b != 0 {
			out = append(out, w<<6|bits.TrailingZeros64(b))
			b &= b - 1
		}
	}
	return out
}

// ndRec is a sort record: a key and the row (or position) it belongs to.
type ndRec struct {
	key uint64
	pos int
}

// sortRecs sorts recs by key using buf, of the same length, as scratch. It
// returns the sorted slice, which is recs or buf, and the other one.
// Equal keys may come out in any order.
func sortRecs(recs, buf []ndRec, t ndTuning) (sorted, spare []ndRec) {
	if len(recs) < max(t.radixMin, 2) {
		slices.SortFunc(recs, func(a, b ndRec) int { return cmp.Compare(a.key, b.key) })
		return recs, buf
	}
	// LSD radix sort: 11-bit digits keep the 2048 buckets of a pass in the
	// L1 cache, and all six histograms fill in one read of the input.
	const digit, passes = 11, 6
	const mask = 1<<digit - 1
	var counts [passes][1 << digit]int
	for _, r := range recs {
		k := r.key
		for p := range passes {
			counts[p][(k>>(p*digit))&mask]++
		}
	}
	src, dst := recs, buf
	for p := range passes {
		shift := p * digit
		c := &counts[p]
		if c[(src[0].key>>shift)&mask] == len(src) {
			continue // every key has this digit: the pass would copy
		}
		sum := 0
		for i, x := range c {
			c[i] = sum
			sum += x
		}
		for _, r := range src {
			d := (r.key >> shift) & mask
			dst[c[d]] = r
			c[d]++
		}
		src, dst = dst, src
	}
	return src, dst
}

// front2 is the two-column sweep. Within a run of equal first keys only the
// rows holding the run's least second key can survive; they do when that key
// beats every second key of a strictly better first key.
func front2(keys []uint64, cand []int, t ndTuning) []int {
	m := len(cand)
	recs := make([]ndRec, 2*m)
	for j, r := range cand {
		recs[j] = ndRec{keys[2*r], r}
	}
	sorted, _ := sortRecs(recs[:m], recs[m:], t)
	front := cand[:0] // cand is copied into recs, so its storage is free
	var best uint64
	seen := false
	for i := 0; i < m; {
		k0 := sorted[i].key
		runMin := uint64(math.MaxUint64)
		j := i
		for ; j < m && sorted[j].key == k0; j++ {
			runMin = min(runMin, keys[2*sorted[j].pos+1])
		}
		if !seen || runMin < best {
			for _, s := range sorted[i:j] {
				if keys[2*s.pos+1] == runMin {
					front = append(front, s.pos)
				}
			}
			best, seen = runMin, true
		}
		i = j
	}
	return front
}

// lexSort sorts cand lexicographically by key row: a radix sort on the first
// column, then a comparison sort inside each run of equal first keys, which
// is short unless the data is degenerate.
func lexSort(keys []uint64, dims int, cand []int, t ndTuning) (sorted, spare []ndRec) {
	m := len(cand)
	recs := make([]ndRec, 2*m)
	for j, r := range cand {
		recs[j] = ndRec{keys[dims*r], r}
	}
	sorted, spare = sortRecs(recs[:m], recs[m:], t)
	for i := 0; i < m; {
		j := i + 1
		for j < m && sorted[j].key == sorted[i].key {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(sorted[i:j], func(a, b ndRec) int {
				return slices.Compare(keys[a.pos*dims+1:(a.pos+1)*dims], keys[b.pos*dims+1:(b.pos+1)*dims])
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
func front3(keys []uint64, cand []int, t ndTuning) []int {
	m := len(cand)
	lex, spare := lexSort(keys, 3, cand, t)
	byK1 := make([]ndRec, m)
	for i, s := range lex {
		byK1[i] = ndRec{keys[3*s.pos+1], i}
	}
	byK1, _ = sortRecs(byK1, spare, t)
	rank := make([]int32, m)
	ranks := int32(0)
	for i, s := range byK1 {
		if i > 0 && s.key != byK1[i-1].key {
			ranks++
		}
		rank[s.pos] = ranks
	}
	ranks++
	tree := make([]uint64, ranks+1)
	for i := range tree {
		tree[i] = math.MaxUint64
	}
	// MaxUint64 is also the key of NaN, so emptiness is tracked apart: a
	// prefix holds a row iff it reaches the least rank inserted.
	lowest := ranks
	front := cand[:0]
	for i := 0; i < m; {
		row := lex[i].pos
		k := keys[3*row : 3*row+3]
		j := i + 1
		for j < m && slices.Equal(keys[3*lex[j].pos:3*lex[j].pos+3], k) {
			j++
		}
		r := rank[i]
		dominated := false
		if lowest <= r {
			best := uint64(math.MaxUint64)
			for x := r + 1; x > 0; x -= x & -x {
				best = min(best, tree[x])
			}
			dominated = best <= k[2]
		}
		if !dominated {
			for _, s := range lex[i:j] {
				front = append(front, s.pos)
			}
			for x := r + 1; x <= ranks; x += x & -x {
				tree[x] = min(tree[x], k[2])
			}
			lowest = min(lowest, r)
		}
		i = j
	}
	return front
}

// kung holds the distinct rows, in lexicographic order, for the divide and
// conquer of frontKung.
type kung struct {
	dims  int
	pts   []uint64 // distinct key rows, lexicographically ascending
	dead  []bool
	vals  []uint64 // scratch for median selection
	pairs []ndRec  // scratch for the two-column marriage
	t     ndTuning
}

func (k *kung) row(u int) []uint64 { return k.pts[u*k.dims : (u+1)*k.dims] }

// frontKung is the divide and conquer for four or more columns.
func frontKung(keys []uint64, dims int, cand []int, t ndTuning) []int {
	lex, _ := lexSort(keys, dims, cand, t)
	same := func(a, b int) bool {
		return slices.Equal(keys[a*dims:(a+1)*dims], keys[b*dims:(b+1)*dims])
	}
	distinct := 0
	for i, s := range lex {
		if i == 0 || !same(s.pos, lex[i-1].pos) {
			distinct++
		}
	}
	k := &kung{
		dims:  dims,
		pts:   make([]uint64, 0, distinct*dims),
		dead:  make([]bool, distinct),
		vals:  make([]uint64, distinct),
		pairs: make([]ndRec, distinct),
		t:     t,
	}
	for i, s := range lex {
		if i == 0 || !same(s.pos, lex[i-1].pos) {
			k.pts = append(k.pts, keys[s.pos*dims:(s.pos+1)*dims]...)
		}
	}
	ids := make([]int, distinct)
	for i := range ids {
		ids[i] = i
	}
	k.maxima(ids)
	front := cand[:0]
	u := -1
	for i, s := range lex {
		if i == 0 || !same(s.pos, lex[i-1].pos) {
			u++
		}
		if !k.dead[u] {
			front = append(front, s.pos)
		}
	}
	return front
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

// marry2 is the two-column marriage as a sweep: in order of column lo, a's
// rows before b's on ties, b's row is covered iff some a row already passed
// is no worse in the last column.
func (k *kung) marry2(a, b []int, lo int) {
	d := k.dims
	p := k.pairs[:0]
	for _, u := range a {
		p = append(p, ndRec{k.pts[u*d+lo], u})
	}
	for _, u := range b {
		p = append(p, ndRec{k.pts[u*d+lo], ^u})
	}
	slices.SortFunc(p, func(x, y ndRec) int {
		if c := cmp.Compare(x.key, y.key); c != 0 {
			return c
		}
		return cmp.Compare(y.pos>>63, x.pos>>63) // a (pos ≥ 0) first
	})
	best := uint64(math.MaxUint64)
	seen := false
	for _, r := range p {
		if r.pos >= 0 {
			best, seen = min(best, k.pts[r.pos*d+lo+1]), true
		} else if u := ^r.pos; seen && best <= k.pts[u*d+lo+1] {
			k.dead[u] = true
		}
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
