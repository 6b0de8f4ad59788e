package nd

import (
	"cmp"
	"math"
	"slices"
	"sync"
)

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
	return lexSortInto(make([]Rec, 2*m), keys, dims, m, t)
}

// LexSortInto is LexSort with recs, 2m long, for the records and the
// sort's scratch.
func LexSortInto(recs []Rec, keys []uint64, dims, m int) (sorted, spare []Rec) {
	return lexSortInto(recs, keys, dims, m, ndDefaults)
}

// lexSortInto is lexSort into recs, 2m long.
func lexSortInto(recs []Rec, keys []uint64, dims, m int, t ndTuning) (sorted, spare []Rec) {
	for j := range m {
		recs[j] = Rec{Key: keys[dims*j], Aux: uint64(j)}
	}
	sorted, spare = sortRecs(recs[:m], recs[m:], t)
	sortRuns(sorted, func(a, b Rec) int {
		x, y := int(a.Aux), int(b.Aux)
		return slices.Compare(keys[x*dims+1:(x+1)*dims], keys[y*dims+1:(y+1)*dims])
	})
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
	if t.byFront3Small(m) {
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

// byFront3Small reports whether front3 takes m rows to front3Small: at
// most t.small3. The choice trades speed only.
func (t ndTuning) byFront3Small(m int) bool { return m <= t.small3 }

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
// A knee pre-filter comes first (front3Filter): the rows that the knee,
// the row so far of least scaled sum, does not dominate are candidates, and
// those seen before the last knee meet it again. The candidates'
// first-column range is cut into 2m equal buckets (rangeCut), read in
// order, the rows of each sorted lexicographically on the way (insertion
// sort; slices.SortFunc when more than a few), which puts the candidates in
// lexicographic order. Each row is tested first against the last row found
// to dominate another: on data with a small front a few rows dominate most
// of the pool, and the test spares the bisection of the staircase.
func front3Buckets(values []float64, n int, flip []uint64) []int {
	sign := [3]float64{flipSign(flip[0]), flipSign(flip[1]), flipSign(flip[2])}
	values = values[:3*n]
	row := func(r int) (v0, v1, v2 float64) { return signed3(values, r, &sign) }
	sc := front3Pool.Get().(*front3Scratch)
	defer front3Pool.Put(sc)
	cand, ok := front3Filter(values, n, sign, Grow(&sc.cand, n)[:0])
	if !ok {
		return nil
	}
	// The candidates give the range of the first column.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range cand {
		v0, _, _ := row(int(r))
		lo, hi = min(lo, v0), max(hi, v0)
	}
	m := len(cand)
	buckets := 2 * m
	cut, ok := cutRange(lo, hi, buckets)
	if !ok {
		return nil
	}
	links := Grow(&sc.links, buckets+m) // 1 + candidate; 0 ends a list
	head, next := links[:buckets], links[buckets:]
	clear(head)
	for i, r := range cand {
		b := cut.bucket(sign[0] * values[3*int(r)])
		next[i], head[b] = head[b], uint16(i+1)
	}
	kept := Grow(&sc.kept, (n+63)/64)
	clear(kept)
	st := stairs3{steps: sc.steps[:0]}
	defer func() { sc.steps = st.steps }()
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

// front3Filter is front3Buckets' knee pre-filter: it appends to cand, in
// ascending order, the rows of values (n rows of three, signed by sign)
// that the knee, the row of least scaled sum, does not dominate, and
// returns them; ok is false, and cand of no use, on
// a row whose sum is NaN (a NaN, or +Inf beside -Inf). The scales are the
// ranges of the first 16 rows, so that no column's unit decides the knee:
// a row's score is the sum over the columns of its value over the column's
// range, or its value where the range is 0 or infinite, negated in a
// maximized column. The knee is the first row of least score; the rows
// before the last knee meet it again.
func front3Filter(values []float64, n int, sign [3]float64, cand []uint16) (_ []uint16, ok bool) {
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
	var knee [3]float64
	kneeScore := math.Inf(1)
	stale := 0 // the candidates from here on came after the knee did
	for r := range n {
		v := values[3*r : 3*r+3 : 3*r+3]
		// NaN anywhere makes the sum NaN (as does +Inf beside -Inf, which
		// then goes to front3 too).
		if sum := v[0] + v[1] + v[2]; sum != sum {
			return cand, false
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
	// The candidates before the last knee meet it now (it is the last of
	// cand[:stale], and does not dominate itself); those after it have.
	m := 0
	for _, r := range cand[:stale] {
		if v0, v1, v2 := signed3(values, int(r), &sign); !dominates3(&knee, v0, v1, v2) {
			cand[m] = r
			m++
		}
	}
	m += copy(cand[m:], cand[stale:])
	return cand[:m], true
}

// signed3 is row r of values, three columns, signed by sign.
func signed3(values []float64, r int, sign *[3]float64) (v0, v1, v2 float64) {
	v := values[3*r : 3*r+3 : 3*r+3]
	return sign[0] * v[0], sign[1] * v[1], sign[2] * v[2]
}

// front3Scratch is the memory of front3Buckets but its result, pooled.
type front3Scratch struct {
	cand, links []uint16
	kept        []uint64
	steps       []step3
}

var front3Pool = &sync.Pool{New: func() any { return new(front3Scratch) }}

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
	if bySortFunc3(len(rows), few) {
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

// bySortFunc3 reports whether sortRows3 sorts n rows by slices.SortFunc:
// above few. The choice trades speed only.
func bySortFunc3(n, few int) bool { return n > few }

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
