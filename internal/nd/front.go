package nd

import (
	"math"
	"math/bits"
	"slices"
	"sync"
)

// Front returns the indices of the non-dominated rows of an n×dims
// row-major matrix, ascending; maximize gives each column's direction. The
// matrix is valid: len(values) = n·dims, dims ≥ 1, len(maximize) = dims.
//
// Every path compares the 64-bit keys of FastKey, which order each column's
// values in its direction, so "smaller is better" holds everywhere. The
// paths, each the algorithm of Kung, Luccio and Preparata for its number of
// columns on top of a radix sort of keys (RadixSort; a comparison sort
// serves small inputs and runs of equal first keys):
//
//   - 1 column: one pass for the best key (minKeyRows).
//   - 2 columns: sort by the first key and sweep, keeping the best second
//     key seen so far (front2); up to four thousand rows, a counting sort
//     over buckets of the first column's range stands for the sort
//     (front2Small), and up to sixteen thousand when a quarter of a sample
//     of 64 rows is on the sample's front (frontHeavy2).
//   - 3 columns: sort lexicographically and sweep, keeping the staircase of
//     the last two keys in a prefix-minimum Fenwick tree (front3), or in a
//     sorted slice when at most a few hundred rows remain (front3Small); up
//     to sixteen thousand rows, buckets of the first column order the sweep
//     (front3Buckets).
//   - 4 or more: up to two thousand rows whose front is not most of them
//     (judged on a sample), the rows in order of a monotone score, each
//     tested against the front so far (frontSortFilter); otherwise Kung's
//     divide and conquer on the lexicographic order, in rank space, with a
//     Fenwick sweep for the last three columns, halves of up to 8192 rows
//     settled by bit sets (maximaBits), and all pairs compared in small
//     marriages and on about a hundred rows or fewer (frontKung).
//
// Before any sort, inputs of a few hundred rows or more pass the pivot
// pre-filter (pivotFilter), which drops the rows a few pivot rows dominate
// (with four or more columns, some forty), so on data with a small front the
// cost is about one read of the matrix; when most rows survive the first
// quarter (at most a few thousand), the filter stands down.
//
// Exact duplicates are why ties need care: equal rows never dominate each
// other, but a lexicographic sort makes every dominator of a row come before
// it, so once duplicates are grouped, "some earlier distinct row is no worse
// in every column" is exactly "dominated".
func Front(values []float64, n, dims int, maximize []bool) []int {
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
	probeShare   int // it judges after n/probeShare rows if sooner (0: never)
	small3       int // three columns: at most this many rows after the pre-filter sweep a sorted slice
	bucket2Max   int // two columns: at most this many rows go by buckets (front2Small), with no sort of the pool
	sample2      int // two columns, more rows than bucket2Max: rows of a sample whose front decides for buckets (0: none)
	bucket3Max   int // three columns: the same for front3Buckets
	crowd        int // the most rows a bucket of front2Small orders by insertion; a fuller one is sorted
	bits         int // four or more columns: halves of the divide and conquer of at most this many rows, and more than leaf, go to maximaBits
	bitsWords    int // the words of the sets maximaBits keeps at a time (at least one row's)
	filterMax    int // four or more columns: at most this many rows try frontSortFilter
	filterSample int // the rows of the sample by which frontSortFilter judges whether it pays (0: it always tries)
}

var ndDefaults = ndTuning{prefilterMin: 256, radixMin: 256, leaf: 96, brutePairs: 32768, probe: 4096, probeShare: 4, small3: 256, bucket2Max: 4096, sample2: 64, bucket3Max: 1 << 14, crowd: 16, bits: 1 << 13, bitsWords: 1 << 17, filterMax: 2048, filterSample: 64}

// probeAt is the row at which the pre-filter over n rows judges whether it
// pays. Below 4·probe rows a fixed probe would judge late or never, and on a
// pool of a thousand rows all on the front the pivot tests cost more than
// the rest of the call (under cachegrind, NonDominated on 1000 rows of a
// two-column line ran 721 k instructions a call with the filter on to the
// end, 303 k with it off). With four or more columns this once stood the
// filter down on uniform rows, whose single knee started too weak; the
// weighted knees of pivotSet judge as early as with three.
func (t ndTuning) probeAt(n int) int {
	if t.probeShare > 0 {
		return min(t.probe, n/t.probeShare)
	}
	return t.probe
}

func nonDominatedTuned(values []float64, n, dims int, maximize []bool, t ndTuning) []int {
	if n == 0 {
		return []int{}
	}
	var masks [8]uint64 // more columns than that allocate
	flip := AppendKeyFlips(masks[:0], maximize)
	if dims == 1 {
		return minKeyRows(values, flip[0])
	}
	// Buckets index rows and buckets in 16 bits: 2n of them must fit.
	var rows []int // nil when the bucket path does not apply
	switch {
	case dims == 2 && (n <= min(t.bucket2Max, 1<<14) || n <= 1<<14 && frontHeavy2(values, n, flip, t.sample2)):
		rows = front2Small(values, n, flip, t.crowd)
	case dims == 3 && n <= min(t.bucket3Max, 1<<14):
		rows = front3Buckets(values, n, flip)
	case dims >= 4 && n <= t.filterMax:
		rows = frontSortFilter(values, n, dims, flip, t.filterSample)
	}
	if rows != nil {
		return rows
	}
	if dims == 2 {
		return ascendingRows(front2(values, n, flip, t), n)
	}
	// A small pool's scratch is pooled, and the front alone allocated.
	var sc *marksScratch
	if n <= marksPoolRows {
		sc = marksPool.Get().(*marksScratch)
		defer marksPool.Put(sc)
	}
	_, keep, rows := frontMarks(values, n, dims, flip, t, sc)
	if rows != nil && sc == nil {
		// rows is this call's own and ascends, so compacting it in place
		// keeps the order.
		f := 0
		for j, ok := range keep {
			if ok {
				rows[f] = rows[j]
				f++
			}
		}
		return rows[:f]
	}
	return marksFront(keep, rows)
}

// marksFront is the front that frontMarks' keep marks, in a slice of its
// own: rows[j] for each key row j kept where the pre-filter ran (rows not
// nil), j where it did not. rows, if any, ascends, so the front does too.
func marksFront(keep []bool, rows []int) []int {
	count := 0
	for _, ok := range keep {
		count += OneIf(ok)
	}
	front := make([]int, 0, count)
	for j, ok := range keep {
		if ok {
			if rows != nil {
				front = append(front, rows[j])
			} else {
				front = append(front, j)
			}
		}
	}
	return front
}

// marksScratch is the memory of frontMarks but its results, pooled for
// pools of at most marksPoolRows rows: on a thousand rows of six uniform
// columns, where frontSortFilter gave up (11 of 64 fresh matrices), a warm
// call allocated ten times, about 21 kB. A larger pool's call costs far
// more than its allocations, and is not kept alive for the next call.
type marksScratch struct {
	keys, row, u []uint64
	rows         []int
	f            []float64
	pivot        pivotSet
	recs         []Rec
	keep         []bool
}

var marksPool = sync.Pool{New: func() any { return new(marksScratch) }}

// keyMatrix is KeyMatrix of the n rows of values, in sc's memory where sc
// is not nil (then valid until sc is used again).
func (sc *marksScratch) keyMatrix(values []float64, n, dims int, flip []uint64) []uint64 {
	if sc == nil {
		return KeyMatrix(values[:n*dims], dims, flip)
	}
	return keyMatrixInto(Grow(&sc.keys, n*dims), values[:n*dims], dims, flip)
}

// marksPoolRows is the most rows whose frontMarks scratch Front pools; a
// variable so that tests can force either way.
var marksPoolRows = 4096

// frontHeavy2 reports whether a sample of s evenly spaced rows of a
// two-column matrix has a quarter or more of them on its front. Buckets
// then beat the sorting path: on 10⁴ rows of a line, all on the front,
// front2Small took a third of front2's time, but on uniform rows, whose
// front is a few rows, front2 with its pre-filter was 1.4 times faster.
func frontHeavy2(values []float64, n int, flip []uint64, s int) bool {
	if s <= 0 || s > n {
		return false
	}
	sample := make([]float64, 0, 2*s)
	for i := range s {
		r := i * n / s
		sample = append(sample, values[2*r], values[2*r+1])
	}
	front := front2Small(sample, s, flip, s)
	return 4*len(front) >= s
}

// frontLead is the engine for callers who want the front along its first
// column: the non-dominated rows as records of their first key and their
// row, key ascending, rows with equal first keys in no set order. The
// records are the engine's own sorted records, so the order costs nothing.
func frontLead(values []float64, n, dims int, maximize []bool, t ndTuning) []Rec {
	if n == 0 {
		return nil
	}
	flip := KeyFlips(maximize)
	switch dims {
	case 1:
		rows := minKeyRows(values, flip[0])
		front := make([]Rec, len(rows))
		for i, r := range rows {
			front[i] = Rec{Key: FastKey(values[r], flip[0]), Aux: uint64(r)}
		}
		return front
	case 2:
		return front2(values, n, flip, t)
	}
	lex, keep, rows := frontMarks(values, n, dims, flip, t, nil)
	f := 0
	for _, s := range lex {
		if keep[s.Aux] {
			row := s.Aux
			if rows != nil {
				row = uint64(rows[row])
			}
			lex[f] = Rec{Key: s.Key, Aux: row}
			f++
		}
	}
	return lex[:f]
}

// frontMarks is the engine for three or more columns. It returns the key
// rows that pass the pre-filter in lexicographic order, as records of their
// first key and key row; keep, which marks the key rows on the front; and
// the row of each key row, or nil when key row j is row j. Where sc is not
// nil, the keys, rows and (for four or more columns) lex and keep are in
// its memory, valid until sc is used again.
func frontMarks(values []float64, n, dims int, flip []uint64, t ndTuning, sc *marksScratch) (lex []Rec, keep []bool, rows []int) {
	var keys []uint64
	if n >= t.prefilterMin {
		keys, rows = pivotFilter(values, n, dims, flip, t.probeAt(n), sc)
	} else {
		keys = sc.keyMatrix(values, n, dims, flip)
	}
	m := len(keys) / dims
	if dims == 3 {
		lex, keep = front3(keys, m, t)
	} else {
		lex, keep = frontKung(keys, dims, m, t, sc)
	}
	return lex, keep, rows
}

// ascendingRows lists the rows of front in ascending order, in linear time
// through a bitmap over all n rows.
func ascendingRows(front []Rec, n int) []int {
	set := make([]uint64, (n+63)/64)
	for _, rec := range front {
		set[rec.Aux>>6] |= 1 << (rec.Aux & 63)
	}
	return setRows(set)
}

// setRows lists the rows marked in the bitmap set in ascending order.
func setRows(set []uint64) []int {
	count := 0
	for _, b := range set {
		count += bits.OnesCount64(b)
	}
	rows := make([]int, 0, count)
	for w, b := range set {
		for b != 0 {
			rows = append(rows, w<<6|bits.TrailingZeros64(b))
			b &= b - 1
		}
	}
	return rows
}

// minKeyRows is the one-column front: every row that ties for the best key.
func minKeyRows(values []float64, flip uint64) []int {
	best := uint64(math.MaxUint64)
	count := 0
	for _, v := range values {
		switch k := FastKey(v, flip); {
		case k < best:
			best, count = k, 1
		case k == best:
			count++
		}
	}
	front := make([]int, 0, count)
	for i, v := range values {
		if FastKey(v, flip) == best {
			front = append(front, i)
		}
	}
	return front
}

// FrontByAxis returns the non-dominated rows of a valid n×dims matrix in
// the order of the root's ParetoFront: by the raw value of column 0, the
// x-axis, ascending, NaN last, ties in row order. Each record holds the
// row's key in column 0 and, in Aux, the row.
func FrontByAxis(values []float64, n, dims int, maximize []bool) []Rec {
	return frontByAxis(values, n, dims, maximize, ndDefaults)
}

// frontByAxis is [FrontByAxis] under a tuning t.
//
// The engine already hands the front back along column 0, so the order costs
// a reversal at most, and a sort of each run of equal values by row; on
// continuous data such runs are copies of one row and rare.
func frontByAxis(values []float64, n, dims int, maximize []bool, t ndTuning) []Rec {
	front := frontLead(values, n, dims, maximize, t)
	nan := len(front) // NaN has the largest key in either direction
	for nan > 0 && front[nan-1].Key == math.MaxUint64 {
		nan--
	}
	if maximize[0] {
		// The keys of a maximized column fall as its values rise.
		slices.Reverse(front[:nan])
	}
	SortTiesByAux(front)
	return front
}
