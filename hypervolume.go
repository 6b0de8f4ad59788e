package spica

import (
	"math"
	"strconv"

	"github.com/spica-search/spica/internal/hv"
)

// Hypervolume returns the Lebesgue measure of the region dominated by the
// rows of an n×dims row-major matrix and bounded by the reference point ref:
// for a maximized column the region lies above ref[j], for a minimized one
// below it. Rows that are not strictly better than ref in every column, and
// rows holding a NaN, add nothing. A row inside the box with an infinite
// coordinate on its good side makes the volume +Inf.
//
// The result is finite whenever the volume fits in a float64, even when an
// extent or a partial product does not (1e200·1e200·1e-300 is 1e100), and
// keeps its digits when a partial product falls below the normal floats
// before larger factors multiply it (1e-300·1e-300·1e300·1e300 is 1): such
// data, spanning more magnitudes than one scale per column holds, are
// measured row by row, each on its own scale, at O(n²) limited sets.
//
// It costs O(n) for one column and for two after a radix sort, O(n log n)
// for three, O(n²) for four, O(n³) for five, and for six or more time
// exponential in dims in the worst case. Algorithms: the dimension sweep of
// Beume et al. (IEEE TEVC 2009) for three columns, HV4D+ of Guerreiro and
// Fonseca (IEEE TEVC 2018) for four, the dimension sweep of Fonseca,
// Paquete and López-Ibáñez (IEEE CEC 2006) over HV4D+ for five, WFG of
// While et al. (IEEE TEVC 2012) with that sweep as its base case above.
//
// A shape error (see [NonDominated]), len(ref) != dims or a ref coordinate
// that is not finite is an [*Error] wrapping [ErrInvalidMatrix], with Path
// "ref" or "ref[j]" for the latter two. An empty matrix
// has volume 0. values, maximize and ref are not modified.
func Hypervolume(values []float64, dims int, maximize []bool, ref []float64) (float64, error) {
	n, err := checkHypervolume(values, dims, maximize, ref)
	if err != nil {
		return 0, err
	}
	return hv.Volume(values, n, dims, maximize, ref), nil
}

// HypervolumeContributions returns, for each row, the volume [Hypervolume]
// loses when that row alone is removed: the measure of the region that row
// dominates and no other row does. Dominated rows, rows outside the
// reference box, NaN rows and rows with an exact duplicate get 0. Where
// infinities are involved the same definition holds and the answer is never
// NaN: a row gets +Inf exactly when the region only it dominates is
// unbounded (so the only row with infinite extent gets +Inf, while two rows
// with infinite extent in different columns each get +Inf, and a finite row
// beside them keeps its finite share).
//
// Each share is computed directly, never as the difference of two totals,
// with every gap taken between two coordinates: with one or two columns it
// is within a few ulps of the exact value; the tests hold three columns to
// 1e-10 relative of the exact value and more to 1e-9. A share too large
// for a float64 is +Inf; one that fits although a gap or a partial product
// overflows, or that a partial product below the normal floats would rob
// of digits, is measured on its own scale as in [Hypervolume].
//
// It costs O(n) after a radix sort for one or two columns, O(n log n) for
// three, and for more one WFG exclusive volume per row. Algorithms: the
// three-column sweep extends Emmerich and Fonseca (EMO 2011) to rows that
// dominate others; WFG is that of While et al. (IEEE TEVC 2012).
//
// Errors are those of [Hypervolume]. An empty matrix gives an empty, non-nil
// slice. values, maximize and ref are not modified.
func HypervolumeContributions(values []float64, dims int, maximize []bool, ref []float64) ([]float64, error) {
	n, err := checkHypervolume(values, dims, maximize, ref)
	if err != nil {
		return nil, err
	}
	return hv.Contributions(values, n, dims, maximize, ref), nil
}

// HypervolumeHistory returns, for each i, the [Hypervolume] of rows 0..i of
// an n×dims row-major matrix against the reference point ref: the
// convergence curve of a search whose rows are in evaluation order, as
// Optuna's plot_hypervolume_history draws it. The curve never decreases; each
// entry equals a separate Hypervolume call on that prefix up to rounding
// (within 1e-12 relative in the tests), and once a row with an infinite
// extent inside the box arrives every later entry is +Inf.
//
// It is incremental: each row adds the volume it covers beyond the rows
// before it. One column costs O(n); two cost O(n log n) in all (a staircase
// over the rows' ranks in the first column, kept in a 64-ary bit tree).
// With three columns a row is measured against its neighbours on the
// current front, found in a k-d tree over all rows built once (all rows are
// known in advance): about O(log n) per row plus its neighbours on the
// fronts of search-like and of evenly spread data (1e5 rows of a sphere,
// every one on the front, take 16 to 20 Hypervolume calls; rows most of
// which are dominated, under one), but O(n) per row in the worst case.
// No O(n log n) bound is claimed for three columns: it would, integrated
// over a fourth column, give an O(n log n) four-dimensional hypervolume,
// better than any known (O(n²), Guerreiro and Fonseca, CCCG 2012;
// O(n^(4/3) polylog n), Chan, FOCS 2013). With four or more columns a row
// entering the front costs WFG's exclusive volume against it (see
// [Hypervolume]).
//
// Errors are those of [Hypervolume]. An empty matrix gives an empty,
// non-nil slice. values, maximize and ref are not modified.
func HypervolumeHistory(values []float64, dims int, maximize []bool, ref []float64) ([]float64, error) {
	n, err := checkHypervolume(values, dims, maximize, ref)
	if err != nil {
		return nil, err
	}
	return hv.History(values, n, dims, maximize, ref), nil
}

// HypervolumeSubset returns k rows of an n×dims row-major matrix, as
// ascending indices, whose [Hypervolume] against ref is as large as it can
// find, and that hypervolume: "deploy these k configurations", the k that
// cover the trade-off best. Only the rows that add volume are candidates:
// rows strictly better than ref in every column that no other row dominates,
// one per set of equal rows (the lowest index). When k is at least their
// number, all of them are returned.
//
//   - 1 or 2 columns: the answer is exact, by the dynamic program of
//     K. Bringmann, T. Friedrich, P. Klitzke, "Two-dimensional subset
//     selection for hypervolume and epsilon-indicator", GECCO 2014, in
//     O(n log n + k·m) time and O(k·m) memory for m candidates. Among
//     subsets of equal volume it returns the lowest: the one whose
//     ascending indices come first in lexicographic order, at O(k log k)
//     for each tie settled on the way. (Equal means equal as computed,
//     which on fractional data may differ from the exact areas in the
//     last bit.)
//   - 3 or more columns: exact selection is NP-hard, so rows are chosen
//     greedily, each time the one adding the most volume to those already
//     chosen, ties toward the lower index. The hypervolume is monotone and
//     submodular, so the result has at least (1 − 1/e) ≈ 63% of the best
//     possible volume (G. L. Nemhauser, L. A. Wolsey, M. L. Fisher, "An
//     analysis of approximations for maximizing submodular set functions",
//     Math. Program. 14, 1978; for the hypervolume, A. P. Guerreiro,
//     C. M. Fonseca, L. Paquete, "Greedy hypervolume subset selection in low
//     dimensions", Evol. Comput. 24(3), 2016). Gains are re-measured lazily,
//     as submodularity allows: each step costs a few exclusive-volume
//     computations against the rows chosen so far, O(k log k) each with
//     three columns.
//
// When a candidate has an infinite extent every subset holding one has
// volume +Inf: the answer is the lowest-indexed candidates, with the first
// infinite one in place of the last if none is among them. An extent that
// overflows (values near ±MaxFloat64) is taken as infinite for the choice,
// though the volume returned is Hypervolume's, which may then be finite.
//
// k < 0 is an error wrapping [ErrInvalidMatrix] with Path "k"; the other
// errors are those of [Hypervolume]. values, maximize and ref are not
// modified.
func HypervolumeSubset(values []float64, dims int, maximize []bool, ref []float64, k int) ([]int, float64, error) {
	n, err := checkHypervolume(values, dims, maximize, ref)
	if err != nil {
		return nil, 0, err
	}
	if k < 0 {
		return nil, 0, errorf(ErrInvalidMatrix, "k", "is %d, want a count >= 0", k)
	}
	rows, vol := hv.Subset(values, n, dims, maximize, ref, k)
	return rows, vol, nil
}

// checkHypervolume adds the reference point to the shape rules every matrix
// function shares, and returns the number of rows.
func checkHypervolume(values []float64, dims int, maximize []bool, ref []float64) (int, error) {
	n, err := checkMatrix(values, dims, maximize)
	if err != nil {
		return 0, err
	}
	if len(ref) != dims {
		return 0, errorf(ErrInvalidMatrix, "ref", "has length %d, want dims = %d", len(ref), dims)
	}
	for j, r := range ref {
		if math.IsNaN(r) || math.IsInf(r, 0) {
			return 0, errorf(ErrInvalidMatrix, "ref["+strconv.Itoa(j)+"]", "is %v, want a finite number", r)
		}
	}
	return n, nil
}
