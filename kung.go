package spica

import (
	"math"
	"slices"
)

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

// frontKung is the divide and conquer of H. T. Kung, F. Luccio and F. P.
// Preparata ("On finding the maxima of a set of vectors", JACM 22(4), 1975)
// for four or more columns, O(n log^(d−2) n): maxima splits the rows in
// lexicographic halves, and marry settles the second half against the
// first's survivors, one column less at each median split. It returns what
// front3 returns.
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
		j := keyRunEnd(p, i)
		for _, r := range p[i:j] {
			if u := r.aux; u>>63 == 0 {
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
