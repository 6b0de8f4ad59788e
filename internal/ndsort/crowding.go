package ndsort

import (
	"math"

	"github.com/spica-search/spica/internal/nd"
)

// Crowding returns the NSGA-II crowding distance of each row of a valid
// n×dims row-major matrix within the set of its rows (K. Deb, A. Pratap,
// S. Agarwal, T. Meyarivan, "A fast and elitist multiobjective genetic
// algorithm: NSGA-II", IEEE Trans. Evol. Comput. 6(2), 2002), by the rules
// the root's CrowdingDistance states: per column, the rows whose value is
// not NaN in value order (ties by row), +Inf at the ends of a column that
// separates rows, the gap of an interior row's neighbours over the range
// inside. Each column is ordered by a radix sort: O(d n).
func Crowding(values []float64, n, dims int) []float64 {
	dist := make([]float64, n)
	if n <= 2 {
		for i := range dist {
			dist[i] = math.Inf(1)
		}
		return dist
	}
	recs := make([]nd.Rec, 2*n)
	v := make([]float64, n)
	for j := 0; j < dims; j++ {
		col := recs[:0]
		for i := 0; i < n; i++ {
			if x := values[i*dims+j]; x == x {
				col = append(col, nd.Rec{Key: nd.FastKey(x, 0), Aux: uint64(i)})
			}
		}
		if len(col) < 2 {
			continue
		}
		// The key order is the float order with -0.0 equal to 0.0; equal
		// values then go in row order, which decides the ends.
		col, _ = nd.SortRecs(col, recs[n:n+len(col)])
		nd.SortTiesByAux(col)
		v = v[:len(col)]
		for r, e := range col {
			v[r] = values[int(e.Aux)*dims+j]
		}
		lo, hi := v[0], v[len(v)-1]
		if lo == hi {
			continue
		}
		dist[col[0].Aux] = math.Inf(1)
		dist[col[len(col)-1].Aux] = math.Inf(1)
		for r := 1; r < len(col)-1; r++ {
			dist[col[r].Aux] += crowdingTerm(v[r-1], v[r+1], lo, hi)
		}
	}
	return dist
}

// crowdingTerm is one interior row's share of a column: the gap between its
// neighbours prev <= next over the range lo < hi, with the infinite cases
// resolved so that the result is never NaN (see [Crowding]).
func crowdingTerm(prev, next, lo, hi float64) float64 {
	switch {
	case prev == next:
		return 0 // also two equal infinities, whose difference would be NaN
	case math.IsInf(prev, 0) || math.IsInf(next, 0):
		return math.Inf(1)
	case math.IsInf(lo, 0) || math.IsInf(hi, 0):
		return 0
	}
	if span := hi - lo; !math.IsInf(span, 0) {
		return (next - prev) / span
	}
	// Finite bounds more than MaxFloat64 apart: halving every value keeps
	// the quotient and brings the range back into float64.
	return (next/2 - prev/2) / (hi/2 - lo/2)
}
