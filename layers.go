package spica

import "github.com/spica-search/spica/internal/ndsort"

// NonDominatedSort gives each row of an n×dims row-major matrix its
// non-domination layer: 0 for the rows no other row dominates, 1 for the
// rows that become non-dominated once layer 0 is removed, and so on.
// maximize gives each column's direction; dominance is that of
// [NonDominated] (NaN worse than every number, -0.0 equal to 0.0), so equal
// rows share a layer. A row's layer is also the length of the longest chain
// of rows that dominate one another ending at it.
//
// It costs O(n log n) for one or two columns, O(n log² n) comparisons for
// three, and O(n log^(d−1) n) for d ≥ 4, whatever the number of layers.
// Algorithms: Jensen's sweep (IEEE TEVC 2003) for two columns, ENS-BS of
// Zhang et al. (IEEE TEVC 2015) for three, and for four or more layer 0 by
// [NonDominated], then Jensen's divide and conquer as corrected by Fortin,
// Grenier and Parizeau (GECCO 2013) and Buzdalov and Shalyto (PPSN 2014),
// so that a single-layer matrix costs one [NonDominated]. Up to 2048 rows
// with three columns and 8192 with more, the dominance sets of Moreno et
// al.'s merge non-dominated sorting (IEEE Trans. Cybernetics 2021), kept
// as bit sets, serve instead: O(n² d / 64) word operations, which there
// cost less than those algorithms' set-up.
//
// A length that is not a multiple of dims, dims < 1 or len(maximize) != dims
// is an [*Error] wrapping [ErrInvalidMatrix], as for [NonDominated]. An
// empty matrix gives an empty, non-nil result. values is not modified.
func NonDominatedSort(values []float64, dims int, maximize []bool) ([]int, error) {
	n, err := checkMatrix(values, dims, maximize)
	if err != nil {
		return nil, err
	}
	return ndsort.Layers(values, n, dims, maximize), nil
}

// ParetoLayers is [NonDominatedSort] over candidates: layer 0 is
// [ParetoFront], layer 1 the front of what remains, and so on, each layer
// sorted like ParetoFront (by the last objective's raw value ascending, NaN
// last, ties in input order). It answers "the best N configurations" of a
// pareto goal when the front alone has fewer than N. Values are read by
// the rule of ParetoFront (Objectives, else Metrics), every candidate takes
// part, and the errors are those of ParetoFront. cands is not modified; the
// candidates share their maps with cands.
func ParetoLayers(cands []Candidate, objectives []OptimizationTarget) ([][]Candidate, error) {
	values, maximize, err := objectiveMatrix(cands, objectives)
	if err != nil {
		return nil, err
	}
	dims := len(objectives)
	n := len(values) / dims
	layerOf := ndsort.Layers(values, n, dims, maximize)
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	sortByAxis(rows, values, dims)
	// Deal the rows, now in front order, into their layers.
	size := []int{}
	for _, l := range layerOf {
		if l >= len(size) {
			size = append(size, make([]int, l+1-len(size))...)
		}
		size[l]++
	}
	layers := make([][]Candidate, len(size))
	for l, count := range size {
		layers[l] = make([]Candidate, 0, count)
	}
	for _, row := range rows {
		l := layerOf[row]
		layers[l] = append(layers[l], cands[row])
	}
	return layers, nil
}

// CrowdingDistance returns the NSGA-II crowding distance of each row of an
// n×dims row-major matrix within the set of its rows (K. Deb, A. Pratap,
// S. Agarwal, T. Meyarivan, "A fast and elitist multiobjective genetic
// algorithm: NSGA-II", IEEE Trans. Evol. Comput. 6(2), 2002). A row's
// distance is a sum over the columns; direction does not matter for it, so
// there is no maximize argument. For each column, the rows whose value is
// not NaN are sorted by it, ties by row index, and:
//
//   - if the column's values are all equal (or at most one is a number), it
//     adds nothing, not even at its ends: it separates no rows;
//   - otherwise the first and last rows in the order add +Inf, so the
//     extremes of every objective are always kept;
//   - an interior row adds the gap between its two neighbours divided by the
//     range (largest minus smallest value): 0 if the neighbours are equal;
//     +Inf if they differ and one is infinite, since the gap is then
//     infinite; 0 if both are finite but the range is infinite, a finite gap
//     being no part of an infinite range; else the plain quotient in [0, 1],
//     computed so that a range that overflows float64 does not distort it;
//   - a row whose value is NaN adds nothing.
//
// Every term is therefore in [0, 1] or +Inf and the result is never NaN. A
// set of at most two rows is all +Inf, equal rows included: NSGA-II keeps
// the boundary rows of a front, and in so small a set every row is one.
//
// A length that is not a multiple of dims or dims < 1 is an [*Error]
// wrapping [ErrInvalidMatrix], with Path "values" or "dims". An empty matrix gives an empty, non-nil result. values
// is not modified. Each column is ordered by a radix sort, so the cost is
// O(d n).
func CrowdingDistance(values []float64, dims int) ([]float64, error) {
	n, err := checkShape(values, dims)
	if err != nil {
		return nil, err
	}
	return ndsort.Crowding(values, n, dims), nil
}
