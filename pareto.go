package spica

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Dominates reports whether objective vector a dominates b over objectives:
// a is at least as good as b on every objective, each in its own direction,
// and strictly better on at least one. Equal vectors do not dominate each
// other; NaN is worse than every number. A vector lacking one of the
// objectives is an error wrapping [ErrInvalidCandidate] that names the key;
// an invalid objective list (empty, pareto in it, unknown, repeats) wraps
// [ErrInvalidParetoObjectives]. It allocates nothing unless it fails.
func Dominates(a, b map[string]float64, objectives []OptimizationTarget) (bool, error) {
	if err := checkObjectives(objectives, 1); err != nil {
		return false, err
	}
	strict := false
	for _, t := range objectives {
		key := t.String()
		va, okA := a[key]
		vb, okB := b[key]
		switch {
		case !okA:
			return false, fmt.Errorf("%w: a lacks objective %q", ErrInvalidCandidate, key)
		case !okB:
			return false, fmt.Errorf("%w: b lacks objective %q", ErrInvalidCandidate, key)
		}
		maximize := t.maximized()
		ka, kb := objectiveKey(va, maximize), objectiveKey(vb, maximize)
		if ka > kb {
			return false, nil
		}
		strict = strict || ka < kb
	}
	return strict, nil
}

// ParetoFront returns the candidates of cands that no other candidate
// dominates over objectives (see [Dominates]). Only candidates with non-nil
// Objectives take part. The front is sorted by the last objective's raw
// value ascending (the x-axis, so the list traces the frontier left to
// right; NaN last), ties in input order; candidates with equal objective
// vectors are all kept. cands is not modified; the result is a new slice
// whose candidates share their maps with cands.
//
// A pool candidate lacking one of the objectives is an error wrapping
// [ErrInvalidCandidate] that says "candidate N" (its index in cands) and
// names the key; an invalid objective list (empty, pareto in it, unknown,
// repeats) wraps [ErrInvalidParetoObjectives].
//
// The front is mergeable: the front of A∪B equals the front of
// front(A)∪front(B), so large pools can be split across workers and merged.
//
// It reads each candidate's values once into a flat matrix and runs the
// engine of [NonDominated] on it.
func ParetoFront(cands []Candidate, objectives []OptimizationTarget) ([]Candidate, error) {
	values, maximize, pool, err := objectiveMatrix(cands, objectives)
	if err != nil {
		return nil, err
	}
	dims := len(objectives)
	recs := frontByAxis(values, len(values)/dims, dims, maximize, ndDefaults)
	front := make([]Candidate, len(recs))
	if pool == nil && len(recs) > len(cands)/4 && len(cands) <= math.MaxInt32 {
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
		front[i] = cands[candidateOf(pool, int(rec.aux))]
	}
	return front, nil
}

// candidateOf maps a row of objectiveMatrix back to its index in cands.
func candidateOf(pool []int, row int) int {
	if pool == nil {
		return row
	}
	return pool[row]
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

// objectiveMatrix validates objectives and reads the pool (candidates with
// non-nil Objectives) into a row-major matrix, with maximize giving each
// column's direction. pool[row] is the row's index in cands, and pool is nil
// when every candidate is in the pool (row i is candidate i).
//
// Column 0 holds the last objective, the x-axis along which fronts are
// listed, and columns 1… the others in order: dominance does not depend on
// the order of the columns, and the engine hands a front back along its
// first.
func objectiveMatrix(cands []Candidate, objectives []OptimizationTarget) (values []float64, maximize []bool, pool []int, err error) {
	if err := checkObjectives(objectives, 1); err != nil {
		return nil, nil, nil, err
	}
	dims := len(objectives)
	keys := make([]string, dims)
	maximize = make([]bool, dims)
	for i, t := range objectives {
		c := (i + 1) % dims
		keys[c] = t.String()
		maximize[c] = t.maximized()
	}
	values = make([]float64, 0, len(cands)*dims)
	skipped := false
	for i := range cands {
		obj := cands[i].Objectives
		if obj == nil {
			if !skipped {
				// From here on rows and candidates part: record which is which.
				pool = make([]int, i, len(cands))
				for j := range pool {
					pool[j] = j
				}
				skipped = true
			}
			continue
		}
		for _, key := range keys {
			v, ok := obj[key]
			if !ok {
				return nil, nil, nil, errLacksObjective(i, firstMissing(obj, objectives))
			}
			values = append(values, v)
		}
		if skipped {
			pool = append(pool, i)
		}
	}
	return values, maximize, pool, nil
}

// firstMissing is the first of objectives, in the order given, that obj
// lacks ("" if none).
func firstMissing(obj map[string]float64, objectives []OptimizationTarget) string {
	for _, t := range objectives {
		if _, ok := obj[t.String()]; !ok {
			return t.String()
		}
	}
	return ""
}

// errLacksObjective is the error for candidate i of a pool, which lacks the
// objective named key.
func errLacksObjective(i int, key string) error {
	return fmt.Errorf("%w: candidate %d lacks objective %q", ErrInvalidCandidate, i, key)
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
