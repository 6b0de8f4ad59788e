package spica

import (
	"cmp"
	"math"

	"github.com/spica-search/spica/internal/nd"
)

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
		ka, kb := nd.ObjectiveKey(a[key], maximize), nd.ObjectiveKey(b[key], maximize)
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
	recs := nd.FrontByAxis(values, len(values)/dims, dims, maximize)
	front := make([]Candidate, len(recs))
	if gatherInPoolOrder(len(recs), len(cands)) {
		at := make([]int32, len(cands)) // 1 + place in the front, 0 if none
		for i, rec := range recs {
			at[rec.Aux] = int32(i + 1)
		}
		for row, i := range at {
			if i > 0 {
				front[i-1] = cands[row]
			}
		}
		return front, nil
	}
	for i, rec := range recs {
		front[i] = cands[rec.Aux]
	}
	return front, nil
}

// gatherInPoolOrder reports whether ParetoFront gathers a front of front
// candidates out of a pool of pool by reading the pool in sequence, not in
// the front's order: for a front of more than a quarter of the pool, which
// saves a cache miss per candidate (on 1e5 candidates in random order,
// 2.0-2.5 ms against 2.7-4.8 ms), and for pools whose places fit the
// int32s it marks them with.
func gatherInPoolOrder(front, pool int) bool {
	return front > pool/4 && pool <= math.MaxInt32
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
	recs := make([]nd.Rec, len(rows))
	for i, r := range rows {
		recs[i] = nd.Rec{Key: nd.FastKey(values[r*dims], 0), Aux: uint64(r)}
	}
	for i, rec := range nd.SortStable(recs, nil) {
		rows[i] = int(rec.Aux)
	}
}

// compareAxis orders fronts along their x-axis, the last objective: raw
// values ascending whatever the direction, NaN last, -0.0 equal to 0.0.
func compareAxis(a, b float64) int {
	return cmp.Compare(nd.ObjectiveKey(a, false), nd.ObjectiveKey(b, false))
}
