package hv

import (
	"math"
)

// The scaled measures here are the last resort of Volume, History and
// Contributions when the columns span more magnitudes than a float64 holds
// at once: one row reaches MaxFloat64 in a column and another is subnormal
// in the next, so that the usual recovery from an overflow (every column
// scaled by one power of two, see hvRescaled) leaves too few digits, or a
// partial product underflows before larger factors multiply it (see
// underflowRisk). Each row is measured on its own scale instead: every
// column scaled by the power of two that brings that row's extent into
// [1/2, 1), so its box and everything inside it is a number near 1 whatever
// the column's other rows hold, and the result is scaled back once, with
// one rounding.

// scaledExclusive returns the volume of the box from origin to p that no
// box from origin to a row of pts (stride width) listed in rows, other than
// skip, covers; p, origin and those rows are oriented coordinates (see
// orientedRows), finite, p above origin in every column. It is +Inf only
// when the volume exceeds MaxFloat64, and 0 below the smallest subnormal.
//
// It is WFG's exclusive volume, as in contributionsMany, on extents scaled
// column by column by the power of two that brings p's own into [1/2, 1):
// the box is near 1 and nothing inside it overflows. An extent that the
// scaling pushes into the subnormals is at most 2^-1074 off, nothing beside
// a box over 2^-width, unless the rows cover all but a sliver of it (under
// 2^-12 of it, see lostToCancellation); then uncoveredWide measures the
// sliver as a sum of positive terms on the coordinates themselves, in wide
// numbers, however small it is beside the box.
func scaledExclusive(l *limiter, p, origin, pts []float64, width int, rows []int, skip int) float64 {
	limited, covered := l.limit(p, pts, width, rows, skip)
	if covered {
		return 0
	}
	exp := make([]int, width)
	scale, box := 0, 1.0
	for j, v := range p {
		e := gap(v, origin[j])
		exp[j] = e.e
		scale += e.e
		box *= e.m
	}
	ext := make([]float64, 0, len(limited))
	for s := 0; s < len(limited); s += width {
		start := len(ext)
		for j, v := range limited[s : s+width] {
			e := gap(v, origin[j])
			if e.m == 0 {
				ext = ext[:start]
				break
			}
			ext = append(ext, math.Ldexp(e.m, e.e-exp[j]))
		}
	}
	excl := box - hvFinite(ext, width)
	if lostToCancellation(excl, box) {
		w := uncoveredWide(p, origin, limited)
		return math.Ldexp(w.m, w.e)
	}
	return math.Ldexp(excl, scale)
}

// remeasurer measures shares again by scaledExclusive, each row against
// all the others, with one limiter and one list of rows for a call.
type remeasurer struct {
	l   limiter
	all []int
}

// share returns the exclusive volume of row i of pts (oriented
// coordinates, stride len(origin), every row above origin, row i finite)
// among all the rows of pts.
func (r *remeasurer) share(pts, origin []float64, i int) float64 {
	width := len(origin)
	if r.all == nil {
		r.all = indices(len(pts) / width)
	}
	return scaledExclusive(&r.l, pts[i*width:(i+1)*width], origin, pts, width, r.all, i)
}

// scaledPrefixVolumes returns, for each i < n, the hypervolume of rows 0..i
// of a valid n×dims matrix with no row inside the box holding an infinite
// value: the sum of each row's scaledExclusive gain over the rows before
// it. It costs a limited set against every earlier row per row, O(n²·dims)
// before the kernels, which only data spanning most of a float64's
// magnitudes pays.
func scaledPrefixVolumes(values []float64, n, dims int, maximize []bool, ref []float64) []float64 {
	width := max(dims, 2)
	origin := make([]float64, width)
	pts, rows := orientedRows(values, n, dims, maximize, ref, origin)
	before := indices(len(rows)) // the kept rows, as rows of pts
	out := make([]float64, n)
	var l limiter
	total, k := 0.0, 0
	for i := range out {
		if k < len(rows) && rows[k] == i {
			p := pts[k*width : (k+1)*width]
			total += scaledExclusive(&l, p, origin, pts, width, before[:k], -1)
			k++
		}
		out[i] = total
	}
	return out
}

// Underflow is the mirror image of the overflow above: a partial product
// of gaps that falls below 2^-1022 loses digits, and unlike a term that
// stays small, it may then be multiplied by extents far above 1 (the
// extents 1e-300, 1e-300, 1e300 make a box of 1e-300 from a first product
// of 0). Two distinct floats a and b differ by at least 2^-54·min(|a|, |b|)
// (the spacing of the floats at the smaller), or by the other's magnitude
// if one is 0, so a gap between two values of column j, the reference
// included, is at least 2^(b_j−54) for b_j the binary exponent of the
// column's least non-zero magnitude, and a product of gaps, one per
// column, cannot fall below the normal floats while Σ_j min(b_j − 54, 0) ≥
// −1022: underflowRisk checks that from the least magnitude of all, and
// magnitudeSpan column by column. (Kernels on extents take the extents as
// their values, with a reference of 0.) Otherwise a result still has every
// digit when it is at least rows·2^(high−960), high the sum of the
// columns' largest binary exponents of an extent above 0: an underflow
// loses at most 2^-1074 of a term, which the factors after it multiply by
// at most 2^high. Below that, the scaled measures above are exact.

// underflowRisk reports whether dims columns whose least non-zero
// magnitude is least might form a product of gaps below the normal floats
// (see above). One or two columns never amplify one: a term is a gap or a
// product of two, so an underflow costs at most 2^-1074 of the result.
func underflowRisk(least float64, dims int) bool {
	if dims < 3 {
		return false
	}
	_, b := math.Frexp(least)
	return dims*(b-54) < -1022
}

// magnitudeKey orders floats by magnitude, 0 last: the least key of a set
// of values is that of its least non-zero magnitude, which magnitudeOf
// returns (NaN keys above every other).
func magnitudeKey(v float64) uint64 { return math.Float64bits(v)<<1 - 1 }

// magnitudeOf is the magnitude whose magnitudeKey is k.
func magnitudeOf(k uint64) float64 { return math.Float64frombits((k + 1) >> 1) }

// leastExtent returns the least positive extent of the values of an
// n×dims matrix from ref, whether or not its row lies inside the box
// (which only makes underflowRisk answer yes more often), or +Inf.
func leastExtent(values []float64, dims int, ref []float64) float64 {
	least := math.Inf(1)
	for i, v := range values {
		e := math.Abs(v - ref[i%dims])
		if e > 0 { // NaN fails
			least = min(least, e)
		}
	}
	return least
}

// magnitudeSpan returns low, Σ_j min(b_j − 54, 0), and high, Σ_j
// max(t_j, 0), for the rows of pts (oriented coordinates, stride width,
// every row above origin), b_j the binary exponent of the least non-zero
// magnitude of column j's values and origin[j], and t_j that of its
// largest extent. An infinite extent counts as contributionsInfinite
// measures it, as the largest finite one plus the larger of it and 1.
func magnitudeSpan(pts, origin []float64, width int) (low, high int) {
	for j := range width {
		bot, top, inf := magnitudeKey(origin[j]), 0.0, 0
		for i := j; i < len(pts); i += width {
			bot = min(bot, magnitudeKey(pts[i]))
			e := pts[i] - origin[j]
			if math.IsInf(e, 1) {
				inf = 1
				continue
			}
			top = max(top, e)
		}
		_, b := math.Frexp(magnitudeOf(bot))
		_, t := math.Frexp(top)
		low += min(b-54, 0)
		high += max(t+inf, inf)
	}
	return low, high
}

// underflowed reports whether a measure v of rows rows, with magnitudeSpan
// low and high, may have lost digits to an underflow.
func underflowed(v float64, rows, low, high int) bool {
	return low < -1022 && v < math.Ldexp(float64(rows), high-960)
}

// wide is a non-negative number m·2^e with m 0 or in [1/2, 1): a float64
// with an exponent no product or sum of uncoveredWide can overflow or
// underflow.
type wide struct {
	m float64
	e int
}

// gap is hi − lo, for finite hi ≥ lo, as a wide number: where the
// difference overflows, twice that of the halves, exact for values that
// large.
func gap(hi, lo float64) wide {
	d, k := hi-lo, 0
	if math.IsInf(d, 1) {
		d, k = hi/2-lo/2, 1
	}
	m, e := math.Frexp(d)
	return wide{m, e + k}
}

// times is a·b; a zero factor gives the zero wide{}, whose exponent is 0.
func (a wide) times(b wide) wide {
	m, e := math.Frexp(a.m * b.m)
	if m == 0 {
		return wide{}
	}
	return wide{m, e + a.e + b.e}
}

// plus is a + b.
func (a wide) plus(b wide) wide {
	if b.m == 0 {
		return a
	}
	if a.e < b.e || a.m == 0 {
		a, b = b, a
	}
	m, e := math.Frexp(a.m + math.Ldexp(b.m, b.e-a.e)) // b below a's ulp adds nothing
	return wide{m, e + a.e}
}

// uncoveredWide is uncovered with the products and sums taken in wide
// numbers, where a float64 product would underflow (a slab 2^-1038 thick
// under a box near 1) or overflow: within a few ulps per term of the exact
// volume, however small beside the box.
func uncoveredWide(p, origin, lim []float64) wide {
	if len(p) == 1 {
		// lim's rows are ≤ p, so the gap is never negative; a row that
		// reaches p[0] leaves gap(p[0], p[0]), the zero wide.
		return gap(p[0], highest(origin[0], lim))
	}
	var vol wide
	slabs(p, origin, lim, func(top, h float64, proj []float64) bool {
		a := uncoveredWide(p[:len(p)-1], origin[:len(p)-1], proj)
		vol = vol.plus(gap(top, h).times(a))
		return a.m == 0
	})
	return vol
}
