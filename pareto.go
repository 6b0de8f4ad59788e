package spica

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// NonDominated returns, in ascending order, the indices of the rows of an
// n×dims row-major matrix that no other row dominates. maximize gives each
// column's direction. A row dominates another when it is at least as good in
// every column and strictly better in at least one; NaN is worse than every
// number in its column, and -0.0 equals 0.0. Equal rows do not dominate each
// other, so all copies of a non-dominated row are returned.
//
// The algorithms are those of H. T. Kung, F. Luccio and F. P. Preparata,
// "On finding the maxima of a set of vectors", JACM 22(4), 1975, each on
// top of a radix sort of 64-bit keys that order the values in each column's
// direction (a comparison sort serves only small inputs and runs of equal
// first keys):
//
//   - 1 column: one pass for the best value, O(n).
//   - 2 columns: sort by the first column and sweep, keeping the best
//     second value seen so far: O(n) after the radix sort.
//   - 3 columns: sort lexicographically and sweep, keeping the staircase of
//     the last two columns in a prefix-minimum Fenwick tree: O(n log n).
//   - 4 or more: Kung's divide and conquer on the lexicographic order,
//     O(n log^(d-2) n), comparing all pairs only in subproblems of a few
//     dozen rows.
//
// Before any sort, one pass drops the rows that a few pivot rows (the best
// row of each column and one near the knee of the front, improving as the
// pass goes) dominate, so on data with a small front the cost is about one
// read of the matrix; when most rows survive the first few thousand, the
// filter stands down.
//
// A length that is not a multiple of dims, dims < 1 or len(maximize) != dims
// is an error wrapping [ErrInvalidMatrix]. An empty matrix gives an empty
// result. values is not modified.
func NonDominated(values []float64, dims int, maximize []bool) ([]int, error) {
	n, err := checkMatrix(values, dims, maximize)
	if err != nil {
		return nil, err
	}
	return nonDominatedRows(values, n, dims, maximize), nil
}

// checkMatrix validates the shape shared by every matrix function with
// directions and returns the number of rows.
func checkMatrix(values []float64, dims int, maximize []bool) (int, error) {
	n, err := checkShape(values, dims)
	if err == nil && len(maximize) != dims {
		err = fmt.Errorf("%w: len(maximize) = %d, want dims = %d", ErrInvalidMatrix, len(maximize), dims)
	}
	return n, err
}

// checkShape validates an n×dims row-major matrix and returns n.
func checkShape(values []float64, dims int) (int, error) {
	if dims < 1 {
		return 0, fmt.Errorf("%w: dims is %d, want at least 1", ErrInvalidMatrix, dims)
	}
	if len(values)%dims != 0 {
		return 0, fmt.Errorf("%w: len(values) = %d is not a multiple of dims = %d", ErrInvalidMatrix, len(values), dims)
	}
	return len(values) / dims, nil
}

// objectiveKey maps a value to a key where smaller is better, whatever the
// column's direction: comparing keys as unsigned integers is comparing the
// values in that direction, with NaN (the largest key) worse than every
// number and -0.0 equal to 0.0. Every kernel compares keys, so the NaN rule
// lives in one place, fastKey.
func objectiveKey(v float64, maximize bool) uint64 {
	var flip uint64
	if maximize {
		flip = math.MaxUint64
	}
	return fastKey(v, flip)
}

// Dominates reports whether objective vector a dominates b over objectives:
// a is at least as good as b on every objective, each in its own direction,
// and strictly better on at least one. Equal vectors do not dominate each
// other; NaN is worse than every number. Both maps must hold every
// objective, checked before any comparison: a missing key is an error
// wrapping [ErrInvalidCandidate] whose Path names it ("b.e2e_latency") even
// when an earlier objective already decides. An invalid objective list
// (empty, pareto in it, repeats) wraps [ErrInvalidParetoObjectives], an
// out-of-range target in it [ErrUnknownTarget]. It costs O(d) map lookups
// for d objectives and allocates nothing unless it fails.
func Dominates(a, b map[string]float64, objectives []OptimizationTarget) (bool, error) {
	if err := checkObjectives(objectives, 1, "objectives"); err != nil {
		return false, err
	}
	for _, t := range objectives {
		key := t.String()
		if _, ok := a[key]; !ok {
			return false, errorf(ErrInvalidCandidate, "a."+key, "a lacks objective %s", key)
		}
		if _, ok := b[key]; !ok {
			return false, errorf(ErrInvalidCandidate, "b."+key, "b lacks objective %s", key)
		}
	}
	strict := false
	for _, t := range objectives {
		key := t.String()
		maximize := t.maximized()
		ka, kb := objectiveKey(a[key], maximize), objectiveKey(b[key], maximize)
		if ka > kb {
			return false, nil
		}
		strict = strict || ka < kb
	}
	return strict, nil
}

// ParetoFront returns the candidates of cands that no other candidate
// dominates over objectives (see [Dominates]). Each candidate's values are
// read by the one rule of every candidate-level function: Objectives[name]
// when Objectives holds the key, else the value [ObjectiveValue] reads from
// Metrics, so candidates made under a scalar goal can be traced on any
// objectives. The front is sorted by the last objective's raw value
// ascending (the x-axis, so the list traces the frontier left to right; NaN
// last), ties in input order; candidates with equal objective vectors are
// all kept. cands is not modified; the result is a new slice whose
// candidates share their maps with cands.
//
// A candidate with no value for an objective (neither the key nor Metrics)
// is an error wrapping [ErrInvalidCandidate] whose Path says
// "candidate N.objectives.<name>" (N its index in cands); no candidate is
// skipped. An invalid objective list (empty, pareto in it, repeats) wraps
// [ErrInvalidParetoObjectives], an out-of-range target in it
// [ErrUnknownTarget].
//
// The front is mergeable: the front of A∪B equals the front of
// front(A)∪front(B), so large pools can be split across workers and merged.
//
// It reads each candidate's values once into a flat matrix and runs the
// engine of [NonDominated] on it, at that engine's cost for n rows of d
// objectives, plus O(n·d) map lookups to read the values.
func ParetoFront(cands []Candidate, objectives []OptimizationTarget) ([]Candidate, error) {
	values, maximize, err := objectiveMatrix(cands, objectives)
	if err != nil {
		return nil, err
	}
	dims := len(objectives)
	recs := frontByAxis(values, len(values)/dims, dims, maximize, ndDefaults)
	front := make([]Candidate, len(recs))
	if len(recs) > len(cands)/4 && len(cands) <= math.MaxInt32 {
		// A front of much of the pool is gathered in input order: reading
		// the candidates in sequence, not in the front's order, saves a
		// cache miss per candidate (on 1e5 candidates in random order,
		// 2.0-2.5 ms against 2.7-4.8 ms).
		at := make([]int32, len(cands)) // 1 + place in the front, 0 if none
		for i, rec := range recs {
			at[rec.aux] = int32(i + 1)
		}
		for row, i := range at {
			if i > 0 {
				front[i-1] = cands[row]
			}
		}
		return front, nil
	}
	for i, rec := range recs {
		front[i] = cands[rec.aux]
	}
	return front, nil
}

// frontByAxis returns the non-dominated rows of a validated matrix laid out
// as objectiveMatrix lays it out, in ParetoFront's order: by the raw value
// of column 0, the x-axis, ascending, NaN last, ties in row order. Each
// record holds the row's key in column 0 and, in aux, the row.
//
// The engine already hands the front back along column 0, so the order costs
// a reversal at most, and a sort of each run of equal values by row; on
// continuous data such runs are copies of one row and rare.
func frontByAxis(values []float64, n, dims int, maximize []bool, t ndTuning) []ndRec {
	front := frontLead(values, n, dims, maximize, t)
	nan := len(front) // NaN has the largest key in either direction
	for nan > 0 && front[nan-1].key == math.MaxUint64 {
		nan--
	}
	if maximize[0] {
		// The keys of a maximized column fall as its values rise.
		slices.Reverse(front[:nan])
	}
	sortTiesByAux(front)
	return front
}

// objectiveMatrix validates objectives and reads every candidate's values
// (by the rule of [ParetoFront]) into a row-major matrix, row i holding
// cands[i], with maximize giving each column's direction.
//
// Column 0 holds the last objective, the x-axis along which fronts are
// listed, and columns 1… the others in order: dominance does not depend on
// the order of the columns, and the engine hands a front back along its
// first. Values are read in the caller's order, so a candidate lacking two
// objectives is reported for the first one the caller listed.
func objectiveMatrix(cands []Candidate, objectives []OptimizationTarget) (values []float64, maximize []bool, err error) {
	if err := checkObjectives(objectives, 1, "objectives"); err != nil {
		return nil, nil, err
	}
	dims := len(objectives)
	maximize = make([]bool, dims)
	for i, t := range objectives {
		maximize[(i+1)%dims] = t.maximized()
	}
	values = make([]float64, len(cands)*dims)
	for i := range cands {
		row := values[i*dims : (i+1)*dims]
		for j, t := range objectives {
			v, ok := cands[i].value(t)
			if !ok {
				return nil, nil, errNoValue(i, t)
			}
			row[(j+1)%dims] = v
		}
	}
	return values, maximize, nil
}

// directions returns each objective's maximize flag; the list is valid.
func directions(objectives []OptimizationTarget) []bool {
	maximize := make([]bool, len(objectives))
	for i, t := range objectives {
		maximize[i] = t.maximized()
	}
	return maximize
}

// sortByAxis orders rows (ascending indices) of a matrix laid out as
// objectiveMatrix lays it out by the raw value of column 0 ascending (see
// compareAxis), ties kept in index order. A front can be the whole pool, so
// it sorts keys by radix, not by comparison.
func sortByAxis(rows []int, values []float64, dims int) {
	recs := make([]ndRec, len(rows))
	for i, r := range rows {
		recs[i] = ndRec{fastKey(values[r*dims], 0), uint64(r)}
	}
	for i, rec := range sortStable(recs, nil) {
		rows[i] = int(rec.aux)
	}
}

// compareAxis orders fronts along their x-axis, the last objective: raw
// values ascending whatever the direction, NaN last, -0.0 equal to 0.0.
func compareAxis(a, b float64) int {
	return cmp.Compare(objectiveKey(a, false), objectiveKey(b, false))
}
