package nd

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// frontOf is [Front] of a matrix whose row count follows from its length.
func frontOf(values []float64, dims int, maximize []bool) []int {
	return Front(values, len(values)/dims, dims, maximize)
}

// compareAxis is the root's order of fronts along their x-axis: raw values
// ascending whatever the direction, NaN last, -0.0 equal to 0.0.
func compareAxis(a, b float64) int {
	return cmp.Compare(ObjectiveKey(a, false), ObjectiveKey(b, false))
}

// sameBits reports whether a and b hold the same float64 bit patterns.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y)
	})
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
