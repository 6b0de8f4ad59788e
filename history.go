package spica

import (
	"math"
	"slices"
)

// HypervolumeHistory returns, for each i, the [Hypervolume] of rows 0..i of
// an n×dims row-major matrix against the reference point ref: the
// convergence curve of a search whose rows are in evaluation order, as
// Optuna's plot_hypervolume_history draws it. The curve never decreases; each
// entry equals a separate Hypervolume call on that prefix up to rounding
// (within 1e-12 relative in the tests), and once a row with an infinite
// extent inside the box arrives every later entry is +Inf.
//
// It is incremental: each row adds the volume it covers beyond the rows
// before it. One column costs O(n); two cost O(n log n) in all (a staircase
// over the rows' ranks in the first column, kept in a 64-ary bit tree).
// With three columns a row walks the current front, f rows kept in order of
// the third column, integrating the part of its box they leave uncovered:
// O(f log f) per row, so about O(n log n) in all when most rows are
// dominated by earlier ones (the usual course of a search) and O(n² log n)
// when every row joins the front. An O(n log n) bound for three columns
// would, integrated over a fourth column, give an O(n log n)
// four-dimensional hypervolume, better than any known (O(n²), Guerreiro and
// Fonseca, CCCG 2012; O(n^(4/3) polylog n), Chan, FOCS 2013). With four or
// more columns a row entering the front costs WFG's exclusive volume against
// it (see [Hypervolume]).
//
// Errors are those of [Hypervolume]. An empty matrix gives an empty,
// non-nil slice. values, maximize and ref are not modified.
func HypervolumeHistory(values []float64, dims int, maximize []bool, ref []float64) ([]float64, error) {
	n, err := checkHypervolume(values, dims, maximize, ref)
	if err != nil {
		return nil, err
	}
	if dims == 2 {
		return history2(values, n, maximize, ref), nil
	}
	out := make([]float64, n)
	pts, rows := extents(values, n, dims, maximize, ref)
	// A row with an infinite extent makes every later volume +Inf, so only
	// the rows before the first one are measured.
	m := len(rows)
	for k := range rows {
		if hasInf(pts[k*dims : (k+1)*dims]) {
			m = k
			break
		}
	}
	var gain []float64
	switch dims {
	case 1:
		gain = historyGains1(pts[:m])
	case 3:
		gain = historyGains3(pts[:3*m])
	default:
		gain = historyGainsMany(pts[:m*dims], dims)
	}
	total, k := 0.0, 0
	for i := range out {
		if k < len(rows) && rows[k] == i {
			if k < m {
				total += gain[k]
			} else {
				total = math.Inf(1)
			}
			k++
		}
		out[i] = total
	}
	return out, nil
}

func hasInf(p []float64) bool {
	for _, e := range p {
		if math.IsInf(e, 1) {
			return true
		}
	}
	return false
}

// historyGains1 is the gain of each extent over the largest before it.
func historyGains1(pts []float64) []float64 {
	gain := make([]float64, len(pts))
	top := 0.0
	for k, e := range pts {
		if e > top {
			gain[k], top = e-top, e
		}
	}
	return gain
}

// history2 is HypervolumeHistory for two columns. Each row adds the area
// its box adds to the union of the boxes of the rows before it. The rows
// are ranked by x once, offline, so the staircase of the rows seen so far
// lives in a bit tree over the ranks: a covered row costs one neighbour
// lookup, and an insertion walks only the steps it removes, each removed
// once, so the whole pass is O(n log₆₄ n) after the radix sort.
func history2(values []float64, n int, maximize []bool, ref []float64) []float64 {
	out := make([]float64, n)
	// A row covered by an earlier one adds nothing. The earlier row with
	// the largest box, the knee of the front so far, covers most rows of
	// search-like data, so they are dropped before the sort.
	type step struct {
		x, y float64
		row  int
	}
	live := make([]step, 0, n)
	infAt := n // the first row with an infinite extent in the box
	kx, ky, kneeArea := 0.0, 0.0, 0.0
	for i := range n {
		x, y := ref[0]-values[2*i], ref[1]-values[2*i+1]
		if maximize[0] {
			x = values[2*i] - ref[0]
		}
		if maximize[1] {
			y = values[2*i+1] - ref[1]
		}
		if !(x > 0 && y > 0) || kx >= x && ky >= y {
			continue
		}
		if math.IsInf(x, 1) || math.IsInf(y, 1) {
			infAt = i
			break
		}
		live = append(live, step{x, y, i})
		if a := x * y; a > kneeArea {
			kx, ky, kneeArea = x, y, a
		}
	}
	a := make([]ndRec, len(live))
	for k, s := range live {
		a[k] = ndRec{math.Float64bits(s.x), uint64(k)}
	}
	a = sortStable(a, nil)
	// By rank, ties in x in order of arrival, so an earlier equal x is
	// the rank just below.
	rank := make([]int, len(live))
	pt := make([]step, len(live))
	for r, e := range a {
		rank[e.aux] = r
		pt[r] = live[e.aux]
	}
	set := newRankSet(len(live))
	for k, s := range live {
		r := rank[k]
		p, q := set.prev(r), set.next(r)
		if p >= 0 && pt[p].x >= s.x && pt[p].y >= s.y || q >= 0 && pt[q].y >= s.y {
			continue // covered
		}
		// Right of the members left of s the union is as high as the
		// first member right of it; s adds the strips above that height,
		// walking left over the members it covers until one is higher.
		h, right, gain := 0.0, s.x, 0.0
		if q >= 0 {
			h = pt[q].y
		}
		for ; p >= 0; p = set.prev(p) {
			gain += (right - pt[p].x) * (s.y - h)
			if pt[p].y > s.y {
				break
			}
			set.remove(p)
			h, right = pt[p].y, pt[p].x
		}
		if p < 0 {
			gain += right * (s.y - h)
		}
		set.add(r)
		out[s.row] = gain
	}
	total := 0.0
	for i := range out {
		if i >= infAt {
			out[i] = math.Inf(1)
			continue
		}
		total += out[i]
		out[i] = total
	}
	return out
}

// historyGainsMany returns, for each row of a finite extent matrix with
// dims ≥ 4 columns, the volume its box adds to the union of the boxes of the
// rows before it: its box minus the hypervolume of the current front clipped
// to it (WFG's exclusive volume). The front is kept as a list of rows; the
// row that last covered a newcomer is swapped to its head, since on data
// where most rows are dominated a few strong rows cover most newcomers.
func historyGainsMany(pts []float64, dims int) []float64 {
	m := len(pts) / dims
	gain := make([]float64, m)
	var front []int
	var l limiter
	for i := range m {
		p := pts[i*dims : (i+1)*dims]
		if j := coveringRow(pts, dims, front, p); j >= 0 {
			front[0], front[j] = front[j], front[0]
			continue
		}
		limited, _ := l.limit(p, pts, dims, front, -1)
		g := product(p)
		if len(limited) > 0 {
			g -= hvFinite(limited, dims)
		}
		gain[i] = max(saturate(g), 0)
		kept := front[:0]
		for _, q := range front {
			if !coveredBy(p, pts[q*dims:(q+1)*dims]) {
				kept = append(kept, q)
			}
		}
		front = append(kept, i)
	}
	return gain
}

// coveringRow returns the position in front of a row ≥ p in every column,
// or -1.
func coveringRow(pts []float64, dims int, front []int, p []float64) int {
	for k, q := range front {
		if coveredBy(pts[q*dims:(q+1)*dims], p) {
			return k
		}
	}
	return -1
}

// historyGains3 returns, for each row of a finite three-column extent
// matrix, the volume its box adds to the union of the boxes of the rows
// before it.
//
// The front of the rows seen so far is kept sorted by z, highest first. A
// newcomer p's share is the integral over z in [0, z_p] of the part of its
// rectangle [0,x_p]×[0,y_p] that the front rows reaching z do not cover:
// walking the front downwards, the rows at or above z_p cover a staircase
// from the start (one covering the whole rectangle covers p), and each row
// below it extends the staircase, clipped to the rectangle, from its own z
// down. The walk stops when the rectangle is covered. So a row costs O(f)
// for a front of f rows, plus the clipped staircase, which is kept in a
// sorted slice and holds only p's neighbours in practice.
func historyGains3(pts []float64) []float64 {
	m := len(pts) / 3
	gain := make([]float64, m)
	var front [][3]float64 // by z, highest first
	var st clipStairs
	// On search-like data most rows are dominated, and a few strong rows
	// cover most of them: the last row found covering one is tried first.
	var last [3]float64
	covers := func(q, p [3]float64) bool { return q[0] >= p[0] && q[1] >= p[1] && q[2] >= p[2] }
	for i := range m {
		p := [3]float64{pts[3*i], pts[3*i+1], pts[3*i+2]}
		if covers(last, p) {
			continue
		}
		st.reset(p[0], p[1])
		k := 0
		for ; k < len(front) && front[k][2] >= p[2]; k++ {
			if st.add(front[k][0], front[k][1]) {
				break
			}
		}
		if st.full { // covered by one row at or above z_p
			last = front[k]
			continue
		}
		at := k // p joins the front here
		vol, z := 0.0, p[2]
		for ; k < len(front) && !st.full; k++ {
			q := front[k]
			vol += st.free * (z - q[2])
			z = q[2]
			st.add(q[0], q[1])
		}
		if !st.full {
			vol += st.free * z
		}
		gain[i] = saturate(vol)
		// The rows p dominates leave the front; they lie at or below z_p
		// (one level with p may stay, which costs time, not accuracy).
		kept := at
		for _, q := range front[at:] {
			if !(q[0] <= p[0] && q[1] <= p[1] && q[2] < p[2]) {
				front[kept] = q
				kept++
			}
		}
		front = slices.Insert(front[:kept], at, p)
	}
	return gain
}

// clipStairs is the union of boxes [0,x]×[0,y] clipped to a rectangle
// [0,w]×[0,h], as its staircase (x ascending, y descending), with the area
// of the rectangle it leaves free.
type clipStairs struct {
	w, h, free float64
	full       bool
	x, y       []float64
}

func (s *clipStairs) reset(w, h float64) {
	s.w, s.h, s.free, s.full = w, h, w*h, false
	s.x, s.y = s.x[:0], s.y[:0]
}

// add puts the box [0,a]×[0,b] into the union, clipped to the rectangle,
// and reports whether the rectangle is now covered.
func (s *clipStairs) add(a, b float64) bool {
	a, b = min(a, s.w), min(b, s.h)
	if a == s.w && b == s.h {
		s.full, s.free = true, 0
		return true
	}
	// Most clipped boxes reach an edge of the rectangle, where the first
	// or the last step decides them at once.
	if n := len(s.x); n > 0 && (b == s.h && s.y[0] == s.h && a <= s.x[0] || a == s.w && s.x[n-1] == s.w && b <= s.y[n-1]) {
		return false
	}
	// The first step at or right of a is the highest there; if it reaches
	// b the box adds nothing.
	i, _ := slices.BinarySearch(s.x, a)
	hRight := 0.0
	if i < len(s.x) {
		if s.y[i] >= b {
			return false
		}
		hRight = s.y[i]
	}
	// Left of a the union's height is the next step's y; the box adds
	// b minus that height until a step reaches b, and the steps it passes
	// are under the box.
	j := i - 1
	for j >= 0 && s.y[j] < b {
		j--
	}
	gain := 0.0
	right, h := a, hRight
	for q := i - 1; q > j; q-- {
		gain += (right - s.x[q]) * (b - h)
		right, h = s.x[q], s.y[q]
	}
	xl := 0.0
	if j >= 0 {
		xl = s.x[j]
	}
	gain += (right - xl) * (b - h)
	// Replace the passed steps, and a step at exactly a, by (a, b).
	end := i
	if i < len(s.x) && s.x[i] == a {
		end = i + 1
	}
	s.x = slices.Replace(s.x, j+1, end, a)
	s.y = slices.Replace(s.y, j+1, end, b)
	s.free = max(s.free-gain, 0)
	return false
}
