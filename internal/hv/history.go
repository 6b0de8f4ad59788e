package hv

import (
	"math"
	"slices"

	"github.com/spica-search/spica/internal/nd"
)

// History is the hypervolume of rows 0..i of a valid n×dims matrix for each
// i, by the rules of the root's HypervolumeHistory.
func History(values []float64, n, dims int, maximize []bool, ref []float64) []float64 {
	var out []float64
	if dims == 2 {
		out = history2(values, n, maximize, ref)
	} else {
		out = historyPlain(values, n, dims, maximize, ref)
	}
	// With no rows the remeasuring has nothing to do, so n = 0 needs no
	// test of its own.
	if dims >= 3 && underflowRisk(leastExtent(values, dims, ref), dims) {
		remeasureUnderflowedPrefixes(out, values, n, dims, maximize, ref)
	}
	if n > 0 && math.IsInf(out[n-1], 1) {
		// An infinite value, or an overflow that Hypervolume survives by
		// rescaling: from the first +Inf on, measure again the way it does.
		again := historyRescaled(values, n, dims, maximize, ref)
		for i := range out {
			if math.IsInf(out[i], 1) {
				out[i] = again[i]
				if i > 0 {
					out[i] = max(out[i], out[i-1])
				}
			}
		}
	}
	return out
}

// remeasureUnderflowedPrefixes measures again, each row on its own scale,
// the finite volumes of out, the prefixes of the n×dims matrix values, that
// an underflow may have robbed of digits (see underflowRisk). Volumes grow
// with the prefix, so those are a run from the first row; the +Inf ones
// are History's to settle.
func remeasureUnderflowedPrefixes(out, values []float64, n, dims int, maximize []bool, ref []float64) {
	origin := make([]float64, dims)
	pts, rows := orientedRows(values, n, dims, maximize, ref, origin)
	finite := pts[:finiteRows(pts, dims)*dims]
	low, high := magnitudeSpan(finite, origin, dims)
	end := 0 // the prefixes to measure again: out[:end]
	for end < n && !math.IsInf(out[end], 1) && underflowed(out[end], len(rows), low, high) {
		end++
	}
	if end == 0 {
		return
	}
	copy(out, scaledPrefixVolumes(values, end, dims, maximize, ref))
}

// historyPlain is HypervolumeHistory for 1 or 3+ columns on the extents as
// they come.
func historyPlain(values []float64, n, dims int, maximize []bool, ref []float64) []float64 {
	out := make([]float64, n)
	pts, rows := extents(values, n, dims, maximize, ref)
	// A row with an infinite extent makes every later volume +Inf, so only
	// the rows before the first one are measured.
	m := finiteRows(pts, dims)
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
	return out
}

// historyRescaled is HypervolumeHistory once the plain computation reached
// +Inf, the way [Volume] recovers (see hvRescaled): an extent that
// overflowed between two finite numbers is taken as twice the difference of
// the halves, each column is scaled by the power of two that brings its
// largest extent into [1/2, 1), exactly, and the curve of the scaled rows is
// scaled back. A row inside the box with an infinite value on its good side
// still makes the rest +Inf, and so does a volume beyond MaxFloat64; a
// prefix whose scaled volume is under rows·2^-960, too small to trust, is
// measured by scaledPrefixVolumes, each row on its own scale.
func historyRescaled(values []float64, n, dims int, maximize []bool, ref []float64) []float64 {
	pts := make([]float64, 0, len(values))
	twice := make([]bool, 0, len(values))
	top := make([]int, dims)
	for j := range top {
		top[j] = math.MinInt
	}
	var rows []int
	infAt := n
rows:
	for i := range n {
		start := len(pts)
		for j, v := range values[i*dims : (i+1)*dims] {
			e, x := halvedExtent(v, ref[j], maximize[j])
			if !(e > 0) {
				pts, twice = pts[:start], twice[:start]
				continue rows
			}
			pts, twice = append(pts, e), append(twice, x)
		}
		if hasInf(pts[start:]) {
			infAt = i
			pts, twice = pts[:start], twice[:start]
			break
		}
		rows = append(rows, i)
		for j, e := range pts[start:] {
			top[j] = max(top[j], extentExponent(e, twice[start+j]))
		}
	}
	// With no rows the scale is a sum of MinInts, wrapped, but no volume
	// is scaled back by it.
	scale := scaleExtents(pts, twice, top)
	m := len(rows)
	var curve []float64 // the scaled volume after each of the rows
	switch dims {
	case 2:
		curve = history2(pts, m, []bool{true, true}, []float64{0, 0})
	default:
		up, zero := make([]bool, dims), make([]float64, dims)
		for j := range up {
			up[j] = true
		}
		curve = historyPlain(pts, m, dims, up, zero)
	}
	out := make([]float64, n)
	var each []float64 // the prefixes measured row by row, once needed
	prev, k := 0.0, 0
	for i := range out {
		if i >= infAt {
			out[i] = math.Inf(1)
			continue
		}
		if k < m && rows[k] == i {
			v := curve[k]
			k++
			if rescaledUnderflowed(v, k) {
				// Scaled for rows still to come, the prefix lost its
				// digits: measure the rows each on its own scale (only
				// data spanning more than 2^1000 in a column gets here).
				if each == nil {
					each = scaledPrefixVolumes(values, infAt, dims, maximize, ref)
				}
				v = each[i]
			} else {
				v = math.Ldexp(v, scale)
			}
			prev = max(prev, v)
		}
		out[i] = prev
	}
	return out
}

// finiteRows returns how many rows of pts (stride dims) come before the
// first with a +Inf value: all of them if none has one.
func finiteRows(pts []float64, dims int) int {
	for i, e := range pts {
		if math.IsInf(e, 1) {
			return i / dims
		}
	}
	return len(pts) / dims
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
// its box adds to the union of the boxes of the rows before it: the rows
// history2Live keeps are measured by history2Gains, O(n log₆₄ n) in all
// after the radix sort, and the gains summed.
func history2(values []float64, n int, maximize []bool, ref []float64) []float64 {
	out := make([]float64, n)
	live, infAt := history2Live(values, n, maximize, ref)
	history2Gains(live, out)
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

// step2 is a row of history2 by its extents.
type step2 struct {
	x, y float64
	row  int
}

// history2Live returns, in row order, the extents of the rows of the n×2
// matrix values inside the box before the first with an infinite extent,
// and that row, infAt (n if none). A row covered by an earlier one adds
// nothing; the earlier row with the largest box, the knee of the front so
// far (the first of equal boxes), covers most rows of search-like data, so
// the rows it covers, ties included, are left out before the sort.
func history2Live(values []float64, n int, maximize []bool, ref []float64) (live []step2, infAt int) {
	live = make([]step2, 0, n)
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
			return live, i
		}
		live = append(live, step2{x, y, i})
		if a := x * y; a > kneeArea {
			kx, ky, kneeArea = x, y, a
		}
	}
	return live, n
}

// history2Gains writes to out[s.row] the area each step s of live adds to
// the union of the boxes of the steps before it. The steps are ranked by x
// once, offline, so the staircase of the steps seen so far lives in a bit
// tree over the ranks: a covered step costs one neighbour lookup, and an
// insertion walks only the steps it removes, each removed once. It returns
// the steps by rank and the set of the ranks on the staircase after the
// last: the steps no other covers, the first of equal steps standing for
// all.
func history2Gains(live []step2, out []float64) (pt []step2, set rankSet) {
	a := make([]nd.Rec, len(live))
	for k, s := range live {
		a[k] = nd.Rec{Key: math.Float64bits(s.x), Aux: uint64(k)}
	}
	a = nd.SortStable(a, nil)
	// By rank, ties in x in order of arrival, so an earlier equal x is
	// the rank just below.
	rank := make([]int, len(live))
	pt = make([]step2, len(live))
	for r, e := range a {
		rank[e.Aux] = r
		pt[r] = live[e.Aux]
	}
	set = newRankSet(len(live))
	for k, s := range live {
		r := rank[k]
		// A neighbour is a rank, or -1 for none.
		p, q := set.prev(r), set.next(r)
		if p != -1 && pt[p].x >= s.x && pt[p].y >= s.y || q != -1 && pt[q].y >= s.y {
			continue // covered
		}
		// Right of the members left of s the union is as high as the
		// first member right of it; s adds the strips above that height,
		// walking left over the members it covers until one is higher.
		h, right, gain := 0.0, s.x, 0.0
		if q != -1 {
			h = pt[q].y
		}
		for ; p != -1; p = set.prev(p) {
			gain += (right - pt[p].x) * (s.y - h)
			if pt[p].y > s.y {
				break
			}
			set.remove(p)
			h, right = pt[p].y, pt[p].x
		}
		if p == -1 {
			gain += right * (s.y - h)
		}
		set.add(r)
		out[s.row] = gain
	}
	return pt, set
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
		// hvFinite of no rows is 0 in every kernel, so an empty limited
		// set needs no branch of its own.
		gain[i] = max(saturate(product(p)-hvFinite(limited, dims)), 0)
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
// A newcomer p's share is the integral over z in [0, z_p] of the part of its
// rectangle [0,x_p]×[0,y_p] that the earlier rows reaching z leave
// uncovered. Only the current front matters, and of it only the rows whose
// box clipped to p's is not inside another's clipped box: p's neighbours,
// few on any front. They are found in a k-d tree over all rows (all are
// known in advance) in which the rows on the front are marked active: a
// subtree is skipped when it holds no active row or when the clip of its
// bounding box lies inside a clip already found. The clips, walked by
// falling z, extend a staircase inside p's rectangle, and the share is the
// free area integrated between their heights. A row that some clip equals
// is covered and adds nothing; a row that enters the front deactivates the
// rows it dominates. Without the pruning a row would cost O(f) for a front
// of f rows; with it, about O(log n) plus its neighbours on fronts of
// search-like and of evenly spread data, though no better bound than O(f)
// holds in the worst case.
func historyGains3(pts []float64) []float64 {
	gain, _ := historyTree3(pts)
	return gain
}

// historyTree3 is historyGains3, returning also the tree as the last row
// left it: its active rows are the front of all rows.
func historyTree3(pts []float64) ([]float64, *kdTree) {
	m := len(pts) / 3
	gain := make([]float64, m)
	// On search-like data most rows are dominated, and a few strong rows
	// cover most of them: the knee so far (the earlier row with the
	// largest box) and the last row found covering one are tried first,
	// and rows they cover stay out of the tree.
	covered := make([]bool, m)
	var knee [3]float64
	kneeVol := 0.0
	for i := range m {
		p := [3]float64{pts[3*i], pts[3*i+1], pts[3*i+2]}
		if covers3(knee, p) {
			covered[i] = true
			continue
		}
		if v := p[0] * p[1] * p[2]; v > kneeVol {
			knee, kneeVol = p, v
		}
	}
	tree := newKDTree(pts, covered)
	var st clipStairs
	var last [3]float64
	var clips [][3]uint64
	for i := range m {
		if covered[i] {
			continue
		}
		p := [3]float64{pts[3*i], pts[3*i+1], pts[3*i+2]}
		if covers3(last, p) {
			continue
		}
		var by [3]uint64
		var isCovered bool
		clips, by, isCovered = tree.clips(bitsOf(p), clips[:0])
		if isCovered {
			last = [3]float64{math.Float64frombits(by[0]), math.Float64frombits(by[1]), math.Float64frombits(by[2])}
			continue
		}
		sortClips(clips)
		st.reset(p[0], p[1])
		vol, z := 0.0, p[2]
		for _, c := range clips {
			cz := math.Float64frombits(c[2])
			vol += st.free * (z - cz)
			z = cz
			if st.add(math.Float64frombits(c[0]), math.Float64frombits(c[1])) {
				break
			}
		}
		if !st.full {
			vol += st.free * z
		}
		gain[i] = saturate(vol)
		tree.deactivateFound()
		tree.activate(i)
	}
	return gain, tree
}

// covers3 reports whether q ≥ p in every column: the box of p lies in q's.
// It is the check by which the knee and the last covering row settle a row
// before the tree is asked.
func covers3(q, p [3]float64) bool {
	return q[0] >= p[0] && q[1] >= p[1] && q[2] >= p[2]
}

// clipStairs is the union of boxes [0,x]×[0,y] clipped to a rectangle
// [0,w]×[0,h], as its staircase (x strictly ascending, y strictly
// descending), with the area of the rectangle it leaves free.
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
	if s.endStepHides(a, b) {
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
	// b minus that height until a step rises above b, and the steps it
	// passes, those as high as b included, are under the box: the
	// staircase stays strictly descending.
	j := i - 1
	for j >= 0 && s.y[j] <= b {
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

// endStepHides reports whether the first or the last step alone holds the
// clipped box [0,a]×[0,b]. Most clipped boxes reach an edge of the
// rectangle, and so do those two steps, so this settles most of the boxes
// that add nothing before the search.
func (s *clipStairs) endStepHides(a, b float64) bool {
	n := len(s.x)
	return n > 0 && (a <= s.x[0] && b <= s.y[0] || a <= s.x[n-1] && b <= s.y[n-1])
}
