package spica

import (
	"math"
	"slices"
)

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
