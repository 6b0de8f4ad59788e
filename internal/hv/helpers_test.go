package hv

import "github.com/spica-search/spica/internal/nd"

// volumeOf is [Volume] of a matrix whose row count follows from its length.
func volumeOf(values []float64, dims int, maximize []bool, ref []float64) float64 {
	return Volume(values, len(values)/dims, dims, maximize, ref)
}

// sharesOf is [Contributions] of a matrix whose row count follows from its
// length.
func sharesOf(values []float64, dims int, maximize []bool, ref []float64) []float64 {
	return Contributions(values, len(values)/dims, dims, maximize, ref)
}

// historyOf is [History] of a matrix whose row count follows from its
// length.
func historyOf(values []float64, dims int, maximize []bool, ref []float64) []float64 {
	return History(values, len(values)/dims, dims, maximize, ref)
}

// subsetOf is [Subset] of a matrix whose row count follows from its length.
func subsetOf(values []float64, dims int, maximize []bool, ref []float64, k int) ([]int, float64) {
	return Subset(values, len(values)/dims, dims, maximize, ref, k)
}

// frontOf is the front engine's answer for the same matrix.
func frontOf(values []float64, dims int, maximize []bool) []int {
	return nd.Front(values, len(values)/dims, dims, maximize)
}
