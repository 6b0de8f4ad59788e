package spica

import "github.com/spica-search/spica/internal/nd"

// NonDominated returns, in ascending order, the indices of the rows of an
// n×dims row-major matrix that no other row dominates. maximize gives each
// column's direction. A row dominates another when it is at least as good in
// every column and strictly better in at least one; NaN is worse than every
// number in its column, and -0.0 equals 0.0. Equal rows do not dominate each
// other, so all copies of a non-dominated row are returned.
//
// It costs O(n) for one column, O(n) after a radix sort for two, O(n log n)
// for three and O(n log^(d−2) n) for d ≥ 4, and about one read of the matrix
// when the front is small. Algorithm: H. T. Kung, F. Luccio and F. P.
// Preparata, "On finding the maxima of a set of vectors", JACM 22(4), 1975;
// with four or more columns its subproblems of up to 8192 rows are settled
// by bit sets, after J. Moreno et al., "Merge nondominated sorting
// algorithm for many-objective optimization", IEEE Trans. Cybernetics
// 51(12), 2021. A matrix of four or more columns and at most 2048 rows
// whose front a sample shows to be small goes by sort-filter-skyline
// instead (J. Chomicki et al., "Skyline with presorting", ICDE 2003):
// O(n·f·d) for a front of f rows, which on a thousand rows costs less
// than the divide and conquer's set-up.
//
// A length that is not a multiple of dims, dims < 1 or len(maximize) != dims
// is an [*Error] wrapping [ErrInvalidMatrix], with Path "values", "dims" or
// "maximize". An empty matrix gives an empty result. values is not modified.
func NonDominated(values []float64, dims int, maximize []bool) ([]int, error) {
	n, err := checkMatrix(values, dims, maximize)
	if err != nil {
		return nil, err
	}
	return nd.Front(values, n, dims, maximize), nil
}

// checkMatrix validates the shape shared by every matrix function with
// directions and returns the number of rows.
func checkMatrix(values []float64, dims int, maximize []bool) (int, error) {
	n, err := checkShape(values, dims)
	if err == nil && len(maximize) != dims {
		err = errorf(ErrInvalidMatrix, "maximize", "has length %d, want dims = %d", len(maximize), dims)
	}
	return n, err
}

// checkShape validates an n×dims row-major matrix and returns n.
func checkShape(values []float64, dims int) (int, error) {
	if dims < 1 {
		return 0, errorf(ErrInvalidMatrix, "dims", "is %d, want at least 1", dims)
	}
	if len(values)%dims != 0 {
		return 0, errorf(ErrInvalidMatrix, "values", "has length %d, not a multiple of dims = %d", len(values), dims)
	}
	return len(values) / dims, nil
}
