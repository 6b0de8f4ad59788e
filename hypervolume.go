package spica

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// Every kernel below works on extents: a row's distance from the reference
// point towards the good side of each column (ref−x when minimizing, x−ref
// when maximizing). A row adds volume only when every extent is > 0, and
// then it dominates the box [0, extent] of the extent space, so one set of
// kernels serves every mix of directions. For distinct floats a−b is never
// zero, so "strictly better than ref" survives the subtraction; an extent
// that overflows counts as infinite.

// Hypervolume returns the Lebesgue measure of the region dominated by the
// rows of an n×dims row-major matrix and bounded by the reference point ref:
// for a maximized column the region lies above ref[j], for a minimized one
// below it. Rows that are not strictly better than ref in every column, and
// rows holding a NaN, add nothing. A row inside the box with an infinite
// coordinate on its good side makes the volume +Inf, as does a finite volume
// too large for a float64.
//
// The algorithm depends on the number of columns:
//
//   - 1: the largest extent, O(n).
//   - 2: a sweep over the rows sorted by the first column, O(n) after a
//     radix sort of the order-preserving bit pattern of the extents.
//   - 3: the dimension sweep of Beume, Fonseca, López-Ibáñez, Paquete and
//     Vahrenhold ("On the complexity of computing the hypervolume indicator",
//     IEEE TEVC 2009), O(n log n): rows enter in decreasing third
//     coordinate while the area of the two-dimensional staircase they cast
//     is kept incrementally; the staircase lives in a 64-ary bit tree over
//     the rows' ranks in the first column, so each step is O(log₆₄ n).
//   - 4 or more: WFG of While, Bradstreet and Barone ("A fast way of
//     calculating exact hypervolumes", IEEE TEVC 2012), with the three-column
//     sweep as its base case; exponential in dims in the worst case and
//     about O(n² log n) for four columns.
//
// A shape error (see [NonDominated]), len(ref) != dims or a ref coordinate
// that is not finite is an error wrapping [ErrInvalidMatrix]. An empty matrix
// has volume 0. values, maximize and ref are not modified.
func Hypervolume(values []float64, dims int, maximize []bool, ref []float64) (float64, error) {
	n, err := checkHypervolume(values, dims, maximize, ref)
	if err != nil {
		return 0, err
	}
	if dims == 2 {
		return hypervolume2(values, n, maximize, ref), nil
	}
	pts, _ := extents(values, n, dims, maximize, ref)
	for _, e := range pts {
		if math.IsInf(e, 1) {
			return math.Inf(1), nil
		}
	}
	return saturate(hvFinite(pts, dims)), nil
}

// HypervolumeContributions returns, for each row, the volume [Hypervolume]
// loses when that row alone is removed: the measure of the region that row
// dominates and no other row does. Dominated rows, rows outside the
// reference box, NaN rows and rows with an exact duplicate get 0. Where
// infinities are involved the same definition holds and the answer is never
// NaN: a row gets +Inf exactly when the region only it dominates is
// unbounded (so the only row with infinite extent gets +Inf, while two rows
// with infinite extent in different columns each get +Inf, and a finite row
// beside them keeps its finite share). A finite share too large for a
// float64 is +Inf.
//
// Removing a row uncovers the rows only it dominated, so a row's exclusive
// area in a plane is the rectangle between its neighbours on the staircase
// (the non-dominated rows) minus a second staircase: the non-dominated rows
// among the rest. With one or two columns (one is padded with a column of
// 1s) both staircases come from one pass after the radix sort, O(n). With
// three, the sweep of [Hypervolume] keeps both staircases of the rows above
// the current height and integrates each row's exclusive area over the
// height it holds, updating at most three areas per step by the strips they
// lose, O(n log n) in all as long as the areas are finite (an infinite one
// is measured again from scratch), in the spirit of Emmerich and Fonseca, "Computing
// hypervolume contributions in low dimensions: asymptotically optimal
// algorithm and complexity results", EMO 2011, which covers mutually
// non-dominated rows only). With four or more columns each surviving row's share is WFG's
// exclusive hypervolume, its own box minus the hypervolume of the other rows
// limited to that box, computed directly rather than as the difference of
// two totals.
//
// Errors are those of [Hypervolume]. An empty matrix gives an empty, non-nil
// slice. values, maximize and ref are not modified.
func HypervolumeContributions(values []float64, dims int, maximize []bool, ref []float64) ([]float64, error) {
	n, err := checkHypervolume(values, dims, maximize, ref)
	if err != nil {
		return nil, err
	}
	out := make([]float64, n)
	pts, rows := extents(values, n, dims, maximize, ref)
	var share []float64
	switch dims {
	case 1:
		// A second column of 1s scales no volume.
		p2 := make([]float64, 2*len(pts))
		for i, e := range pts {
			p2[2*i], p2[2*i+1] = e, 1
		}
		share = contributions2(p2)
	case 2:
		share = contributions2(pts)
	case 3:
		share = contributions3(pts)
	default:
		share = contributionsMany(pts, dims)
	}
	for i, r := range rows {
		out[r] = share[i]
	}
	return out, nil
}

// checkHypervolume adds the reference point to the shape rules every matrix
// function shares, and returns the number of rows.
func checkHypervolume(values []float64, dims int, maximize []bool, ref []float64) (int, error) {
	n, err := checkMatrix(values, dims, maximize)
	if err != nil {
		return 0, err
	}
	if len(ref) != dims {
		return 0, fmt.Errorf("%w: len(ref) = %d, want dims = %d", ErrInvalidMatrix, len(ref), dims)
	}
	for j, r := range ref {
		if math.IsNaN(r) || math.IsInf(r, 0) {
			return 0, fmt.Errorf("%w: ref[%d] is %v, want a finite number", ErrInvalidMatrix, j, r)
		}
	}
	return n, nil
}

// extents returns the extents of the rows inside the reference box, row
// major, and the indices of those rows.
func extents(values []float64, n, dims int, maximize []bool, ref []float64) ([]float64, []int) {
	pts := make([]float64, 0, len(values))
	rows := make([]int, 0, n)
	for i := range n {
		row := values[i*dims : (i+1)*dims]
		start := len(pts)
		inside := true
		for j, v := range row {
			e := ref[j] - v
			if maximize[j] {
				e = v - ref[j]
			}
			if !(e > 0) { // NaN fails too
				inside = false
				break
			}
			pts = append(pts, e)
		}
		if inside {
			rows = append(rows, i)
		} else {
			pts = pts[:start]
		}
	}
	return pts, rows
}

// saturate turns the NaN an overflowed product can leave (Inf−Inf, Inf·0)
// into +Inf: it only arises when some partial volume exceeded MaxFloat64.
func saturate(v float64) float64 {
	if v != v {
		return math.Inf(1)
	}
	return v
}

// rect is the area of a w×h rectangle, 0 when either side is not positive;
// it keeps a zero-width strip of infinite height (or the reverse) from
// becoming NaN.
func rect(w, h float64) float64 {
	if w > 0 && h > 0 {
		return w * h
	}
	return 0
}

// hvFinite is the hypervolume of finite, positive extents.
func hvFinite(pts []float64, dims int) float64 {
	switch dims {
	case 1:
		v := 0.0
		for _, e := range pts {
			v = max(v, e)
		}
		return v
	case 2:
		a := make([]ndRec, 0, len(pts)/2)
		for i := 0; i < len(pts); i += 2 {
			a = append(a, ndRec{math.Float64bits(pts[i]), math.Float64bits(pts[i+1])})
		}
		return sweep2(a)
	case 3:
		return hv3(pts)
	}
	return wfg(pts, dims)
}

// hypervolume2 builds the sort records straight from values so that a
// million-row front costs two 16-byte-per-row arrays and nothing else.
func hypervolume2(values []float64, n int, maximize []bool, ref []float64) float64 {
	a := make([]ndRec, 0, n)
	for i := 0; i < 2*n; i += 2 {
		e0, e1 := ref[0]-values[i], ref[1]-values[i+1]
		if maximize[0] {
			e0 = values[i] - ref[0]
		}
		if maximize[1] {
			e1 = values[i+1] - ref[1]
		}
		if !(e0 > 0 && e1 > 0) {
			continue
		}
		if math.IsInf(e0, 1) || math.IsInf(e1, 1) {
			return math.Inf(1)
		}
		// For positive floats the bit pattern orders like the value.
		a = append(a, ndRec{math.Float64bits(e0), math.Float64bits(e1)})
	}
	return saturate(sweep2(a))
}

// sweep2 is the two-column hypervolume of records whose key is the first
// extent and whose aux is the second, both as float64 bits.
func sweep2(a []ndRec) float64 {
	a = sortStable(a, nil)
	area, top := 0.0, 0.0
	for i := len(a) - 1; i >= 0; i-- {
		// Visiting rows by decreasing first extent, a row adds the strip
		// between the highest second extent seen so far and its own.
		if y := math.Float64frombits(a[i].aux); y > top {
			area += math.Float64frombits(a[i].key) * (y - top)
			top = y
		}
	}
	return area
}

// rankSet is an ordered set of the integers [0, n): a 64-ary tree of bit
// words where a bit is set when its word on the level below is non-zero, so
// insertion, deletion, successor and predecessor cost O(log₆₄ n) word
// operations.
type rankSet struct{ levels [][]uint64 }

func newRankSet(n int) rankSet {
	var s rankSet
	for {
		w := (n + 63) / 64
		s.levels = append(s.levels, make([]uint64, max(w, 1)))
		if w <= 1 {
			return s
		}
		n = w
	}
}

func (s rankSet) add(i int) {
	for _, lv := range s.levels {
		w := i >> 6
		was := lv[w]
		lv[w] |= 1 << (i & 63)
		if was != 0 {
			return
		}
		i = w
	}
}

func (s rankSet) remove(i int) {
	for _, lv := range s.levels {
		w := i >> 6
		lv[w] &^= 1 << (i & 63)
		if lv[w] != 0 {
			return
		}
		i = w
	}
}

// next returns the smallest member greater than i (i may be -1), or -1.
func (s rankSet) next(i int) int {
	i++
	l := 0
	for ; l < len(s.levels); l++ {
		lv := s.levels[l]
		w := i >> 6
		if w >= len(lv) {
			return -1
		}
		if m := lv[w] >> (i & 63) << (i & 63); m != 0 {
			i = w<<6 + bits.TrailingZeros64(m)
			break
		}
		i = w + 1
	}
	if l == len(s.levels) {
		return -1
	}
	for l--; l >= 0; l-- {
		i = i<<6 + bits.TrailingZeros64(s.levels[l][i])
	}
	return i
}

// prev returns the largest member smaller than i, or -1.
func (s rankSet) prev(i int) int {
	i--
	l := 0
	for ; l < len(s.levels); l++ {
		if i < 0 {
			return -1
		}
		w, b := i>>6, 63-i&63
		if m := s.levels[l][w] << b >> b; m != 0 {
			i = w<<6 + 63 - bits.LeadingZeros64(m)
			break
		}
		i = w - 1
	}
	if l == len(s.levels) {
		return -1
	}
	for l--; l >= 0; l-- {
		i = i<<6 + 63 - bits.LeadingZeros64(s.levels[l][i])
	}
	return i
}

// staircase is the set of mutually weakly non-dominated points of a plane
// (no member is ≥ another in both coordinates), held by their ranks in x
// order; x and y are indexed by rank and shared between staircases. Ranks
// order ties in x arbitrarily, which is why the lookups below compare
// coordinates rather than trust ranks alone.
type staircase struct {
	set  rankSet
	x, y []float64
}

// cover returns the member with the smallest x ≥ the x of rank r, or -1;
// only it can weakly dominate r.
func (t *staircase) cover(r int) int {
	if q := t.set.prev(r); q >= 0 && t.x[q] >= t.x[r] {
		return q
	}
	return t.set.next(r)
}

// covers reports whether some member is ≥ rank r in both coordinates.
func (t *staircase) covers(r int) bool {
	q := t.cover(r)
	return q >= 0 && t.y[q] >= t.y[r]
}

// insert adds rank r, which no member covers, removes the members it covers
// (appending them to removed) and returns the area it adds to the union of
// the members' boxes [0,x]×[0,y] within the quadrant above (xlo, ylo).
func (t *staircase) insert(r int, xlo, ylo float64, removed []int) (float64, []int) {
	x, y := t.x[r], t.y[r]
	h := 0.0 // height of the union just left of the strip being measured
	if s := t.set.next(r); s >= 0 {
		h = t.y[s]
		if t.x[s] <= x { // a tie in x that r dominates
			t.set.remove(s)
			removed = append(removed, s)
		}
	}
	gain, right := 0.0, x
	q := t.set.prev(r)
	for ; q >= 0; q = t.set.prev(q) {
		gain += rect(right-max(t.x[q], xlo), y-max(h, ylo))
		if t.y[q] > y {
			break
		}
		t.set.remove(q)
		removed = append(removed, q)
		h, right = t.y[q], t.x[q]
	}
	if q < 0 {
		gain += rect(right-xlo, y-max(h, ylo))
	}
	t.set.add(r)
	return gain, removed
}

// sweepOrder ranks the rows of a three-column extent matrix by x and returns
// the staircase coordinates and row of each rank, plus records (key z, aux
// rank) sorted by z.
func sweepOrder(pts []float64) (x, y []float64, row []int, byZ []ndRec) {
	m := len(pts) / 3
	a := make([]ndRec, m)
	buf := make([]ndRec, m)
	for i := range m {
		a[i] = ndRec{math.Float64bits(pts[3*i]), uint64(i)}
	}
	byX := sortStable(a, buf) // sorted in a, so buf is free again
	x, y, row = make([]float64, m), make([]float64, m), make([]int, m)
	z := make([]ndRec, m)
	for r, e := range byX {
		i := int(e.aux)
		row[r] = i
		x[r], y[r] = pts[3*i], pts[3*i+1]
		z[r] = ndRec{math.Float64bits(pts[3*i+2]), uint64(r)}
	}
	return x, y, row, sortStable(z, buf)
}

// hv3 is the three-column hypervolume of finite, positive extents: the
// staircase area integrated over z, from the highest row down.
func hv3(pts []float64) float64 {
	if len(pts) == 0 {
		return 0
	}
	x, y, _, byZ := sweepOrder(pts)
	t := staircase{set: newRankSet(len(x)), x: x, y: y}
	var removed []int
	vol, area := 0.0, 0.0
	zPrev := math.Float64frombits(byZ[len(byZ)-1].key)
	for i := len(byZ) - 1; i >= 0; i-- {
		z, r := math.Float64frombits(byZ[i].key), int(byZ[i].aux)
		vol += area * (zPrev - z)
		zPrev = z
		if !t.covers(r) {
			var gain float64
			gain, removed = t.insert(r, 0, 0, removed[:0])
			area += gain
		}
	}
	return vol + area*zPrev
}

// contributions2 returns the exclusive area of each row of a two-column
// extent matrix (extents > 0, +Inf allowed): the static case of
// [contributions3], where the front and the back staircase come from one
// pass over the rows by decreasing x and each front row's rectangle meets a
// contiguous run of the back, so after the sort it is O(n).
func contributions2(pts []float64) []float64 {
	m := len(pts) / 2
	out := make([]float64, m)
	a := make([]ndRec, m)
	for i := range a {
		a[i] = ndRec{math.Float64bits(pts[2*i]), uint64(i)}
	}
	a = sortStable(a, nil)
	var front, back []int // rows, by decreasing x
	top1, top2 := 0.0, 0.0
	for hi := m - 1; hi >= 0; {
		lo := hi
		for lo > 0 && a[lo-1].key == a[hi].key {
			lo--
		}
		// Among rows sharing x only the highest can reach a staircase; its
		// equals and the rest fall to the back staircase.
		best, second := -1, -1
		for _, e := range a[lo : hi+1] {
			i := int(e.aux)
			if best < 0 || pts[2*i+1] > pts[2*best+1] {
				best, second = i, best
			} else if second < 0 || pts[2*i+1] > pts[2*second+1] {
				second = i
			}
		}
		if y := pts[2*best+1]; y > top1 {
			front = append(front, best)
			top1 = y
			best = second
		}
		if best >= 0 && pts[2*best+1] > top2 {
			back = append(back, best)
			top2 = pts[2*best+1]
		}
		hi = lo - 1
	}
	slices.Reverse(front)
	slices.Reverse(back)
	b := 0
	for k, f := range front {
		xl, ys := 0.0, 0.0
		if k > 0 {
			xl = pts[2*front[k-1]]
		}
		if k+1 < len(front) {
			ys = pts[2*front[k+1]+1]
		}
		for b < len(back) && pts[2*back[b]] <= xl {
			b++
		}
		xf, yf := pts[2*f], pts[2*f+1]
		area, from := 0.0, xl
		for _, q := range back[b:] {
			xq, yq := pts[2*q], pts[2*q+1]
			if xq > xf || yq <= ys {
				break
			}
			area += rect(xq-from, yf-max(yq, ys))
			from = max(from, xq)
		}
		out[f] = area + rect(xf-from, yf-ys)
	}
	return out
}

// contributions3 returns the exclusive volume of each row of a three-column
// extent matrix (extents > 0, +Inf allowed).
//
// At height z of the sweep the rows with a larger z are active. Only a row
// on the staircase of the active rows (front) can own area alone: its box
// minus its neighbours' is the rectangle between them, and what else covers
// that rectangle comes from rows only it hides, whose union is the part of
// the second staircase (back) inside the rectangle. Each row's exclusive
// area is integrated over the heights it holds. A rectangle only ever
// shrinks, its bottom rising or its left side moving right, and a back row
// it leaves lies under two front rows and so inside no rectangle again: it
// is dropped from the back as it is passed. Every update walks only the back
// rows it drops plus O(1) others, so the whole sweep is O(n log n).
func contributions3(pts []float64) []float64 {
	m := len(pts) / 3
	out := make([]float64, m)
	if m == 0 {
		return out
	}
	x, y, owner, byZ := sweepOrder(pts)
	front := staircase{set: newRankSet(m), x: x, y: y}
	back := staircase{set: newRankSet(m), x: x, y: y}
	area := make([]float64, m)  // exclusive area of a front rank
	since := make([]float64, m) // height at which area took its value

	// bounds returns the left side and the bottom of front rank r's
	// rectangle.
	bounds := func(r int) (xl, ys float64) {
		if l := front.set.prev(r); l >= 0 {
			xl = x[l]
		}
		if s := front.set.next(r); s >= 0 {
			ys = y[s]
		}
		return xl, ys
	}
	// settle integrates front rank r's exclusive area up to height z.
	settle := func(r int, z float64) {
		if area[r] > 0 && since[r] > z { // +Inf heights meet only here
			out[owner[r]] += area[r] * (since[r] - z)
		}
		since[r] = z
	}
	// exclusive measures front rank r's area from scratch. For a new front
	// rank the back rows in its rectangle are those it has just pushed off
	// the front, so the walk is paid for by their entering the back.
	var exclusive func(r int) float64
	// take removes lost from front rank r's area; rounding must not leave it
	// negative, and Inf−Inf says nothing, so an infinite area is measured
	// again instead.
	take := func(r int, lost float64) {
		if math.IsInf(area[r], 1) || math.IsInf(lost, 1) {
			area[r] = exclusive(r)
			return
		}
		area[r] = max(area[r]-lost, 0)
	}
	exclusive = func(r int) float64 {
		xl, ys := bounds(r)
		xr, yr := x[r], y[r]
		a, from := 0.0, xl
		q := back.set.next(front.set.prev(r))
		for ; q >= 0 && x[q] <= xr && y[q] > ys; q = back.set.next(q) {
			a += rect(x[q]-from, yr-max(y[q], ys))
			from = max(from, x[q])
		}
		return a + rect(xr-from, yr-ys)
	}
	// raiseBottom returns the uncovered area of front rank r's rectangle
	// between heights lo and hi, the strip it loses when its bottom rises
	// from lo to hi, dropping the back rows that fall below hi.
	raiseBottom := func(r int, lo, hi float64) float64 {
		xl, _ := bounds(r)
		// The last back row at or left of x[r]; ranks order ties in x
		// arbitrarily, and the back holds at most one row with a given x.
		q := back.set.next(r)
		if q < 0 || x[q] > x[r] {
			q = back.set.prev(r)
		}
		lost, right := 0.0, x[r]
		for ; q >= 0 && x[q] > xl; q = back.set.prev(q) {
			lost += rect(right-x[q], hi-lo)
			if y[q] >= hi {
				return lost // everything further left is covered above hi
			}
			back.set.remove(q)
			// Left of x[q] the back reaches at least y[q].
			right, lo = x[q], max(lo, y[q])
		}
		return lost + rect(right-xl, hi-lo)
	}
	// moveLeft returns the uncovered area of front rank r's rectangle
	// between x = lo and x = hi, the strip it loses when its left side moves
	// from lo to hi, dropping the back rows in it. from is a rank whose x is
	// lo.
	moveLeft := func(r, from int, lo, hi float64) float64 {
		_, ys := bounds(r)
		yr := y[r]
		lost, left := 0.0, lo
		q := back.set.next(from)
		for ; q >= 0 && x[q] <= hi; q = back.set.next(q) {
			if x[q] <= lo {
				continue // a tie with the old left side, outside the strip
			}
			lost += rect(x[q]-left, yr-max(y[q], ys))
			left = x[q]
			back.set.remove(q)
		}
		h := ys
		if q >= 0 {
			h = max(h, y[q])
		}
		return lost + rect(hi-left, yr-h)
	}
	var removed, dropped []int
	for i := m - 1; i >= 0; i-- {
		z, r := math.Float64frombits(byZ[i].key), int(byZ[i].aux)
		if front.covers(r) {
			host := front.cover(r)
			if back.covers(r) {
				continue
			}
			xl, ys := bounds(host)
			if y[r] <= ys {
				continue // under two front rows: inside no rectangle
			}
			var gain float64
			gain, dropped = back.insert(r, xl, ys, dropped[:0])
			settle(host, z)
			if x[r] == x[host] && y[r] == y[host] {
				area[host] = 0 // exactly, whatever the rounding of gain
			} else {
				take(host, gain)
			}
			continue
		}
		_, removed = front.insert(r, 0, 0, removed[:0])
		l, s := front.set.prev(r), front.set.next(r)
		// The removed rows were l's old successor and s's old predecessor.
		lOldNext, sOldPrev := s, l
		for _, q := range removed {
			if lOldNext < 0 || x[q] < x[lOldNext] {
				lOldNext = q
			}
			if sOldPrev < 0 || x[q] > x[sOldPrev] {
				sOldPrev = q
			}
		}
		if l >= 0 {
			lo := 0.0
			if lOldNext >= 0 {
				lo = y[lOldNext]
			}
			settle(l, z)
			take(l, raiseBottom(l, lo, y[r]))
		}
		if s >= 0 {
			lo := 0.0
			if sOldPrev >= 0 {
				lo = x[sOldPrev]
			}
			settle(s, z)
			take(s, moveLeft(s, sOldPrev, lo, x[r]))
		}
		for _, q := range removed {
			settle(q, z)
			area[q] = 0
			if !back.covers(q) {
				_, dropped = back.insert(q, 0, 0, dropped[:0])
			}
		}
		since[r] = z
		area[r] = exclusive(r)
	}
	for r := front.set.next(-1); r >= 0; r = front.set.next(r) {
		settle(r, 0)
	}
	return out
}

// wfg is the hypervolume of finite, positive extents in dims ≥ 4 columns.
// With the rows in increasing last extent c, the volume is the sum over rows
// of c times the row's exclusive (dims−1)-volume against the rows after it,
// and that exclusive volume is the row's own box minus the hypervolume of the
// later rows clipped to it: the limited set, which is small after filtering
// because most clipped rows fall inside others.
func wfg(pts []float64, dims int) float64 {
	m := len(pts) / dims
	if m == 0 {
		return 0
	}
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	last := dims - 1
	slices.SortFunc(order, func(i, j int) int { return cmp.Compare(pts[i*dims+last], pts[j*dims+last]) })
	vol := 0.0
	var l limiter
	for k, i := range order {
		p := pts[i*dims : i*dims+last]
		limited, covered := l.limit(p, pts, dims, order[k+1:], -1)
		if covered {
			continue
		}
		excl := product(p)
		if len(limited) > 0 {
			excl -= hvFinite(limited, last)
		}
		vol += pts[i*dims+last] * excl
	}
	return vol
}

// limiter builds WFG's limited sets, reusing its buffers.
type limiter struct{ rows, clip []float64 }

// filterCap is the number of limited rows up to which each new one is
// checked against those kept. Limited sets of fronts are mostly covered, so
// the check usually keeps them tiny; when it does not, the three-column
// sweep copes with covered rows at no extra cost and a sort-based filter
// takes over above three columns.
const filterCap = 64

// limit returns the rows min(p, q) for the rows q of pts (stride dims)
// listed in rows other than skip, with p's width, dropping rows another one
// covers; covered reports that some q is ≥ p in all of p's columns, when
// nothing of p is exclusive and the set is not built.
func (l *limiter) limit(p, pts []float64, dims int, rows []int, skip int) (limited []float64, covered bool) {
	d := len(p)
	l.rows = l.rows[:0]
	if cap(l.clip) < d {
		l.clip = make([]float64, d)
	}
	clip := l.clip[:d]
	filtering := true
	for _, j := range rows {
		if j == skip {
			continue
		}
		q := pts[j*dims : j*dims+d]
		all := true
		for c, v := range p {
			w := q[c]
			all = all && w >= v
			clip[c] = min(v, w)
		}
		if all {
			return nil, true
		}
		if !filtering {
			l.rows = append(l.rows, clip...)
			continue
		}
		if coveredBy(l.rows, clip) {
			continue
		}
		kept := l.rows[:0]
		for s := 0; s < len(l.rows); s += d {
			if !coveredBy(clip, l.rows[s:s+d]) {
				kept = append(kept, l.rows[s:s+d]...)
			}
		}
		l.rows = append(kept, clip...)
		filtering = len(l.rows) < filterCap*d
	}
	if !filtering && d >= 4 {
		return weaklyNonDominated(l.rows, d), false
	}
	return l.rows, false
}

func product(p []float64) float64 {
	v := 1.0
	for _, e := range p {
		v *= e
	}
	return v
}

// weaklyNonDominated returns the rows of an extent matrix that no other
// kept row is ≥ in every column, keeping one copy of equal rows. Visiting
// rows by decreasing coordinate sum, a row can only be covered by one seen
// before it (float addition is monotone), so each row is checked against the
// kept ones alone: O(n·k) for k kept rows. Keeping a few covered rows would
// only cost time, never accuracy.
func weaklyNonDominated(pts []float64, dims int) []float64 {
	m := len(pts) / dims
	order := make([]int, m)
	sums := make([]float64, m)
	for i := range order {
		order[i] = i
		for _, e := range pts[i*dims : (i+1)*dims] {
			sums[i] += e
		}
	}
	slices.SortFunc(order, func(i, j int) int { return cmp.Compare(sums[j], sums[i]) })
	out := make([]float64, 0, len(pts))
	for _, i := range order {
		p := pts[i*dims : (i+1)*dims]
		if !coveredBy(out, p) {
			out = append(out, p...)
		}
	}
	return out
}

// coveredBy reports whether some row of the matrix rows is ≥ p in every
// column.
func coveredBy(rows, p []float64) bool {
	d := len(p)
next:
	for k := 0; k < len(rows); k += d {
		for c, v := range p {
			if rows[k+c] < v {
				continue next
			}
		}
		return true
	}
	return false
}

// contributionsMany returns the exclusive volume of each row of an extent
// matrix with dims ≥ 4 columns.
func contributionsMany(pts []float64, dims int) []float64 {
	for _, e := range pts {
		if math.IsInf(e, 1) {
			return contributionsInfinite(pts, dims)
		}
	}
	m := len(pts) / dims
	out := make([]float64, m)
	all := make([]int, m)
	for i := range all {
		all[i] = i
	}
	var l limiter
	for i := range m {
		p := pts[i*dims : (i+1)*dims]
		limited, covered := l.limit(p, pts, dims, all, i)
		if covered { // a duplicate or a dominating row: nothing is exclusive
			continue
		}
		share := product(p) - hvFinite(limited, dims)
		out[i] = max(saturate(share), 0)
	}
	return out
}

// contributionsInfinite handles extents with +Inf. Beyond the largest finite
// value M of a column, the rows that reach further are exactly those with an
// infinite extent there, the same at every height, so a row's exclusive
// region is unbounded iff it keeps a positive share inside that slab; it is
// found by the same computation on those rows alone with the column set to
// 1. Otherwise the region stays below M, and replacing +Inf by any finite
// value above M leaves its measure unchanged. Each recursion fixes one more
// column, so the depth is at most dims.
func contributionsInfinite(pts []float64, dims int) []float64 {
	m := len(pts) / dims
	finite := slices.Clone(pts)
	var slabs []int
	for c := range dims {
		hasInf, top := false, 0.0
		for i := c; i < len(pts); i += dims {
			if math.IsInf(pts[i], 1) {
				hasInf = true
			} else {
				top = max(top, pts[i])
			}
		}
		if !hasInf {
			continue
		}
		slabs = append(slabs, c)
		stand := top + max(1, top)
		if math.IsInf(stand, 1) {
			stand = math.MaxFloat64
		}
		for i := c; i < len(pts); i += dims {
			if math.IsInf(pts[i], 1) {
				finite[i] = stand
			}
		}
	}
	out := contributionsMany(finite, dims)
	for _, c := range slabs {
		var slab []float64
		var rows []int
		for i := range m {
			if math.IsInf(pts[i*dims+c], 1) {
				rows = append(rows, i)
				slab = append(slab, pts[i*dims:(i+1)*dims]...)
				slab[len(slab)-dims+c] = 1
			}
		}
		for k, share := range contributionsMany(slab, dims) {
			if share > 0 {
				out[rows[k]] = math.Inf(1)
			}
		}
	}
	return out
}
