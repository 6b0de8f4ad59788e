package hv

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"github.com/spica-search/spica/internal/nd"
)

// Contributions is each row's exclusive hypervolume contribution in a valid
// n×dims matrix, by the rules of the root's HypervolumeContributions.
func Contributions(values []float64, n, dims int, maximize []bool, ref []float64) []float64 {
	out := make([]float64, n)
	if dims == 3 && contributions3SmallTakes(n) {
		least := contributions3Small(values, maximize, ref, out)
		if !slices.ContainsFunc(out, isPosInf) && !underflowRisk(least, 3) {
			return out
		}
		clear(out) // and measure again below, to rescale
	}
	if dims == 2 && n <= contrib2SmallMax {
		if contributions2Small(values, n, maximize, ref, out) {
			return out
		}
		// Measure again below, to rescale: that writes every share the
		// small path wrote, those of the rows inside the box.
	}
	origin := make([]float64, max(dims, 2))
	pts, rows := orientedRows(values, n, dims, maximize, ref, origin)
	share := contributionsOf(pts, origin, dims)
	if slices.ContainsFunc(share, isPosInf) {
		rescaleShares(share, pts, origin, dims)
	}
	if dims >= 3 {
		remeasureUnderflowed(share, pts, origin)
	}
	for i, r := range rows {
		out[r] = share[i]
	}
	return out
}

// contributionsOf runs the kernel for dims columns on rows in oriented
// coordinates (see orientedRows): for three columns contributions3Small up
// to contributions3SmallMax rows and contributions3 above.
func contributionsOf(pts, origin []float64, dims int) []float64 {
	switch dims {
	case 1, 2:
		return contributions2(pts, [2]float64(origin))
	case 3:
		if m := len(pts) / 3; contributions3SmallTakes(m) {
			share := make([]float64, m)
			contributions3Small(pts, []bool{true, true, true}, origin, share)
			return share
		}
		return contributions3(pts, [3]float64(origin))
	default:
		return contributionsMany(pts, origin, dims)
	}
}

// contributions3SmallTakes reports whether n rows of three columns go to
// contributions3Small: up to contributions3SmallMax, and never more than
// its sort keys can index, contrib3SmallIndex+1.
func contributions3SmallTakes(n int) bool {
	return n <= min(contributions3SmallMax, contrib3SmallIndex+1)
}

// isPosInf reports whether s is +Inf: a share unbounded or too large for a
// float64, which rescaleShares takes up.
func isPosInf(s float64) bool { return math.IsInf(s, 1) }

// rescaleShares recomputes the shares that came out +Inf with each column
// scaled by the power of two that brings its largest finite magnitude
// (origin included) into [1/2, 1), the remedy of hvRescaled: a gap such as
// MaxFloat64 − (−1) or a partial product 1e200·1e200 overflows although the
// share (·1e-300) fits. Scaling by a power of two is exact while the scaled
// coordinate stays normal, so the gaps keep their one rounding; a scaled
// share under 2^-960 has lost digits to subnormals, and the row is measured
// on its own scale by scaledExclusive. A share that is truly unbounded (an
// infinite coordinate) or beyond MaxFloat64 stays +Inf.
func rescaleShares(share, pts, origin []float64, dims int) {
	width := len(origin)
	exp := make([]int, width)
	total := 0
	for j := range width {
		top := math.Abs(origin[j])
		for i := j; i < len(pts); i += width {
			if a := math.Abs(pts[i]); !math.IsInf(a, 1) {
				top = max(top, a) // no NaN: every row is above origin
			}
		}
		_, exp[j] = math.Frexp(top)
		total += exp[j]
	}
	scaledOrigin := make([]float64, width)
	for j, e := range exp {
		scaledOrigin[j] = math.Ldexp(origin[j], -e)
	}
	scaled := make([]float64, len(pts))
	for i, v := range pts {
		scaled[i] = math.Ldexp(v, -exp[i%width])
	}
	var again remeasurer
	for i, s := range contributionsOf(scaled, scaledOrigin, dims) {
		switch {
		case !math.IsInf(share[i], 1):
		case !rescaledUnderflowed(s, 1): // a share is one row's volume
			share[i] = math.Ldexp(s, total)
		case !hasInf(pts[i*width : (i+1)*width]):
			share[i] = again.share(pts, origin, i)
		}
	}
}

// remeasureUnderflowed measures again, each on its own scale, the shares
// of the rows of pts (oriented coordinates, every row above origin) that
// an underflow may have robbed of digits (see underflowRisk), but those of
// rows with an infinite coordinate, which the kernels settle exactly.
func remeasureUnderflowed(share, pts, origin []float64) {
	width := len(origin)
	least := uint64(math.MaxUint64)
	for _, v := range origin {
		least = min(least, magnitudeKey(v))
	}
	for _, v := range pts {
		least = min(least, magnitudeKey(v))
	}
	if !underflowRisk(magnitudeOf(least), width) {
		return
	}
	low, high := magnitudeSpan(pts, origin, width)
	var again remeasurer
	for i, s := range share {
		if underflowed(s, len(share), low, high) && !hasInf(pts[i*width:(i+1)*width]) {
			share[i] = again.share(pts, origin, i)
		}
	}
}

// orientedRows returns the rows inside the reference box in oriented
// coordinates, where larger is better in every column (the value, negated
// in a minimized column, which is exact), and the indices of those rows; it
// writes the reference point in the same terms to origin. Kernels on
// oriented coordinates take every gap as the difference of two coordinates,
// one rounding, where a gap between extents (ref − x) would carry the
// rounding of both, which on close neighbours far from the reference point
// leaves few correct digits. A single column gets a second column of 1s
// over an origin of 0, which scales no area, so origin has room for
// max(dims, 2) columns.
func orientedRows(values []float64, n, dims int, maximize []bool, ref, origin []float64) (pts []float64, rows []int) {
	return orientedRowsInto(make([]float64, max(dims, 2)*n), make([]int, n), values, n, dims, maximize, ref, origin)
}

// orientedRowsInto is orientedRows writing to pts, max(dims, 2)·n long, and
// rows, n long.
func orientedRowsInto(pts []float64, rows []int, values []float64, n, dims int, maximize []bool, ref, origin []float64) ([]float64, []int) {
	maximize, origin = maximize[:dims], origin[:dims]
	for j, up := range maximize {
		origin[j] = ref[j]
		if !up {
			origin[j] = -ref[j]
		}
	}
	if dims == 2 {
		return orientedRows2(pts, rows, values, n, maximize, [2]float64(origin))
	}
	width := max(dims, 2)
	w, kept := 0, 0
	for i := range n {
		// The row is written whether or not it is kept, and counted, so the
		// loop has no exit but its end: rows are mostly kept.
		dst, inside := pts[w:w+dims], 0
		for j, v := range values[i*dims : (i+1)*dims] {
			if !maximize[j] {
				v = -v
			}
			dst[j] = v
			if v > origin[j] { // NaN fails
				inside++
			}
		}
		if inside == dims {
			if dims == 1 {
				pts[w+1] = 1
			}
			rows[kept] = i
			w += width
			kept++
		}
	}
	return pts[:w], rows[:kept]
}

// orientedRows2 is orientedRowsInto for two columns, unrolled: each row is
// written and then kept or overwritten by the next, by a count rather than
// a branch.
func orientedRows2(pts []float64, rows []int, values []float64, n int, maximize []bool, origin [2]float64) ([]float64, []int) {
	s0, s1 := signs2(maximize)
	kept := 0
	for i := range n {
		x, y := s0*values[2*i], s1*values[2*i+1] // exact negations
		pts[2*kept], pts[2*kept+1] = x, y
		rows[kept] = i
		kept += nd.OneIf(x > origin[0]) & nd.OneIf(y > origin[1]) // NaN fails
	}
	return pts[:2*kept], rows[:kept]
}

// signs2 returns the factors that orient two columns (see orientedRows):
// 1 for a maximized column, -1 for a minimized one, whose products are
// exact negations.
func signs2(maximize []bool) (s0, s1 float64) {
	s0, s1 = 1, 1
	if !maximize[0] {
		s0 = -1
	}
	if !maximize[1] {
		s1 = -1
	}
	return s0, s1
}

// contributions2 returns the exclusive area of each row of a two-column
// matrix in oriented coordinates (see orientedRows), every row above origin
// in both columns, +Inf allowed: the static case of contributions3.
//
// Removing a row uncovers the rows only it dominated, so a row's exclusive
// area is the rectangle between its neighbours on the staircase (the
// non-dominated rows) minus a second staircase, the non-dominated rows among
// the rest. Both staircases come from one pass over the rows by decreasing
// x, and each front row's rectangle meets a contiguous run of the back, so
// after the sort it is O(n). Every side of every rectangle is the
// difference of two coordinates, one rounding, so a share is within a few
// ulps of the exact one.
func contributions2(pts []float64, origin [2]float64) []float64 {
	m := len(pts) / 2
	out := make([]float64, m)
	contributions2Into(pts, origin, out, nil, make([]nd.Rec, m), nil, nil, nil)
	return out
}

// contrib2StackRows is the most rows of two columns whose contributions
// are measured with scratch on the stack (see contributions2Small): zeroing
// that scratch is part of every such call, so it is kept to what the fronts
// of a few rows that most calls measure need.
const contrib2StackRows = 16

// contrib2OnStack reports whether contributions2Small measures n rows with
// its scratch on the stack, as many as that scratch holds.
func contrib2OnStack(n int) bool { return n <= contrib2StackRows }

// contrib2SmallMax is the most rows contributions2Small takes: above it the
// general path's allocations are a small share of the call, and a pooled
// scratch would keep that much memory alive. Tests set it to 0 to send
// every call the general way.
var contrib2SmallMax = 1 << 13

// contributions2Small is Contributions for n ≤ contrib2SmallMax rows of two
// columns, into out (zero, n long), with no allocation: its scratch lives on
// the stack up to contrib2StackRows rows and in a pool above. On a front of
// a few rows the general path's allocations cost several times the sweep,
// and on a thousand rows a tenth of it. It reports false when a share comes
// out +Inf, which the general path may rescale.
func contributions2Small(values []float64, n int, maximize []bool, ref []float64, out []float64) bool {
	var origin [2]float64
	for j, up := range maximize[:2] {
		origin[j] = ref[j]
		if !up {
			origin[j] = -ref[j]
		}
	}
	if contrib2OnStack(n) {
		if contributions2Stairs(values, n, maximize, origin, out) {
			return !slices.ContainsFunc(out, isPosInf)
		}
		var (
			pts         [2 * contrib2StackRows]float64
			rows        [contrib2StackRows]int
			recs        [contrib2StackRows]nd.Rec
			front, back [contrib2StackRows]int
		)
		p, kept := orientedRows2(pts[:], rows[:], values, n, maximize, origin)
		contributions2Into(p, origin, out, kept, recs[:len(kept)], nil, front[:0], back[:0])
	} else {
		sc := contrib2Pool.Get().(*contrib2Scratch)
		defer contrib2Pool.Put(sc)
		ints := nd.Grow(&sc.ints, 3*n)
		recs := nd.Grow(&sc.recs, 2*n)
		p, kept := orientedRows2(nd.Grow(&sc.pts, 2*n), ints[:n], values, n, maximize, origin)
		m := len(kept)
		contributions2Into(p, origin, out, kept, recs[:m], recs[m:2*m], ints[n:n], ints[2*n:2*n])
	}
	return !slices.ContainsFunc(out, isPosInf)
}

// contributions2Stairs is contributions2Small for a staircase of at most
// contrib2StackRows rows: when the rows inside the box (oriented, above
// origin) have distinct x and, by decreasing x, strictly increasing y, no
// row hides another, and each share is the rectangle between its two
// neighbours, written to out as contributions2Into writes it (the same
// subtractions, bit for bit). It sorts by insertion as it reads and
// reports false, out untouched, when the rows are not such a staircase:
// the fronts that most calls measure then cost one pass, with no sort
// records and no second staircase.
func contributions2Stairs(values []float64, n int, maximize []bool, origin [2]float64, out []float64) bool {
	type step struct {
		x, y float64
		row  int
	}
	var s [contrib2StackRows]step
	s0, s1 := signs2(maximize)
	m := 0
	for i := range n {
		x, y := s0*values[2*i], s1*values[2*i+1] // exact negations
		if !(x > origin[0] && y > origin[1]) {
			continue // NaN too: its share stays 0
		}
		// Insert by decreasing x; a tie in x is no staircase.
		k := m
		for k > 0 && s[k-1].x < x {
			s[k] = s[k-1]
			k--
		}
		if k > 0 && s[k-1].x == x {
			return false
		}
		s[k] = step{x, y, i}
		m++
	}
	for k := 1; k < m; k++ {
		if !(s[k].y > s[k-1].y) {
			return false // s[k-1] dominates s[k], or they tie in y
		}
	}
	for k := range m {
		xl, ys := origin[0], origin[1]
		if k+1 < m {
			xl = s[k+1].x
		}
		if k > 0 {
			ys = s[k-1].y
		}
		out[s[k].row] = rect(s[k].x-xl, s[k].y-ys)
	}
	return true
}

// contrib2Scratch is the pooled memory of contributions2Small above
// contrib2StackRows rows.
type contrib2Scratch struct {
	pts  []float64
	ints []int
	recs []nd.Rec
}

var contrib2Pool = sync.Pool{New: func() any { return new(contrib2Scratch) }}

// contributions2Into is contributions2 writing the share of row i of pts
// to out[at[i]] (to out[i] when at is nil; out is zero), with a (as long
// as the rows) for the sort records, buf as the sort's scratch (see
// nd.SortStable), and front and back as room for the two staircases (rows,
// by decreasing x), which it appends to.
func contributions2Into(pts []float64, origin [2]float64, out []float64, at []int, a, buf []nd.Rec, front, back []int) {
	m := len(a)
	for i := range a {
		a[i] = nd.Rec{Key: nd.FastKey(pts[2*i], math.MaxUint64), Aux: uint64(i)} // x descending
	}
	a = nd.SortStable(a, buf)
	top1, top2 := origin[1], origin[1]
	for lo := 0; lo < m; {
		hi := nd.KeyRunEnd(a, lo)
		// Among rows sharing x only the highest can reach a staircase; its
		// equals and the rest fall to the back staircase. A run holds at
		// least one row, and second is -1 while it holds only one.
		best, second := int(a[lo].Aux), -1
		for _, e := range a[lo+1 : hi] {
			i := int(e.Aux)
			if pts[2*i+1] > pts[2*best+1] {
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
		lo = hi
	}
	slices.Reverse(front)
	slices.Reverse(back)
	b := 0
	for k, f := range front {
		xl, ys := origin[0], origin[1]
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
		if at != nil {
			f = at[f]
		}
		out[f] = area + rect(xf-from, yf-ys)
	}
}

// contributions3 returns the exclusive volume of each row of a
// three-column matrix in oriented coordinates (see orientedRows), every row
// above origin, +Inf allowed. It follows M. T. M. Emmerich and C. M.
// Fonseca, "Computing hypervolume contributions in low dimensions:
// asymptotically optimal algorithm and complexity results", EMO 2011, which
// covers mutually non-dominated rows only, extended to rows that others
// dominate by the second staircase below.
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
// rows it drops plus O(1) others, so the whole sweep is O(n log n) but for
// the areas measured again (see take).
func contributions3(pts []float64, origin [3]float64) []float64 {
	m := len(pts) / 3
	out := make([]float64, m)
	if m == 0 {
		return out
	}
	x, y, owner, byZ := sweepOrder(pts)
	ox, oy, oz := origin[0], origin[1], origin[2]
	front := staircase{set: newRankSet(m), x: x, y: y}
	back := staircase{set: newRankSet(m), x: x, y: y}
	// Per rank, side by side so one step touches one cache line per rank:
	// the exclusive area of a front rank, the height at which it took that
	// value, and the volume integrated so far.
	type tally struct{ area, since, vol float64 }
	ts := make([]tally, m)

	// The rectangle of front rank r lies right of its predecessor l on the
	// front and above its successor s; leftOf and below give its left side
	// and bottom from l and s (-1 for none). The sweep passes neighbours it
	// already knows instead of asking the rank set again, which is most of
	// the cost of a step.
	leftOf := func(l int) float64 {
		if l >= 0 {
			return x[l]
		}
		return ox
	}
	below := func(s int) float64 {
		if s != -1 {
			return y[s]
		}
		return oy
	}
	// settle integrates front rank r's exclusive area up to height z.
	settle := func(r int, z float64) {
		t := &ts[r]
		if t.area > 0 && t.since > z { // +Inf heights meet only here
			t.vol += t.area * (t.since - z)
		}
		t.since = z
	}
	// exclusive measures front rank r's area from scratch, given its
	// predecessor l on the front, its left side xl and its bottom ys. For a
	// new front rank the back rows in its rectangle are those it has just
	// pushed off the front, so the walk is paid for by their entering the
	// back.
	exclusive := func(r, l int, xl, ys float64) float64 {
		xr, yr := x[r], y[r]
		a, from := 0.0, xl
		q := back.set.next(l)
		for ; q >= 0 && x[q] <= xr && y[q] > ys; q = back.set.next(q) {
			a += rect(x[q]-from, yr-max(y[q], ys))
			from = max(from, x[q])
		}
		return a + rect(xr-from, yr-ys)
	}
	// take removes lost from front rank r's area, whose rectangle
	// exclusive would measure from l, xl and ys. Inf−Inf says nothing, and
	// a difference that cancels more than half the area would carry the
	// rounding of the larger one into the smaller, so then the area is
	// measured again instead: it at least halves each time, so that happens
	// O(log) times per rank on any data with a bounded ratio of areas.
	take := func(r int, lost float64, l int, xl, ys float64) {
		t := &ts[r]
		if math.IsInf(t.area, 1) || math.IsInf(lost, 1) || 2*lost > t.area {
			t.area = exclusive(r, l, xl, ys)
			return
		}
		t.area = max(t.area-lost, 0)
	}
	// raiseBottom returns the uncovered area of front rank r's rectangle
	// between heights lo and hi, the strip it loses when its bottom rises
	// from lo to hi, dropping the back rows that fall below hi; xl is its
	// left side.
	raiseBottom := func(r int, xl, lo, hi float64) float64 {
		// The last back row at or left of x[r]; ranks order ties in x
		// arbitrarily, and the back holds at most one row with a given x.
		q := back.set.next(r)
		if q == -1 || x[q] > x[r] {
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
	// lo, and ys is the rectangle's bottom.
	moveLeft := func(r, from int, ys, lo, hi float64) float64 {
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
		if q != -1 {
			h = max(h, y[q])
		}
		return lost + rect(hi-left, yr-h)
	}
	var removed, dropped []int
	for i := m - 1; i >= 0; i-- {
		z, r := nd.KeyValue(byZ[i].Key), int(byZ[i].Aux)
		// r's neighbours on the front; front.cover(r) inlined so that the
		// lookups serve the insertion below too.
		p, n := front.set.prev(r), front.set.next(r)
		host, hl := n, p
		if p >= 0 && x[p] >= x[r] {
			host, hl = p, -2 // a tie in x; -2: not yet known
		}
		if host >= 0 && y[host] >= y[r] {
			if back.covers(r) {
				continue
			}
			if hl == -2 {
				hl = front.set.prev(host)
			}
			xl, ys := leftOf(hl), below(front.set.next(host))
			if y[r] <= ys {
				continue // under two front rows: inside no rectangle
			}
			var gain float64
			gain, dropped = back.insert(r, xl, ys, dropped[:0])
			settle(host, z)
			if x[r] == x[host] && y[r] == y[host] {
				ts[host].area = 0 // exactly, whatever the rounding of gain
			} else {
				take(host, gain, hl, xl, ys)
			}
			continue
		}
		// front.insert without its gain, which the sweep does not use, and
		// returning r's new neighbours l and s.
		removed = removed[:0]
		s := n
		if s != -1 && x[s] <= x[r] { // a tie in x that r dominates
			front.set.remove(s)
			removed = append(removed, s)
			s = front.set.next(s)
		}
		l := p
		for ; l >= 0 && y[l] <= y[r]; l = front.set.prev(l) {
			front.set.remove(l)
			removed = append(removed, l)
		}
		front.set.add(r)
		// l's old successor and s's old predecessor: r's old neighbours n
		// and p, unless r pushed them off, the tie n making way for s and
		// the last row pushed off on the left (the one furthest left) for l.
		lOldNext, sOldPrev := n, p
		if s != n {
			sOldPrev = n
		}
		if l != p {
			lOldNext = removed[len(removed)-1]
		}
		if l >= 0 {
			ll := front.set.prev(l)
			xl := leftOf(ll)
			settle(l, z)
			take(l, raiseBottom(l, xl, below(lOldNext), y[r]), ll, xl, y[r])
		}
		if s != -1 {
			ys := below(front.set.next(s))
			settle(s, z)
			take(s, moveLeft(s, sOldPrev, ys, leftOf(sOldPrev), x[r]), r, x[r], ys)
		}
		for _, q := range removed {
			settle(q, z)
			ts[q].area = 0
			if !back.covers(q) {
				_, dropped = back.insert(q, ox, oy, dropped[:0])
			}
		}
		ts[r].area, ts[r].since = exclusive(r, l, leftOf(l), below(s)), z
	}
	for r := front.set.next(-1); r >= 0; r = front.set.next(r) {
		settle(r, oz)
	}
	for r, t := range ts {
		out[owner[r]] = t.vol
	}
	return out
}

// contributionsMany returns the exclusive volume of each row of a matrix
// with dims ≥ 4 columns in oriented coordinates (see orientedRows), every
// row above origin in every column.
//
// Each row's share is WFG's exclusive hypervolume: its own box minus the
// hypervolume of the other rows limited to that box. When that difference
// cancels all but a few digits of the box, the share is measured again by
// uncovered, whose every term is positive.
func contributionsMany(pts, origin []float64, dims int) []float64 {
	for _, e := range pts {
		if math.IsInf(e, 1) {
			ext := slices.Clone(pts)
			for i := range ext {
				ext[i] -= origin[i%dims]
			}
			return contributionsInfinite(ext, dims)
		}
	}
	m := len(pts) / dims
	out := make([]float64, m)
	all := indices(m)
	var l limiter
	var ext []float64
	for i := range m {
		p := pts[i*dims : (i+1)*dims]
		limited, covered := l.limit(p, pts, dims, all, i)
		if covered { // a duplicate or a dominating row: nothing is exclusive
			continue
		}
		box := 1.0
		for j, v := range p {
			box *= v - origin[j]
		}
		if math.IsInf(box, 1) {
			// An extent or their product overflowed (true infinities took
			// the branch above); the limited rows, clipped to p, may then
			// hold +Inf extents, which the finite kernels must never see
			// (hv4d never returns on one). rescaleShares measures the
			// share again on scaled coordinates.
			out[i] = box
			continue
		}
		ext = append(ext[:0], limited...)
		for k := range ext {
			ext[k] -= origin[k%dims]
		}
		share := box - hvFinite(ext, dims)
		if lostToCancellation(share, box) {
			share = uncovered(p, origin, limited)
		}
		out[i] = max(saturate(share), 0)
	}
	return out
}

// lostToCancellation reports whether a share found as box − (the volume
// the other rows cover in it) is under 2^-12 of box, where the
// subtraction has cancelled the leading 12 bits and uncovered measures it
// again, term by term.
func lostToCancellation(share, box float64) bool { return share < box*0x1p-12 }

// uncovered returns the volume of the box from origin to p that no box
// from origin to a row of lim (rows as wide as p, each ≤ p in every
// column) covers, as a sum of positive terms, each a product of
// differences of two coordinates: within a few ulps per term, however
// small the result, while no product leaves the normal floats
// (uncoveredWide is the same sum where one may).
func uncovered(p, origin, lim []float64) float64 {
	if len(p) == 1 {
		return rect(p[0]-highest(origin[0], lim), 1)
	}
	vol := 0.0
	slabs(p, origin, lim, func(top, h float64, proj []float64) bool {
		a := uncovered(p[:len(p)-1], origin[:len(p)-1], proj)
		vol += (top - h) * a
		return a == 0
	})
	return vol
}

// highest is the largest of v and the values of vs.
func highest(v float64, vs []float64) float64 {
	for _, w := range vs {
		v = max(v, w)
	}
	return v
}

// slabs slices the box from origin to p along its last column for
// uncovered and uncoveredWide: between two consecutive heights of the rows
// of lim, the rows above are the ones that cover, and it calls slab with
// the slab's top and bottom and their projections, whose uncovered area
// times the height is the slab's share, until slab reports that the
// projections cover everything. With k rows the sum costs
// O(k^(d−1) log k) in the worst case; the limited sets it sees are small.
func slabs(p, origin, lim []float64, slab func(top, h float64, proj []float64) (covered bool)) {
	d := len(p)
	k := len(lim) / d
	order := indices(k)
	c := d - 1
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(lim[b*d+c], lim[a*d+c]) })
	top := p[c]
	proj := make([]float64, 0, k*c)
	for s := 0; s <= k; s++ {
		h := origin[c]
		if s < k {
			h = max(h, lim[order[s]*d+c])
		}
		if h < top {
			if slab(top, h, proj) {
				return
			}
			top = h
		}
		if s < k {
			proj = append(proj, lim[order[s]*d:order[s]*d+c]...)
		}
	}
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
	zero := make([]float64, dims)
	out := contributionsMany(finite, zero, dims)
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
		for k, share := range contributionsMany(slab, zero, dims) {
			if share > 0 {
				out[rows[k]] = math.Inf(1)
			}
		}
	}
	return out
}
