package hv

import (
	"math"
	"sync"

	"github.com/spica-search/spica/internal/nd"
)

// Most hypervolume kernels (here, hv3.go, wfg.go) work on extents: a row's
// distance from the reference point towards the good side of each column
// (ref−x when minimizing, x−ref when maximizing). A row adds volume only
// when every extent is > 0, and then it dominates the box [0, extent] of the
// extent space, so one set of kernels serves every mix of directions. For
// distinct floats a−b is never zero, so "strictly better than ref" survives
// the subtraction. The contribution kernels take oriented coordinates
// instead (see orientedRows), for accuracy.

// Volume is the hypervolume of the rows of a valid n×dims matrix: the
// measure of the region they dominate, bounded by ref (finite), for the
// directions maximize, by the rules of the root's Hypervolume.
func Volume(values []float64, n, dims int, maximize []bool, ref []float64) float64 {
	if dims == 2 {
		if v := hypervolume2(values, n, maximize, ref); !math.IsInf(v, 1) {
			return v
		}
		return hvRescaled(values, n, dims, maximize, ref)
	}
	var pts []float64
	var rows []int
	if len(values) <= hvPoolValues {
		sc := hvPool.Get().(*hvScratch)
		defer hvPool.Put(sc)
		pts, rows = sc.extents(values, n, dims, maximize, ref)
	} else {
		pts, rows = extents(values, n, dims, maximize, ref)
	}
	least := math.Inf(1)
	for _, e := range pts {
		if math.IsInf(e, 1) { // an infinite value, or a finite one that overflowed
			return hvRescaled(values, n, dims, maximize, ref)
		}
		least = min(least, e) // extents in the box are positive, never NaN
	}
	v := saturate(hvFinite(pts, dims))
	if math.IsInf(v, 1) {
		return hvRescaled(values, n, dims, maximize, ref)
	}
	if underflowRisk(least, dims) {
		low, high := magnitudeSpan(pts, make([]float64, dims), dims)
		if underflowed(v, len(rows), low, high) {
			return scaledPrefixVolumes(values, n, dims, maximize, ref)[n-1]
		}
	}
	return v
}

// hvRescaled is Hypervolume once the plain computation has overflowed,
// which may happen although the volume fits: an extent ref − x beyond
// MaxFloat64 between two finite numbers, or a partial product of extents
// (1e200·1e200 before ·1e-300) beyond it. Each column is scaled by the
// power of two that brings its largest extent into [1/2, 1), which is exact
// unless an extent falls below 2^-1022 of the column's largest, so no
// partial product can exceed the number of rows; the volume of the scaled
// extents is scaled back by the product of the powers, exactly. An extent
// that overflowed is taken as twice the difference of the halves, exact
// for values that large.
//
// Terms that the scaling pushes below the smallest normal float lose
// digits, so a scaled volume under n·2^-960 is not trusted: the columns
// span more than one scale can hold, and scaledPrefixVolumes measures each
// row on its own. The result stays +Inf when a row inside the box has an
// infinite value on its good side, and when the volume exceeds MaxFloat64.
func hvRescaled(values []float64, n, dims int, maximize []bool, ref []float64) float64 {
	pts := make([]float64, 0, len(values))
	twice := make([]bool, 0, len(values)) // the extent is twice pts[k]
	top := make([]int, dims)              // the binary exponent of each column's largest extent
	for j := range top {
		top[j] = math.MinInt
	}
	rows := 0
	for i := range n {
		start := len(pts)
		for j, v := range values[i*dims : (i+1)*dims] {
			e, x := halvedExtent(v, ref[j], maximize[j])
			if !(e > 0) { // NaN fails too
				pts, twice = pts[:start], twice[:start]
				break
			}
			pts, twice = append(pts, e), append(twice, x)
		}
		if len(pts) == start {
			continue
		}
		rows++
		for j, e := range pts[start:] {
			if math.IsInf(e, 1) {
				return e
			}
			top[j] = max(top[j], extentExponent(e, twice[start+j]))
		}
	}
	if rows == 0 {
		return 0
	}
	scale := scaleExtents(pts, twice, top)
	v := hvFinite(pts, dims)
	if rescaledUnderflowed(v, rows) {
		// Terms went through the subnormals: measure each row on its own
		// scale instead.
		return scaledPrefixVolumes(values, n, dims, maximize, ref)[n-1]
	}
	return math.Ldexp(v, scale)
}

// rescaledUnderflowed reports whether v, the volume of rows rows scaled
// into the unit box, is under rows·2^-960, too small to trust: each term
// that went through the subnormals lost up to 2^-1074.
func rescaledUnderflowed(v float64, rows int) bool {
	return v < math.Ldexp(float64(rows), -960)
}

// extentExponent is the binary exponent k of an extent, 2^(k-1) ≤ extent
// < 2^k, the extent being e or, marked twice, 2e (an extent that overflowed
// is held as its half): the largest of a column's sets the power of two
// that scales it into [1/2, 1).
func extentExponent(e float64, twice bool) int {
	_, k := math.Frexp(e)
	if twice {
		k++
	}
	return k
}

// scaleExtents scales each column of the extent rows pts by 2^-top[j], the
// column's largest binary exponent, taking an extent marked in twice as
// twice its value, and returns the sum of the exponents, by which a volume
// of the scaled rows scales back. Powers of two scale exactly while the
// result stays normal.
func scaleExtents(pts []float64, twice []bool, top []int) (scale int) {
	for _, k := range top {
		scale += k
	}
	for i, e := range pts {
		k := -top[i%len(top)]
		if twice[i] {
			k++
		}
		pts[i] = math.Ldexp(e, k)
	}
	return scale
}

// halvedExtent is the extent of value v in a column with reference ref:
// v − ref when maximizing, ref − v when minimizing. When that subtraction
// overflows between two finite numbers it returns the difference of the
// halves instead, exact for values that large, and twice reports that the
// extent is twice e.
func halvedExtent(v, ref float64, maximize bool) (e float64, twice bool) {
	hi, lo := ref, v
	if maximize {
		hi, lo = v, ref
	}
	if e = hi - lo; math.IsInf(e, 1) && !math.IsInf(v, 0) {
		return hi/2 - lo/2, true
	}
	return e, false
}

// hvScratch holds the extents of one Hypervolume call on at most
// hvPoolValues values, pooled: on the fronts of a few hundred rows that most
// calls measure, allocating them cost about a tenth of the call (a 313-row
// U4 front: 25.9 µs against 28.6, medians of seven interleaved rounds), in
// the collector's work more than in the allocation. A larger matrix costs
// far more than its allocation, and is not kept alive in the pool.
type hvScratch struct {
	pts  []float64
	rows []int
}

var hvPool = sync.Pool{New: func() any { return new(hvScratch) }}

const hvPoolValues = 1 << 14

// extents is the package's extents into the scratch's buffers; the result
// is valid until the scratch's next use.
func (sc *hvScratch) extents(values []float64, n, dims int, maximize []bool, ref []float64) ([]float64, []int) {
	return extentsInto(nd.Grow(&sc.pts, len(values)), nd.Grow(&sc.rows, n), values, n, dims, maximize, ref)
}

// extents returns the extents of the rows inside the reference box, row
// major, and the indices of those rows. Each row is written out and then
// kept or overwritten by the next, by a flag rather than a branch: which
// rows lie inside the box is a coin toss on most data.
func extents(values []float64, n, dims int, maximize []bool, ref []float64) ([]float64, []int) {
	return extentsInto(make([]float64, len(values)), make([]int, n), values, n, dims, maximize, ref)
}

// extentsInto is extents into pts (as long as values) and rows (n long).
func extentsInto(pts []float64, rows []int, values []float64, n, dims int, maximize []bool, ref []float64) ([]float64, []int) {
	// e = sign·v + off is ref − v in a minimized column and v − ref in a
	// maximized one, exactly: the product is exact and the sum the same.
	var buf [16]float64
	sign, off := buf[:0:8], buf[8:8:16] // more than 8 columns reallocate
	for j, up := range maximize {
		if up {
			sign, off = append(sign, 1), append(off, -ref[j])
		} else {
			sign, off = append(sign, -1), append(off, ref[j])
		}
	}
	switch dims {
	case 3:
		// The common cases, unrolled: the general loop spends most of its
		// time on the slicing and the inner loop's counters.
		m := extents3(values, pts, rows, [3]float64(sign), [3]float64(off))
		return pts[:3*m], rows[:m]
	case 4:
		m := extents4(values, pts, rows, [4]float64(sign), [4]float64(off))
		return pts[:4*m], rows[:m]
	}
	k, m := 0, 0
	for i := range rows {
		row := values[i*dims : (i+1)*dims : (i+1)*dims]
		out := pts[k : k+dims : k+dims]
		in := 1
		for j, v := range row {
			e := sign[j]*v + off[j]
			out[j] = e
			in &= nd.OneIf(e > 0) // NaN fails too
		}
		rows[m] = i
		m += in
		k += dims * in
	}
	return pts[:k], rows[:m]
}

// extents4 is extents3 for four columns.
func extents4(values, pts []float64, rows []int, sign, off [4]float64) int {
	k := 0
	for i := range rows {
		v := values[4*i : 4*i+4 : 4*i+4]
		e0, e1, e2, e3 := sign[0]*v[0]+off[0], sign[1]*v[1]+off[1], sign[2]*v[2]+off[2], sign[3]*v[3]+off[3]
		out := pts[4*k : 4*k+4 : 4*k+4]
		out[0], out[1], out[2], out[3] = e0, e1, e2, e3
		rows[k] = i
		k += nd.OneIf(e0 > 0) & nd.OneIf(e1 > 0) & nd.OneIf(e2 > 0) & nd.OneIf(e3 > 0) // NaN fails too
	}
	return k
}

// extents3 is the loop of extents for three columns: it writes to pts and
// rows the extents and indices of the rows of values inside the box, and
// returns how many there are.
func extents3(values, pts []float64, rows []int, sign, off [3]float64) int {
	k := 0
	for i := range rows {
		v := values[3*i : 3*i+3 : 3*i+3]
		e0, e1, e2 := sign[0]*v[0]+off[0], sign[1]*v[1]+off[1], sign[2]*v[2]+off[2]
		out := pts[3*k : 3*k+3 : 3*k+3]
		out[0], out[1], out[2] = e0, e1, e2
		rows[k] = i
		k += nd.OneIf(e0 > 0) & nd.OneIf(e1 > 0) & nd.OneIf(e2 > 0) // NaN fails too
	}
	return k
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

// hvFinite is the hypervolume of finite, positive extents: three columns
// by hv3Small up to hv3SmallMax rows and by hv3 above, four by hv4d, five
// by hv5d, more by wfg.
func hvFinite(pts []float64, dims int) float64 {
	switch dims {
	case 1:
		v := 0.0
		for _, e := range pts {
			v = max(v, e)
		}
		return v
	case 2:
		a := make([]nd.Rec, 0, len(pts)/2)
		for i := 0; i < len(pts); i += 2 {
			a = append(a, nd.Rec{Key: math.Float64bits(pts[i]), Aux: math.Float64bits(pts[i+1])})
		}
		return sweep2(a)
	case 3:
		if byHV3Small(len(pts)) {
			return hv3Small(pts)
		}
		return hv3(pts)
	case 4:
		return hv4d(pts)
	case 5:
		return hv5d(pts)
	}
	return wfg(pts, dims)
}

// hypervolume2 builds the sort records straight from values so that a
// million-row front costs two 16-byte-per-row arrays and nothing else, and
// a front of a few rows, the common call, nothing at all: its records stay
// on the stack and nd.SortStable sorts them in place.
func hypervolume2(values []float64, n int, maximize []bool, ref []float64) float64 {
	var small [hv2StackRows]nd.Rec
	a := small[:0]
	if n > len(small) {
		a = make([]nd.Rec, 0, n)
	}
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
		a = append(a, nd.Rec{Key: math.Float64bits(e0), Aux: math.Float64bits(e1)})
	}
	return saturate(sweep2(a))
}

// hv2StackRows is the most rows whose records hypervolume2 keeps on the
// stack.
const hv2StackRows = 32

// sweep2 is the two-column hypervolume of records whose key is the first
// extent and whose aux is the second, both as float64 bits.
func sweep2(a []nd.Rec) float64 {
	a = nd.SortStable(a, nil)
	area, top := 0.0, 0.0
	for i := len(a) - 1; i >= 0; i-- {
		// Visiting rows by decreasing first extent, a row adds the strip
		// between the highest second extent seen so far and its own.
		if y := math.Float64frombits(a[i].Aux); y > top {
			area += math.Float64frombits(a[i].Key) * (y - top)
			top = y
		}
	}
	return area
}
