package hv

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/spica-search/spica/internal/nd"
)

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

// sameBits reports whether a and b hold the same float64 bit patterns.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y)
	})
}

// compareFloat orders numbers ascending.
func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
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

// benchMatrix returns an n×d row-major matrix, the same for the same
// arguments:
//
//   - "uniform": independent values in [0, 1); the front is tiny
//     (about (ln n)^(d-1)/(d-1)! rows).
//   - "line": uniform points on the simplex Σx = 1, which are mutually
//     non-dominated under any common direction, so all are on the front (up
//     to rounding).
//   - "sphere": uniform points on the unit sphere in the positive orthant,
//     also mutually non-dominated under all-minimize or all-maximize.
func benchMatrix(shape string, n, d int) []float64 {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(d)<<32|uint64(len(shape))))
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
			panic("benchMatrix: unknown shape " + shape)
		}
	}
	return values
}
