package ndsort

import (
	"math"

	"github.com/spica-search/spica/internal/nd"
)

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

// oracleBetter is the rule of the spec written straight in floats, apart from
// the keys of internal/nd, so the two cross-check: NaN is worse than everything and
// equal to itself, and -0.0 == 0.0 as Go compares floats.
func oracleBetter(a, b float64, maximize bool) bool {
	switch {
	case math.IsNaN(a):
		return false
	case math.IsNaN(b):
		return true
	case maximize:
		return a > b
	default:
		return a < b
	}
}

func oracleDominates(a, b []float64, maximize []bool) bool {
	strict := false
	for c := range a {
		if oracleBetter(b[c], a[c], maximize[c]) {
			return false
		}
		if oracleBetter(a[c], b[c], maximize[c]) {
			strict = true
		}
	}
	return strict
}
