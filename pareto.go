package spica

import (
	"fmt"
	"math"
)

// NonDominated returns, in ascending order, the indices of the rows of an
// n×dims row-major matrix that no other row dominates. maximize gives each
// column's direction. A row dominates another when it is at least as good in
// every column and strictly better in at least one; NaN is worse than every
// number in its column, and -0.0 equals 0.0. Equal rows do not dominate each
// other, so all copies of a non-dominated row are returned.
//
// A length that is not a multiple of dims, dims < 1 or len(maximize) != dims
// is an error wrapping [ErrInvalidMatrix]. An empty matrix gives an empty
// result. values is not modified.
func NonDominated(values []float64, dims int, maximize []bool) ([]int, error) {
	n, err := checkMatrix(values, dims, maximize)
	if err != nil {
		return nil, err
	}
	return nonDominatedRows(values, n, dims, maximize), nil
}

// checkMatrix validates the shape shared by every matrix function and
// returns the number of rows.
func checkMatrix(values []float64, dims int, maximize []bool) (int, error) {
	if dims < 1 {
		return 0, fmt.Errorf("%w: dims is %d, want at least 1", ErrInvalidMatrix, dims)
	}
	if len(values)%dims != 0 {
		return 0, fmt.Errorf("%w: len(values) = %d is not a multiple of dims = %d", ErrInvalidMatrix, len(values), dims)
	}
	if len(maximize) != dims {
		return 0, fmt.Errorf("%w: len(maximize) = %d, want dims = %d", ErrInvalidMatrix, len(maximize), dims)
	}
	return len(values) / dims, nil
}

// objectiveKey maps a value to a key where smaller is better, whatever the
// column's direction: comparing keys as unsigned integers is comparing the
// values in that direction, with NaN (the largest key) worse than every
// number and -0.0 equal to 0.0. Every kernel compares keys, so the NaN rule
// lives here alone.
func objectiveKey(v float64, maximize bool) uint64 {
	if v != v {
		return math.MaxUint64
	}
	if v == 0 {
		v = 0 // fold -0.0 into 0.0
	}
	// The order-preserving image of an IEEE 754 double: flip every bit of a
	// negative number, only the sign bit of a non-negative one.
	b := math.Float64bits(v)
	if b>>63 != 0 {
		b = ^b
	} else {
		b |= 1 << 63
	}
	if maximize {
		return ^b // fits below MaxUint64: ^b of -Inf is 0xFFF0…0
	}
	return b
}

// betterValue reports whether a is strictly better than b in the direction.
func betterValue(a, b float64, maximize bool) bool {
	return objectiveKey(a, maximize) < objectiveKey(b, maximize)
}
