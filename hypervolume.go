package spica

import (
	"fmt"
	"math"
)

// Every hypervolume kernel (here, hv3.go, wfg.go, contributions.go) works on
// extents: a row's distance from the reference point towards the good side
// of each column (ref−x when minimizing, x−ref when maximizing). A row adds
// volume only when every extent is > 0, and then it dominates the box
// [0, extent] of the extent space, so one set of kernels serves every mix of
// directions. For distinct floats a−b is never zero, so "strictly better
// than ref" survives the subtraction; an extent that overflows counts as
// infinite.

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
//   - 4: HV4D+ of Guerreiro and Fonseca ("Computing and updating
//     hypervolume contributions in up to four dimensions", IEEE TEVC 2018),
//     O(n²): a sweep along the fourth column adds each row's exclusive
//     three-dimensional volume, measured in O(n) against the rows before it.
//   - 5 or more: WFG of While, Bradstreet and Barone ("A fast way of
//     calculating exact hypervolumes", IEEE TEVC 2012), with the
//     four-column sweep as its base case; exponential in dims in the worst
//     case.
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
		if len(pts) <= 3*hv3SmallMax {
			return hv3Small(pts)
		}
		return hv3(pts)
	case 4:
		return hv4d(pts)
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
