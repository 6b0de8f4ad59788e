// Package testkit holds what the tests of spica and of its engines share:
// the dominance rule written straight in floats, the O(n²) front that
// every front engine is checked against, the matrices the benchmarks and
// the large tests draw, and a deadline for calls that must not hang
// (ReturnsWithin). Only tests import it.
package testkit

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Better reports whether a is better than b in a column of the given
// direction: the rule of the spec written straight in floats, apart from
// the keys of internal/nd, so the two cross-check. NaN is worse than every
// number and equal to itself, and -0.0 == 0.0 as Go compares floats.
func Better(a, b float64, maximize bool) bool {
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

// Dominates reports whether row a dominates row b: no worse in every
// column by [Better] and strictly better in one.
func Dominates(a, b []float64, maximize []bool) bool {
	strict := false
	for c := range a {
		if Better(b[c], a[c], maximize[c]) {
			return false
		}
		if Better(a[c], b[c], maximize[c]) {
			strict = true
		}
	}
	return strict
}

// Front is the O(n²) definition of the front: the rows of an n×dims
// row-major matrix that no row dominates, ascending.
func Front(values []float64, dims int, maximize []bool) []int {
	n := len(values) / dims
	front := []int{}
	for i := 0; i < n; i++ {
		dominated := false
		for j := 0; j < n && !dominated; j++ {
			dominated = Dominates(values[j*dims:(j+1)*dims], values[i*dims:(i+1)*dims], maximize)
		}
		if !dominated {
			front = append(front, i)
		}
	}
	return front
}

// SameBits reports whether a and b hold the same float64 bit patterns.
func SameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y)
	})
}

// Matrix returns an n×d row-major matrix, the same for the same
// arguments:
//
//   - "uniform": independent values in [0, 1); the front is tiny
//     (about (ln n)^(d-1)/(d-1)! rows).
//   - "line": uniform points on the simplex Σx = 1, which are mutually
//     non-dominated under any common direction, so all are on the front (up
//     to rounding).
//   - "sphere": uniform points on the unit sphere in the positive orthant,
//     also mutually non-dominated under all-minimize or all-maximize.
func Matrix(shape string, n, d int) []float64 {
	return Stream(shape, n, d, 0)
}

// Stream is Matrix drawn from another stream of its generator: stream 0
// is Matrix(shape, n, d) itself, and the same arguments give the same
// matrix. Benchmarks cycle through streams so that a call meets data its
// branches have not seen: on one matrix timed again and again, the branch
// predictor learns each comparison's outcome, and code that branches on
// the data looks faster than it is.
func Stream(shape string, n, d int, stream uint64) []float64 {
	rng := rand.New(rand.NewPCG(uint64(n)+stream<<40, uint64(d)<<32|uint64(len(shape))))
	values := make([]float64, n*d)
	for r := 0; r < n; r++ {
		row := values[r*d : (r+1)*d]
		switch shape {
		case "uniform":
			for c := range row {
				row[c] = rng.Float64()
			}
		case "line":
			// Normalized exponentials are uniform on the simplex.
			sum := 0.0
			for c := range row {
				row[c] = rng.ExpFloat64()
				sum += row[c]
			}
			for c := range row {
				row[c] /= sum
			}
		case "sphere":
			// Normalized |Gaussians| are uniform on the orthant's sphere.
			norm := 0.0
			for c := range row {
				row[c] = math.Abs(rng.NormFloat64())
				norm += row[c] * row[c]
			}
			norm = math.Sqrt(norm)
			for c := range row {
				row[c] /= norm
			}
		default:
			panic("Matrix: unknown shape " + shape)
		}
	}
	return values
}
