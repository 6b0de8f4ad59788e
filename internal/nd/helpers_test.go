package nd

import "cmp"

// frontOf is [Front] of a matrix whose row count follows from its length.
func frontOf(values []float64, dims int, maximize []bool) []int {
	return Front(values, len(values)/dims, dims, maximize)
}

// compareAxis is the root's order of fronts along their x-axis: raw values
// ascending whatever the direction, NaN last, -0.0 equal to 0.0.
func compareAxis(a, b float64) int {
	return cmp.Compare(ObjectiveKey(a, false), ObjectiveKey(b, false))
}
