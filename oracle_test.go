package spica

import (
	"math"
	"slices"
)

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

// oracleFront is the O(n²) definition of the front.
func oracleFront(values []float64, dims int, maximize []bool) []int {
	n := len(values) / dims
	front := []int{}
	for i := 0; i < n; i++ {
		dominated := false
		for j := 0; j < n && !dominated; j++ {
			dominated = oracleDominates(values[j*dims:(j+1)*dims], values[i*dims:(i+1)*dims], maximize)
		}
		if !dominated {
			front = append(front, i)
		}
	}
	return front
}

// sameBits reports whether a and b hold the same float64 bit patterns.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y)
	})
}
