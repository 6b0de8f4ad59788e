package spica

import (
	"math"

	"github.com/spica-search/spica/internal/nd"
)

// ReferencePoint returns the usual automatic reference point for
// [Hypervolume] of an n×dims row-major matrix, the convention of botorch and
// Optuna: per column, over that column's finite values in the non-dominated
// rows (see [NonDominated]), with lo and hi their minimum and maximum and
// r = hi − lo (r = 1 when hi == lo), the point is hi + 0.1·r for a minimized
// column and lo − 0.1·r for a maximized one — just worse than the worst
// front value, so that every finite front row adds volume. Where rounding
// would leave the coordinate equal to the worst front value it is moved to
// the next float beyond it, and where it would overflow it is ±MaxFloat64,
// so the result is always finite (and only a front value of ±MaxFloat64
// itself then fails to be strictly better than it).
//
// A shape error (see [NonDominated]), an empty matrix or a column with no
// finite value among the non-dominated rows is an error wrapping
// [ErrInvalidMatrix]. It costs one [NonDominated] call plus O(front · dims).
// values and maximize are not modified.
func ReferencePoint(values []float64, dims int, maximize []bool) ([]float64, error) {
	n, err := checkMatrix(values, dims, maximize)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, errorf(ErrInvalidMatrix, "values", "is empty, want at least one row to place a reference point")
	}
	front := nd.Front(values, n, dims, maximize)
	ref := make([]float64, dims)
	for j := range dims {
		lo, hi, seen := math.Inf(1), math.Inf(-1), false
		for _, i := range front {
			v := values[i*dims+j]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			lo, hi, seen = min(lo, v), max(hi, v), true
		}
		if !seen {
			return nil, errorf(ErrInvalidMatrix, "values",
				"column %d has no finite value among the non-dominated rows, so no reference point can be placed", j)
		}
		ref[j] = beyond(lo, hi, maximize[j])
	}
	return ref, nil
}

// beyond is the reference coordinate of a column whose finite front values
// span [lo, hi]: a tenth of the span past the worst one, strictly past it
// and finite.
func beyond(lo, hi float64, maximize bool) float64 {
	r := 0.1 * (hi - lo)
	switch {
	case hi == lo:
		r = 0.1 // a span of 1
	case math.IsInf(r, 1): // hi − lo overflowed; halves do not
		r = 0.2 * (hi/2 - lo/2)
	}
	worst, away := hi, math.Inf(1)
	if maximize {
		worst, away, r = lo, math.Inf(-1), -r
	}
	ref := worst + r
	if ref == worst { // r lost to rounding next to a large |worst|
		ref = math.Nextafter(worst, away)
	}
	if math.IsInf(ref, 0) {
		ref = math.Copysign(math.MaxFloat64, ref)
	}
	return ref
}
