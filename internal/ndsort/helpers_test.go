package ndsort

import "github.com/spica-search/spica/internal/nd"

// layersOf is [Layers] of a matrix whose row count follows from its length.
func layersOf(values []float64, dims int, maximize []bool) []int {
	return Layers(values, len(values)/dims, dims, maximize)
}

// crowdingOf is [Crowding] of a matrix whose row count follows from its
// length.
func crowdingOf(values []float64, dims int) []float64 {
	return Crowding(values, len(values)/dims, dims)
}

// frontOf is the front engine's answer for the same matrix.
func frontOf(values []float64, dims int, maximize []bool) []int {
	return nd.Front(values, len(values)/dims, dims, maximize)
}
