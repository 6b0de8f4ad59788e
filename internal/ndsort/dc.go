package ndsort

import (
	"math"
	"math/bits"
	"slices"
	"sort"

	"github.com/spica-search/spica/internal/nd"
)

// dcBrute is the size under which the divide and conquer of sortLayersDC
// compares rows pairwise: a helperA call on at most dcBrute rows, or a
// helperB call whose two sides multiply to at most dcBrute². A variable so
// that tests can force the recursion down to single rows. 64 rather than
// 32 since bruteB tests a pair with one branch and a row of H only against
// part of L: 48 took 0-18% less thread CPU than 32 on the benchmark rows
// of 4 to 6 columns in one alternating run, and 64 another 7% on 6 columns
// (1e4 rows), the others unchanged.
var dcBrute = 64

// bruteA reports whether helperA compares the n rows of its call pairwise.
func bruteA(n int) bool { return n <= dcBrute }

// bruteB reports whether helperB compares its l rows of L and h of H
// pairwise.
func bruteB(l, h int) bool { return l*h <= dcBrute*dcBrute }

// sortLayersDC is non-dominated sorting by divide and conquer for two or
// more columns, O(n log^(d−1) n) for d columns: Jensen's recursion (IEEE
// TEVC 7(5), 2003) with the handling of equal keys of Fortin, Grenier and
// Parizeau ("Generalizing the improved run-time complexity algorithm for
// non-dominated sorting", GECCO 2013) and the practical form of Buzdalov
// and Shalyto ("A provably asymptotically fast version of the generalized
// Jensen algorithm for non-dominated sorting", PPSN 2014). rows and order
// are those of sortedKeys; layer receives each input row's layer.
//
// Three practical additions, each behind a threshold the tests force:
// helperB sets aside the rows that can neither raise nor be raised (the
// rank filter of Buzdalov and Shalyto, dcFilter); its pairwise base case
// compares a row only with the rows of the other side that precede it in
// key 0, reading a packed copy of them, with one branch per pair (bruteB);
// and on keys 0..2 it sweeps with one ENS-BS staircase per layer instead
// of splitting (sweepB2, dcStairRanks), which on a single layer costs
// O(log n) per row where the split cost O(log² n). Together, in thread
// CPU time on the benchmark data (medians of three alternating runs of the
// code before and after, each the best of three calls): sphere, 4
// columns, 1e4 and 1e5 rows (one layer), 18.0 to 9.2 ms and 331 to 141
// ms; sphere, 6 columns, 1e4 rows, 69 to 38 ms; uniform, 1e5 rows, 465 to
// 196 ms with 4 columns (40 layers) and 1104 to 528 ms with 5 (21 layers).
func sortLayersDC(rows []uint64, order []int, dims int, layer []int) {
	// Collapse copies: they share a layer and never dominate one another.
	// Unique row u keeps key k at cols[k][u]; u ascends in lexicographic
	// order, so a row can be dominated only by smaller ones. Columns rather
	// than rows, because the recursion reads one key of many rows at a time.
	n := len(order)
	cols := make([][]uint64, dims)
	for k := range cols {
		cols[k] = make([]uint64, 0, n)
	}
	packed := make([]uint64, 0, len(rows))
	of := make([]int, n) // sorted position -> unique row
	u := -1
	for r := range n {
		p := rows[r*dims : (r+1)*dims]
		if r == 0 || !slices.Equal(rows[(r-1)*dims:r*dims], p) {
			for k, v := range p {
				cols[k] = append(cols[k], v)
			}
			packed = append(packed, p...)
			u++
		}
		of[r] = u
	}
	m := u + 1 // rows are named by int32: a matrix of 2³¹ rows is 64 GiB
	s := dcSorter{
		cols:    cols,
		rows:    packed,
		dims:    dims,
		rank:    make([]int, m),
		scratch: make([]int32, m),
		keyBuf:  make([]uint64, m),
	}
	idx := make([]int32, m)
	for i := range idx {
		idx[i] = int32(i)
	}
	s.helperA(idx, dims-1)
	for r, i := range order {
		layer[i] = s.rank[of[r]]
	}
}

// dcSorter holds the state of one sortLayersDC run.
type dcSorter struct {
	cols    [][]uint64 // key k of unique row u at cols[k][u]
	rows    []uint64   // and at rows[u*dims+k], for the pairwise tests
	dims    int
	rank    []int    // lower bounds on the layers, final once a call ends
	scratch []int32  // partition and merge buffer
	keyBuf  []uint64 // threshold's buffer

	bruteKeys  []uint64 // bruteB's copy of L: keys 1..k
	bruteLead  []uint64 // and key 0
	bruteRanks []int
	stairs     []dcStep

	// sweepB2's staircases, one per layer, and their spare blocks.
	layerStairs []layerStairs
	spare       [][]stairStep
}

func (s *dcSorter) key(i int32, k int) uint64 { return s.cols[k][i] }

// row gives keys 0..k of row i.
func (s *dcSorter) row(i int32, k int) []uint64 {
	o := int(i) * s.dims
	return s.rows[o : o+k+1]
}

// helperA sets the final layer of every row of S, given that the rows are
// equal in every key above k, S ascends, and rank holds lower bounds set by
// the rows outside S. S ascends again on return.
//
// Mechanics: split S at a threshold of key k into a lower part S1 and an
// upper part S2 (every key k of S1 below every one of S2), solve S1, raise
// S2's bounds from S1 with helperB on keys 0..k−1 (key k is settled and the
// keys above are equal), then solve S2. If key k is constant, it decides
// nothing and the problem drops to k−1; with k = 1 it is a sweep.
func (s *dcSorter) helperA(S []int32, k int) {
	if len(S) < 2 {
		return
	}
	if bruteA(len(S)) {
		for b, j := range S {
			jk, best := s.row(j, k), s.rank[j]
			for _, i := range S[:b] {
				if r := s.rank[i]; r >= best && nd.Covers(s.row(i, k), jk) {
					best = r + 1
				}
			}
			s.rank[j] = best
		}
		return
	}
	if k == 1 {
		s.sweepA(S)
		return
	}
	lo, hi := s.keyRange(S, k)
	if lo == hi {
		s.helperA(S, k-1)
		return
	}
	cut := s.split(S, s.threshold(S, nil, k, hi, false), k)
	if lopsided(cut, len(S)) {
		s.merge(S, cut)
		cut = s.split(S, s.threshold(S, nil, k, hi, true), k)
	}
	s.helperA(S[:cut], k)
	s.helperB(S[:cut], S[cut:], k-1)
	s.helperA(S[cut:], k)
	s.merge(S, cut)
}

// helperB raises the bounds of the rows of H by the rows of L, whose layers
// are final, given that every row of L is no larger than every row of H in
// the keys above k. L and H ascend, and do again on return.
//
// Mechanics: if key k separates the sides it either settles every pair
// (drop to k−1) or none (return). Otherwise both sides are split at one
// threshold t into a part at or below and a part above (or below and at or
// above): low L against low H and high L against high H still need key k,
// low L against high H is settled in key k, and high L against low H can
// never dominate.
func (s *dcSorter) helperB(L, H []int32, k int) {
	if len(L) == 0 || len(H) == 0 {
		return
	}
	// A row of L raises a row of H only if its layer is at least the
	// bound of that row: with every layer of L below every bound of H
	// there is nothing to do.
	top, lowL := s.rank[L[0]], s.rank[L[0]]
	for _, l := range L[1:] {
		top = max(top, s.rank[l])
		lowL = min(lowL, s.rank[l])
	}
	bottom, highH := s.rank[H[0]], s.rank[H[0]]
	for _, h := range H[1:] {
		bottom = min(bottom, s.rank[h])
		highH = max(highH, s.rank[h])
	}
	if top < bottom {
		return
	}
	// Nor does a row of L below every bound of H raise anything, nor can a
	// row of H above every layer of L be raised: with enough of them, set
	// them aside for the rest of the call (Buzdalov and Shalyto's rank
	// filter), keeping both parts in order so that a merge restores L and
	// H. Neither removal changes top or bottom.
	if rankFilterPays(lowL, highH, bottom, top, len(L), len(H), func() int { return s.idle(L, H, bottom, top) }) {
		nl := s.keepRanks(L, bottom, math.MaxInt)
		nh := s.keepRanks(H, math.MinInt, top)
		s.helperB(L[:nl], H[:nh], k)
		s.merge(L, nl)
		s.merge(H, nh)
		return
	}
	if bruteB(len(L), len(H)) {
		s.bruteB(L, H, k)
		return
	}
	if k == 1 {
		s.sweepB(L, H)
		return
	}
	if k == 2 && stairsPay(top, bottom, len(L), len(H)) {
		s.sweepB2(L, H, bottom, top)
		return
	}
	loL, hiL := s.keyRange(L, k)
	loH, hiH := s.keyRange(H, k)
	if hiL <= loH {
		s.helperB(L, H, k-1)
		return
	}
	if loL > hiH {
		return
	}
	keyTop := max(hiL, hiH)
	t := s.threshold(L, H, k, keyTop, false)
	cl := s.split(L, t, k)
	ch := s.split(H, t, k)
	if lopsidedSplit(cl, ch, len(L), len(H)) {
		s.merge(L, cl)
		s.merge(H, ch)
		t = s.threshold(L, H, k, keyTop, true)
		cl = s.split(L, t, k)
		ch = s.split(H, t, k)
	}
	s.helperB(L[:cl], H[:ch], k)
	s.helperB(L[:cl], H[ch:], k-1)
	s.helperB(L[cl:], H[ch:], k)
	s.merge(L, cl)
	s.merge(H, ch)
}

// dcCut is a split point of key k: rows with key below t go low, rows with
// key t go low if atLow, and the others go high.
type dcCut struct {
	t     uint64
	atLow bool
}

// keyRange gives the smallest and largest key k of S.
func (s *dcSorter) keyRange(S []int32, k int) (lo, hi uint64) {
	lo, hi = s.key(S[0], k), s.key(S[0], k)
	for _, i := range S[1:] {
		v := s.key(i, k)
		lo = min(lo, v)
		hi = max(hi, v)
	}
	return lo, hi
}

// threshold picks a cut of key k over the rows of A and B that leaves both
// sides non-empty; top is the largest key, and the keys are not all equal.
// Unless exact, the cut is at the median of at most dcSample rows spread
// evenly over A and B: exact medians would cost a selection and a count
// over every row at every call, and a sample's median usually splits
// nearly as evenly. The callers ask again with exact when the sample left
// less than a sixteenth of the rows on one side (see lopsided), so that the
// depth stays logarithmic whatever the order of the rows; only many equal
// keys can then unbalance the cut.
func (s *dcSorter) threshold(A, B []int32, k int, top uint64, exact bool) dcCut {
	total := len(A) + len(B)
	step := max(1, total/dcSample)
	if exact {
		step = 1
	}
	vals := s.keyBuf[:0]
	for p := step / 2; p < total; p += step {
		if p < len(A) {
			vals = append(vals, s.key(A[p], k))
		} else {
			vals = append(vals, s.key(B[p-len(A)], k))
		}
	}
	t := selectKey(vals, len(vals)/2)
	if !exact {
		// With t below top the rows above t are not none; with t at top
		// some row is below it, since the keys are not all equal.
		return dcCut{t: t, atLow: t < top}
	}
	return s.bestCut(A, B, k, top, t)
}

// lopsided reports whether a sampled cut that put low of total rows on the
// low side should be replaced by an exact one.
func lopsided(low, total int) bool {
	return total > dcSample && min(low, total-low)*16 < total
}

// lopsidedSplit is lopsided for a cut that put cl of l rows of L and ch of
// h rows of H on the low side.
func lopsidedSplit(cl, ch, l, h int) bool { return lopsided(cl+ch, l+h) }

// bestCut puts the rows whose key k is t on the side that leaves the
// smaller side larger, among the cuts that leave neither side empty.
func (s *dcSorter) bestCut(A, B []int32, k int, top, t uint64) dcCut {
	below, equal := 0, 0
	for _, S := range [2][]int32{A, B} {
		for _, i := range S {
			switch v := s.key(i, k); {
			case v < t:
				below++
			case v == t:
				equal++
			}
		}
	}
	above := len(A) + len(B) - below - equal
	// With t below top the rows above t are not none; with t at top some
	// row is below it, since the keys are not all equal.
	if t < top && (below == 0 || min(below+equal, above) >= min(below, equal+above)) {
		return dcCut{t: t, atLow: true}
	}
	return dcCut{t: t, atLow: false}
}

// dcSample is how many rows threshold samples at most; a variable so that
// tests can make the sample small.
var dcSample = 63

// selectKey returns the value of rank r in vals (0-based), reordering vals
// (see nd.SelectNth).
func selectKey(vals []uint64, r int) uint64 {
	nd.SelectNth(vals, r, func(v uint64) uint64 { return v })
	return vals[r]
}

// split reorders S stably into its low rows then its high rows by c and
// returns the number of low rows.
func (s *dcSorter) split(S []int32, c dcCut, k int) int {
	atLow := nd.OneIf(c.atLow)
	return s.partition(S, func(i int32) int {
		v := s.key(i, k)
		return nd.OneIf(v < c.t) | nd.OneIf(v == c.t)&atLow
	})
}

// partition reorders S stably into the rows for which first is 1 then the
// others (first 0), and returns the number of the former. Every row is
// written to both sides and counted on one: the split keys are a coin toss
// to branch on.
func (s *dcSorter) partition(S []int32, first func(int32) int) int {
	n, m := 0, 0
	rest := s.scratch[:len(S)]
	for _, i := range S {
		f := first(i)
		S[n], rest[m] = i, i // S[n] is read already: n never passes i's place
		n += f
		m += 1 - f
	}
	copy(S[n:], rest[:m])
	return n
}

// idle counts the rows of L below bottom and the rows of H above top.
func (s *dcSorter) idle(L, H []int32, bottom, top int) int {
	n := 0
	for _, l := range L {
		if s.rank[l] < bottom {
			n++
		}
	}
	for _, h := range H {
		if s.rank[h] > top {
			n++
		}
	}
	return n
}

// keepRanks reorders S stably into the rows whose layer is in [lo, hi] then
// the others, and returns the number of the former.
func (s *dcSorter) keepRanks(S []int32, lo, hi int) int {
	return s.partition(S, func(i int32) int { r := s.rank[i]; return nd.OneIf(r >= lo) & nd.OneIf(r <= hi) })
}

// dcFilter sets when helperB sets rows aside by layer: when at least one
// row in dcFilter of L and H can be; a variable so that tests can force
// the filter always (a large value) or never (0).
var dcFilter = 8

// rankFilterPays reports whether helperB sets rows aside by layer, with
// lowL the lowest layer of its l rows of L, top the highest, highH the
// highest bound of its h rows of H, bottom the lowest: when some row can be
// (a layer of L below bottom or a bound of H above top), and idle, which
// counts them and is asked only then, says at least one in dcFilter.
func rankFilterPays(lowL, highH, bottom, top, l, h int, idle func() int) bool {
	return (lowL < bottom || highH > top) && idle()*dcFilter >= l+h
}

// merge restores the ascending order of S from its ascending halves S[:cut]
// and S[cut:].
func (s *dcSorter) merge(S []int32, cut int) {
	a := append(s.scratch[:0], S[:cut]...)
	b := S[cut:]
	i, j, o := 0, 0, 0
	for i < len(a) && j < len(b) {
		// Which half gives the next row is a coin toss: select it by mask.
		x, y := a[i], b[j]
		t := nd.OneIf(x < y)
		S[o] = y ^ (x^y)&-int32(t)
		i += t
		j += 1 - t
		o++
	}
	copy(S[o:], a[i:])
}

// dcStep is one step of the sweeps' staircase: the smallest key 1 among the
// rows swept so far whose layer is at least rank.
type dcStep struct {
	k1   uint64
	rank int
}

// stairsBest gives the largest layer among the swept rows whose key 1 is at
// most k1, or −1. The staircase ascends in both k1 and rank.
func (s *dcSorter) stairsBest(k1 uint64) int {
	st := s.stairs
	lo, hi := 0, len(st) // the first step above k1 is in st[lo:hi+1]
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if st[mid].k1 > k1 {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if lo == 0 {
		return -1
	}
	return st[lo-1].rank
}

// stairsAdd records a swept row, dropping the steps it makes redundant.
func (s *dcSorter) stairsAdd(k1 uint64, rank int) {
	if s.stairsBest(k1) >= rank {
		return
	}
	st := s.stairs
	j := sort.Search(len(st), func(j int) bool { return st[j].k1 >= k1 })
	e := j
	for e < len(st) && st[e].rank <= rank {
		e++
	}
	s.stairs = slices.Replace(st, j, e, dcStep{k1, rank})
}

// sweepA is helperA on keys 0 and 1: in ascending order every earlier row
// has no larger key 0, so it dominates a row exactly when its key 1 is no
// larger (the rows are distinct and equal above key 1).
func (s *dcSorter) sweepA(S []int32) {
	s.stairs = s.stairs[:0]
	for _, i := range S {
		k1 := s.key(i, 1)
		if b := s.stairsBest(k1); b >= s.rank[i] {
			s.rank[i] = b + 1
		}
		s.stairsAdd(k1, s.rank[i])
	}
}

// sweepB is helperB on keys 0 and 1: L and H are swept together in
// ascending order, and a row of L before a row of H dominates it when its
// key 1 is no larger. A row of L after a row of H cannot dominate it: it
// has a larger key 0, or an equal key 0 and a larger key 1, or equal keys 0
// and 1 and a larger key above, which helperB's precondition rules out.
func (s *dcSorter) sweepB(L, H []int32) {
	s.stairs = s.stairs[:0]
	i := 0
	for _, h := range H {
		for i < len(L) && L[i] < h {
			s.stairsAdd(s.key(L[i], 1), s.rank[L[i]])
			i++
		}
		if b := s.stairsBest(s.key(h, 1)); b >= s.rank[h] {
			s.rank[h] = b + 1
		}
	}
}

// dcStairRanks·log₂(|L|+|H|) is how many layers of L at or above the lowest
// bound of H helperB accepts on keys 0..2 for sweepB2 rather than a split,
// which keeps sweepB2 within the O(n log² n) of the split it replaces; a
// variable so that tests can force either path. sweepB2 stops at the first
// staircase that dominates a row, so many layers cost less than the bound
// says: in one alternating run on uniform data of 1e5 rows, accepting
// 4·log₂ layers rather than 4 cut the thread CPU time from 534 to 224 ms
// with 4 columns (40 layers) and from 1151 to 658 ms with 5 (21 layers).
var dcStairRanks = 4

// stairsPay reports whether helperB hands keys 0..2 to sweepB2 when the
// layers of its l rows of L reach top and the bounds of its h rows of H
// bottom: when top − bottom is under dcStairRanks times the bit length of
// l + h, about log₂(l + h).
func stairsPay(top, bottom, l, h int) bool { return top-bottom < dcStairRanks*bits.Len(uint(l+h)) }

// sweepB2 is helperB on keys 0..2 when L holds at most about dcStairRanks
// log n layers that matter (from bottom, the lowest bound in H, to top, the
// highest layer in L): L and H are swept together in ascending order as in
// sweepB, and each of those layers keeps the staircase of its swept rows'
// keys 1 and 2 (layerStairs, as in the three-column sort). A row of H asks
// the staircases from top down to its own bound and stops at the first
// that dominates it. The divide and conquer thus hands a subproblem to a
// method with a smaller constant, as in the hybrids of Markina and Buzdalov
// ("Hybridizing non-dominated sorting algorithms: divide-and-conquer meets
// best order sort", GECCO 2017), with ENS-BS's staircases (Zhang et al.,
// 2015) as that method: on one layer the sweep costs O(log n) per row where
// the split it replaces costs O(log² n).
func (s *dcSorter) sweepB2(L, H []int32, bottom, top int) {
	n := top - bottom + 1
	for len(s.layerStairs) < n {
		s.layerStairs = append(s.layerStairs, layerStairs{spare: &s.spare})
	}
	st := s.layerStairs[:n]
	rows, d := s.rows, s.dims
	high := -1 // the highest staircase with a step
	i := 0
	for _, h := range H {
		for ; i < len(L) && L[i] < h; i++ {
			l := L[i]
			r := s.rank[l] - bottom
			if r < 0 {
				continue // below every bound of H: it raises nothing
			}
			o := int(l) * d
			p := stairStep{rows[o+1], rows[o+2]}
			if !st[r].dominates(p) {
				st[r].insert(p)
				high = max(high, r)
			}
		}
		o := int(h) * d
		p := stairStep{rows[o+1], rows[o+2]}
		for r := high; r >= s.rank[h]-bottom; r-- {
			if len(st[r].blocks) > 0 && st[r].dominates(p) {
				s.rank[h] = bottom + r + 1
				break
			}
		}
	}
	for r := range st[:high+1] {
		st[r].reset()
	}
}
