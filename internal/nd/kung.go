package nd

import (
	"math"
	"slices"
	"sync"
)

// frontKung is the maxima algorithm of H. T. Kung, F. Luccio and F. P.
// Preparata ("On finding the maxima of a set of vectors", JACM 22(4), 1975)
// for four or more columns, in the divide-and-conquer form of J. L. Bentley
// ("Multidimensional divide-and-conquer", CACM 23(4), 1980), O(n log^(d−2) n)
// for d columns. It returns what front3 returns.
//
// The refinements, each for constant factors rather than the bound:
//
//   - Rank space. After the lexicographic sort, duplicates collapse into one
//     distinct row each, column 0 is the row's place in that order, and
//     every other column is replaced by its dense rank, an int32: a row is
//     4d bytes (with its dominated flag), a Fenwick tree can be indexed by
//     a column, and one sign test compares two rows (coveredIn).
//   - Presorting by merging. Every recursion returns its rows sorted by the
//     next column, merging its halves' lists as merge sort does, so the
//     marriage step never sorts or selects a median: its halves are cut by
//     position, as in the offline divide and conquer of dimension sweeps,
//     not at a median of values (Bentley's form cuts at the median).
//   - A three-column base, the dimension sweep of Kung et al.'s
//     three-dimensional case: the marriage of two sets on their last three
//     columns is one sweep along the first of them, with a prefix-minimum
//     Fenwick tree over the ranks of the second holding the third, O(n log n)
//     with no recursion, so four columns need one level of divide and
//     conquer, not two.
//   - Only survivors marry. A row the first half dominates is dropped before
//     the marriage (its dominator covers all it would), and a settled row of
//     the second half is no longer asked about.
//   - Boxes. Before a marriage, a row of one side outside the other side's
//     bounding box cannot take part, and two boxes that miss end it: the
//     skyline algorithms' region pruning (SFS, BSkyTree) at the cost of
//     one read of the rows.
//   - Small problems compare all pairs on rows gathered side by side: a half
//     of at most leaf rows, and a marriage whose sides multiply to at most
//     brutePairs.
//   - Halves of at most bits rows are settled by bit sets (maximaBits),
//     O(m²d/64) word operations for m rows but with no recursion: on a
//     sphere of 1e4 rows, whose rows all survive, 43 ms went to 18 with six
//     columns and 24 to 19 with five, and 1e5 rows of five columns took
//     375 ms against 587.
//
// Before it, on data with a small front, the pre-filter's weighted knees
// (pivotSet) have removed most rows.
func frontKung(keys []uint64, dims, m int, t ndTuning, msc *marksScratch) (lex []Rec, keep []bool) {
	var lex0 []Rec
	if msc == nil {
		lex0 = make([]Rec, 2*m)
	} else {
		lex0 = Grow(&msc.recs, 2*m)
	}
	lex, spare := lexSortInto(lex0, keys, dims, m, t)
	row := func(i int) []uint64 { r := int(lex[i].Aux); return keys[r*dims : (r+1)*dims] }
	// Everything but lex and keep is pooled scratch: allocating it each
	// call made the collector's work a large share of a call on a thousand
	// rows (issue 29).
	sc := kungPool.Get().(*kungScratch)
	defer kungPool.Put(sc)
	// of[i] is the distinct row of lexicographic place i.
	of := Grow(&sc.of, m)
	distinct := 0
	for i := range lex {
		if i > 0 && !slices.Equal(row(i), row(i-1)) {
			distinct++
		}
		of[i] = uint32(distinct)
	}
	distinct++
	k := new(kung)
	list := k.layout(sc, dims, distinct, t)
	// Rank each column but the first by a sort of the distinct rows' keys.
	byKey := spare[:distinct]
	buf := Grow(&sc.buf, distinct)
	fenSize := 0 // distinct keys in column dims−2, which the Fenwick tree spans
	for c := 1; c < dims; c++ {
		u := 0
		for i := range lex {
			if i == 0 || of[i] != of[i-1] {
				byKey[u] = Rec{Key: row(i)[c], Aux: uint64(u)}
				u++
			}
		}
		sorted, _ := sortRecs(byKey, buf, t)
		rank := int32(0)
		for i, s := range sorted {
			if i > 0 && s.Key != sorted[i-1].Key {
				rank++
			}
			k.pts[int(s.Aux)*dims+c] = rank
		}
		if c == dims-2 {
			fenSize = int(rank) + 1
		}
	}
	k.fen = k.fen[:fenSize+1]
	for i := range k.fen {
		k.fen[i] = math.MaxInt32
	}
	for u := range list {
		list[u] = kRec{id: uint32(u)}
	}
	k.maxima(list)
	sc.bits64, sc.bits32 = k.bits64, k.bits32
	if msc == nil {
		keep = make([]bool, m)
	} else {
		keep = Grow(&msc.keep, m) // every entry is set below
	}
	for i, r := range lex {
		keep[r.Aux] = !k.dead(of[i])
	}
	return lex, keep
}

// layout makes k a kung for distinct rows of dims columns under t, in sc's
// memory, every row's flag clear, and returns room there for the list of
// the distinct rows that maxima starts from.
func (k *kung) layout(sc *kungScratch, dims, distinct int, t ndTuning) []kRec {
	w := dims - 1            // ranked columns
	levels := max(dims-4, 0) // marriages of four or more columns, at lo = 1 … dims−4
	blk := min(distinct, max(t.brutePairs, t.leaf, 1))
	// The int32 slices share one allocation, as do the kRec ones.
	i32 := Grow(&sc.i32, dims*distinct+distinct+1+2*dims*dims+w*blk)
	clear(i32[:dims*distinct]) // each row's flag starts clear (not dominated)
	recs := Grow(&sc.recs, (2+levels)*distinct)
	bufs := Grow(&sc.bufs, dims)
	clear(bufs)
	*k = kung{
		dims: dims,
		pts:  i32[:dims*distinct],
		fen:  i32[dims*distinct : dims*distinct+distinct+1],
		lim:  i32[dims*distinct+distinct+1:][:2*dims*dims],
		blkA: i32[dims*distinct+distinct+1+2*dims*dims:][: 0 : w*blk],
		tmp:  recs[:distinct],
		bufs: bufs,
		t:    t,
		// maximaBits's scratch, kept from one call to the next.
		bits64: sc.bits64,
		bits32: sc.bits32,
	}
	for lo := 1; lo <= levels; lo++ {
		k.bufs[lo] = recs[(1+lo)*distinct : (2+lo)*distinct]
	}
	return recs[distinct : 2*distinct]
}

// kungScratch is the memory of frontKung but its result, pooled between
// calls: on a thousand uniform rows of five columns it was most of the
// bytes a call of the front allocated, and the collector's work on them a
// large share of its time (issue 29).
type kungScratch struct {
	of     []uint32
	i32    []int32
	recs   []kRec
	bufs   [][]kRec
	buf    []Rec
	bits64 []uint64
	bits32 []int32
}

var kungPool = sync.Pool{New: func() any { return new(kungScratch) }}

// kRec is a distinct row in a list sorted by one column: key is the row's
// rank in that column, id the row, with bit 31 set for a row that only asks
// (see kung.cross). Rows are named by uint32 below that bit: a matrix of 2³¹
// rows of four columns is 64 GiB.
type kRec struct {
	key, id uint32
}

const kAsks = 1 << 31

// kung holds the distinct rows, in rank space, for frontKung.
type kung struct {
	dims int
	// Row u at pts[u*dims:]: first 1 if another row dominates it (so that
	// the flag shares a cache line with the ranks read beside it), then
	// its rank in each column c ≥ 1 at pts[u*dims+c].
	pts  []int32
	tmp  []kRec   // merge scratch
	bufs [][]kRec // bufs[lo]: the merged lists of a marriage on columns lo…
	fen  []int32  // prefix minima of column dims−1 over ranks of dims−2
	lim  []int32  // per lo, the two boxes of cross
	// Rows gathered side by side for comparing all pairs: random reads of
	// pts happen once per row, not once per pair.
	blkA []int32
	t    ndTuning
	// maximaBits's scratch, kept from one call to the next.
	bits64 []uint64
	bits32 []int32
}

// cols returns row id's ranks in the columns from lo on.
func (k *kung) cols(id uint32, lo int) []int32 {
	u := int(id &^ kAsks)
	return k.pts[u*k.dims+lo : (u+1)*k.dims]
}

func (k *kung) col(id uint32, c int) int32 { return k.pts[int(id&^kAsks)*k.dims+c] }

func (k *kung) dead(id uint32) bool { return k.pts[int(id&^kAsks)*k.dims] != 0 }

func (k *kung) kill(id uint32) { k.pts[int(id&^kAsks)*k.dims] = 1 }

// coveredIn reports whether some row of blk, rows of len(x) ranks side by
// side, is no worse than x in every column. Ranks are below 2³¹, so a
// difference x[c] − y[c] is negative exactly when y is worse in column c,
// and the OR of the differences is negative iff some column is: one test
// per pair, and no branch per column.
func coveredIn(blk, x []int32) bool {
	cw := len(x)
	switch cw {
	case 2:
		x0, x1 := x[0], x[1]
		for i := 0; i+2 <= len(blk); i += 2 {
			y := blk[i : i+2 : i+2]
			if (x0-y[0])|(x1-y[1]) >= 0 {
				return true
			}
		}
		return false
	case 3:
		x0, x1, x2 := x[0], x[1], x[2]
		for i := 0; i+3 <= len(blk); i += 3 {
			y := blk[i : i+3 : i+3]
			if (x0-y[0])|(x1-y[1])|(x2-y[2]) >= 0 {
				return true
			}
		}
		return false
	case 4:
		x0, x1, x2, x3 := x[0], x[1], x[2], x[3]
		for i := 0; i+4 <= len(blk); i += 4 {
			y := blk[i : i+4 : i+4]
			if (x0-y[0])|(x1-y[1])|(x2-y[2])|(x3-y[3]) >= 0 {
				return true
			}
		}
		return false
	case 5:
		x0, x1, x2, x3, x4 := x[0], x[1], x[2], x[3], x[4]
		for i := 0; i+5 <= len(blk); i += 5 {
			y := blk[i : i+5 : i+5]
			if (x0-y[0])|(x1-y[1])|(x2-y[2])|(x3-y[3])|(x4-y[4]) >= 0 {
				return true
			}
		}
		return false
	}
	for i := 0; i+cw <= len(blk); i += cw {
		y := blk[i : i+cw : i+cw]
		var neg int32
		for c, v := range y {
			neg |= x[c] - v
		}
		if neg >= 0 {
			return true
		}
	}
	return false
}

// maxima marks dead every row of s (distinct rows in lexicographic order)
// that another row of s dominates, and returns the survivors, compacted to
// the front of s, keyed by and sorted on column 1. Only a lexicographically
// smaller row can dominate, so each half is settled on its own and the
// second half's survivors are married to the first's, which are no worse
// in column 0.
func (k *kung) maxima(s []kRec) []kRec {
	if k.t.byBits(len(s)) {
		return k.maximaBits(s)
	}
	if len(s) <= max(k.t.leaf, 1) {
		// The rows of s are adjacent in pts, so the survivors gather into
		// blkA as they are found.
		blk := k.blkA[:0]
		f := 0
		for _, r := range s {
			x := k.cols(r.id, 1)
			if coveredIn(blk, x) {
				k.kill(r.id)
			} else {
				blk = append(blk, x...)
				s[f] = kRec{uint32(x[0]), r.id}
				f++
			}
		}
		k.blkA = blk[:0]
		s = s[:f]
		sortKRecs(s)
		return s
	}
	mid := len(s) / 2
	a := k.maxima(s[:mid])
	b := k.maxima(s[mid:])
	k.cross(a, b, 1, false)
	f := len(a)
	for _, r := range b {
		if !k.dead(r.id) {
			s[f] = r
			f++
		}
	}
	k.merge(s[:f], len(a))
	return s[:f]
}

// byBits reports whether maxima settles a half of n rows by bit sets: one
// of more than leaf rows, at most bits, and at most the 1<<16 rows
// maximaBits numbers in 16 bits. The choice trades speed only.
func (t ndTuning) byBits(n int) bool { return n <= min(t.bits, 1<<16) && n > t.leaf }

// byPairs reports whether cross compares all pairs of a marriage of na
// answering and nb asking rows. The choice trades speed only.
func (t ndTuning) byPairs(na, nb int) bool { return na*nb <= t.brutePairs }

// cross is the marriage step: it marks dead each row of b that a row of a
// covers in the columns from lo on, given that every row of a is no worse
// than every row of b in the columns before lo. a and b are keyed by and
// sorted on column lo. When asking is set, only b's rows with kAsks set
// ask, and only a's rows without it answer; otherwise all do.
func (k *kung) cross(a, b []kRec, lo int, asking bool) {
	if len(a) == 0 || len(b) == 0 {
		return
	}
	// The box of each side over the columns after lo: an a row above b's
	// box in some column covers nothing, and a b row below a's box in some
	// column is covered by nothing, so both sit out; when the boxes miss,
	// so does everything. Neighbouring rows of a front make small boxes, so
	// deep in the recursion most of a marriage sits out.
	d, pts := k.dims, k.pts
	// amin and bmax hold columns lo+1 … d−1, as does rest(u); the loops
	// below walk rest(u), so a rest of the wrong width faults.
	amin, bmax := k.lim[lo*2*d+lo+1:lo*2*d+d], k.lim[lo*2*d+d+lo+1:(lo+1)*2*d]
	rest := func(id uint32) []int32 {
		u := int(id&^kAsks) * d
		return pts[u+lo+1 : u+d : u+d]
	}
	for c := range amin {
		amin[c], bmax[c] = math.MaxInt32, math.MinInt32
	}
	na, nb := 0, 0
	for _, r := range a {
		if r.id&kAsks == 0 {
			for c, v := range rest(r.id) {
				amin[c] = min(amin[c], v)
			}
			na++
		}
	}
	for _, r := range b {
		if (!asking || r.id&kAsks != 0) && !k.dead(r.id) {
			for c, v := range rest(r.id) {
				bmax[c] = max(bmax[c], v)
			}
			nb++
		}
	}
	if na == 0 || nb == 0 {
		return
	}
	for c := range amin {
		if amin[c] > bmax[c] {
			return
		}
	}
	answers := func(r kRec) bool {
		if r.id&kAsks != 0 {
			return false
		}
		for c, v := range rest(r.id) {
			if v > bmax[c] {
				return false
			}
		}
		return true
	}
	asks := func(r kRec) bool {
		if asking && r.id&kAsks == 0 || k.dead(r.id) {
			return false
		}
		for c, v := range rest(r.id) {
			if v < amin[c] {
				return false
			}
		}
		return true
	}
	if k.t.byPairs(na, nb) {
		// Both lists ascend in column lo, so the a rows no worse than a b
		// row in it are a prefix of a that grows as b is walked: a b row
		// is compared only with that prefix, and only after column lo.
		blk := k.blkA[:0]
		i := 0
		for _, r := range b {
			for ; i < len(a) && a[i].key <= r.key; i++ {
				if answers(a[i]) {
					blk = append(blk, k.cols(a[i].id, lo+1)...)
				}
			}
			if asks(r) && coveredIn(blk, k.cols(r.id, lo+1)) {
				k.kill(r.id)
			}
		}
		k.blkA = blk[:0]
		return
	}
	// maxima marries on columns 1… and settle on lo+1 ≤ dims−3, so at
	// least three columns remain.
	switch k.dims - lo {
	case 3:
		// A sweep along column lo, with the staircase of a's last two
		// columns in a prefix-minimum Fenwick tree over the ranks of
		// column lo+1: b's row is covered iff an a row at or before it
		// holds a third column no worse at a rank no worse.
		fen := k.fen
		i := 0
		for _, r := range b {
			for ; i < len(a) && a[i].key <= r.key; i++ {
				if u := a[i].id; answers(a[i]) {
					z := k.col(u, lo+2)
					for x := int(k.col(u, lo+1)) + 1; x < len(fen); x += x & -x {
						fen[x] = min(fen[x], z)
					}
				}
			}
			if !asks(r) {
				continue
			}
			best := int32(math.MaxInt32)
			for x := int(k.col(r.id, lo+1)) + 1; x > 0; x -= x & -x {
				best = min(best, fen[x])
			}
			if best <= k.col(r.id, lo+2) {
				k.kill(r.id)
			}
		}
		// Empty the tree along the paths written.
		for _, r := range a[:i] {
			if answers(r) {
				for x := int(k.col(r.id, lo+1)) + 1; x < len(fen) && fen[x] != math.MaxInt32; x += x & -x {
					fen[x] = math.MaxInt32
				}
			}
		}
	default:
		// Four or more columns: list a's answering rows and b's asking
		// ones in one order of column lo, a's first among equal keys, so
		// that every a row no worse than a b row in column lo comes
		// before it, and settle the list by divide and conquer on place.
		s := k.bufs[lo][:0]
		i := 0
		for _, r := range b {
			for ; i < len(a) && a[i].key <= r.key; i++ {
				if answers(a[i]) {
					s = append(s, kRec{a[i].key, a[i].id &^ kAsks})
				}
			}
			if asks(r) {
				s = append(s, kRec{r.key, r.id | kAsks})
			}
		}
		k.settle(s, lo)
	}
}

// settle marks dead each asking row of s that an earlier answering row of
// s covers in the columns after lo. s is keyed by and sorted on column lo,
// and every answering row before an asking one is no worse in the columns
// up to lo; on return s is keyed by and sorted on column lo+1.
func (k *kung) settle(s []kRec, lo int) {
	if len(s) <= max(k.t.leaf, 1) {
		// The answering rows gather into blkA as the walk passes them.
		blk := k.blkA[:0]
		for i, r := range s {
			x := k.cols(r.id, lo+1)
			if r.id&kAsks == 0 {
				blk = append(blk, x...)
			} else if !k.dead(r.id) && coveredIn(blk, x) {
				k.kill(r.id)
			}
			s[i].key = uint32(x[0])
		}
		k.blkA = blk[:0]
		sortKRecs(s)
		return
	}
	mid := len(s) / 2
	k.settle(s[:mid], lo)
	k.settle(s[mid:], lo)
	k.cross(s[:mid], s[mid:], lo+1, true)
	k.merge(s, mid)
}

// merge merges the sorted lists s[:mid] and s[mid:] into s, through tmp,
// stably: s[:mid]'s rows come first among equal keys. Lists already in
// order, equal keys at the seam included, are left as they are, uncopied.
func (k *kung) merge(s []kRec, mid int) {
	if mid == 0 || mid == len(s) || s[mid-1].key <= s[mid].key {
		return
	}
	a := k.tmp[:mid]
	copy(a, s[:mid])
	i, j, o := 0, mid, 0
	for i < len(a) && j < len(s) {
		if s[j].key < a[i].key {
			s[o] = s[j]
			j++
		} else {
			s[o] = a[i]
			i++
		}
		o++
	}
	copy(s[o:], a[i:])
}

// sortKRecs sorts a short list by key, stably, by insertion.
func sortKRecs(s []kRec) {
	for i := 1; i < len(s); i++ {
		x := s[i]
		j := i
		for ; j > 0 && s[j-1].key > x.key; j-- {
			s[j] = s[j-1]
		}
		s[j] = x
	}
}
