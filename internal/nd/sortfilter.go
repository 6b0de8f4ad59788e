package nd

import (
	"math"
	"slices"
	"sync"
)

// frontSortFilter is the front of a small matrix of four or more columns by
// sort-filter-skyline (J. Chomicki, P. Godfrey, J. Gryz, D. Liang,
// "Skyline with presorting", ICDE 2003): the rows in order of a score that
// no dominator of a row exceeds, each tested against the window of rows
// found non-dominated so far. A dominated row meets a dominator among the
// first rows of the window, which hold the least scores and so cover the
// most; a row on the front is compared with the whole window. The work is
// O(n·f·dims) for a front of f rows, less than the divide and conquer's
// fixed costs when f is small: on a thousand uniform rows of four to six
// columns (fronts of 85 to 289 rows) a quarter to a half of its time.
//
// A front that is most of the matrix would make it quadratic, so it first
// finds the front of sample evenly spaced rows and returns nil, for the
// general path, when three quarters of them or more are on it (on a
// thousand uniform rows of six columns, 35 of 64 were; of a sphere, all).
// Should the sample mislead, it gives up once the window passes n/2 rows.
//
// The score is the sum of the row's values, each signed so that smaller is
// better and scaled to [0, 1] over its column's range: each step is
// monotone, so a dominator's score is never larger. A column whose range
// is not a positive finite number (it holds an infinity or a NaN, or one
// value) is left out of the score. Correctness does not rest on the
// order: a row that dominates window rows removes them, which on ties of
// score can happen.
func frontSortFilter(values []float64, n, dims int, flip []uint64, sample int) []int {
	sc := filterPool.Get().(*filterScratch)
	defer filterPool.Put(sc)
	if sample > 0 && frontHeavy(values, n, dims, flip, sample, sc) {
		return nil
	}
	keys := Grow(&sc.keys, n*dims)
	recs := Grow(&sc.recs, 2*n)
	sortFilterScores(values, n, dims, flip, keys, recs[:n], Grow(&sc.lo, dims), Grow(&sc.hi, dims))
	sorted, _ := SortRecs(recs[:n], recs[n:])
	// The window's rows, with their keys side by side and their scores.
	wrows, wkeys, wscore := sc.wrows[:0], sc.wkeys[:0], sc.wscore[:0]
	defer func() { sc.wrows, sc.wkeys, sc.wscore = wrows, wkeys, wscore }()
	for _, rec := range sorted {
		r := int(rec.Aux)
		p := keys[r*dims : (r+1)*dims : (r+1)*dims]
		if WindowDominates(wkeys, p) {
			continue
		}
		// No window row dominates p, and p can dominate only those of its
		// own score, the last ones: a dominator never scores more.
		for i := len(wrows) - 1; i >= 0 && wscore[i] == rec.Key; i-- {
			if KeysDominate(p, wkeys[i*dims:(i+1)*dims]) {
				wrows = slices.Delete(wrows, i, i+1)
				wkeys = slices.Delete(wkeys, i*dims, (i+1)*dims)
				wscore = slices.Delete(wscore, i, i+1)
			}
		}
		if len(wrows) > n/2 {
			return nil
		}
		wrows, wkeys, wscore = append(wrows, r), append(wkeys, p...), append(wscore, rec.Key)
	}
	front := slices.Clone(wrows)
	slices.Sort(front)
	return front
}

// sortFilterScores fills keys with the rows' keys and recs with their
// scores, as float64 bits, and rows: the sum of each row's values signed
// so that smaller is better and scaled to [0, 1] over the column's range,
// columns whose range is not a positive finite number left out. lo and hi
// are scratch of dims values.
func sortFilterScores(values []float64, n, dims int, flip, keys []uint64, recs []Rec, lo, hi []float64) {
	for c := range dims {
		lo[c], hi[c] = math.Inf(1), math.Inf(-1)
	}
	for r := range n {
		row := values[r*dims : (r+1)*dims : (r+1)*dims]
		kr := keys[r*dims : (r+1)*dims : (r+1)*dims]
		for c, v := range row {
			kr[c] = FastKey(v, flip[c])
			v *= flipSign(flip[c])
			lo[c], hi[c] = min(lo[c], v), max(hi[c], v) // a NaN spoils the range: the column is left out
		}
	}
	scale := hi // reused: 1/span, 0 where the span is infinite, 0 or NaN
	for c := range dims {
		span := hi[c] - lo[c]
		scale[c] = 0
		if span > 0 {
			scale[c] = 1 / span
		}
	}
	for r := range n {
		s := 0.0
		for c, v := range values[r*dims : (r+1)*dims : (r+1)*dims] {
			// In a column of zero scale every value adds 0: an infinity
			// or a NaN times 0 is NaN, and is made 0 too.
			if x := (v*flipSign(flip[c]) - lo[c]) * scale[c]; x == x {
				s += x
			}
		}
		recs[r] = Rec{Key: math.Float64bits(s), Aux: uint64(r)}
	}
}

// frontHeavy reports whether three quarters or more of sample evenly
// spaced rows are on the front of the sample, found by comparing each
// with the others.
func frontHeavy(values []float64, n, dims int, flip []uint64, sample int, sc *filterScratch) bool {
	if sample > n {
		return false
	}
	keys := Grow(&sc.keys, sample*dims)
	for i := range sample {
		r := i * n / sample
		for c, v := range values[r*dims : (r+1)*dims] {
			keys[i*dims+c] = FastKey(v, flip[c])
		}
	}
	front := 0
	for i := range sample {
		// A row does not dominate itself: WindowDominates passes over it.
		front += 1 - OneIf(WindowDominates(keys, keys[i*dims:(i+1)*dims]))
	}
	return 4*front >= 3*sample
}

// filterScratch is the memory of frontSortFilter but its result, pooled.
type filterScratch struct {
	keys   []uint64
	recs   []Rec
	lo, hi []float64
	wrows  []int
	wkeys  []uint64
	wscore []uint64
}

var filterPool = sync.Pool{New: func() any { return new(filterScratch) }}

// WindowDominates reports whether a key row of window, dims = len(p) wide,
// dominates p. It tests each row without branches until the rare row that
// covers p, since which column first fails is a coin toss the predictor
// loses; four to six columns, the common widths, are written out so that p
// stays in registers.
func WindowDominates(window, p []uint64) bool {
	switch len(p) {
	case 4:
		p0, p1, p2, p3 := p[0], p[1], p[2], p[3]
		for i := 0; i+4 <= len(window); i += 4 {
			q := window[i : i+4 : i+4]
			if OneIf(q[0] <= p0)&OneIf(q[1] <= p1)&OneIf(q[2] <= p2)&OneIf(q[3] <= p3) != 0 && !slices.Equal(q, p) {
				return true
			}
		}
		return false
	case 5:
		p0, p1, p2, p3, p4 := p[0], p[1], p[2], p[3], p[4]
		for i := 0; i+5 <= len(window); i += 5 {
			q := window[i : i+5 : i+5]
			if OneIf(q[0] <= p0)&OneIf(q[1] <= p1)&OneIf(q[2] <= p2)&OneIf(q[3] <= p3)&OneIf(q[4] <= p4) != 0 && !slices.Equal(q, p) {
				return true
			}
		}
		return false
	case 6:
		p0, p1, p2, p3, p4, p5 := p[0], p[1], p[2], p[3], p[4], p[5]
		for i := 0; i+6 <= len(window); i += 6 {
			q := window[i : i+6 : i+6]
			if OneIf(q[0] <= p0)&OneIf(q[1] <= p1)&OneIf(q[2] <= p2)&OneIf(q[3] <= p3)&OneIf(q[4] <= p4)&OneIf(q[5] <= p5) != 0 && !slices.Equal(q, p) {
				return true
			}
		}
		return false
	}
	d := len(p)
	for i := 0; i+d <= len(window); i += d {
		q, le := window[i:i+d:i+d], 1
		for j, k := range p {
			le &= OneIf(q[j] <= k)
		}
		if le != 0 && !slices.Equal(q, p) {
			return true
		}
	}
	return false
}
