package spica

import (
	"cmp"
	"slices"

	"github.com/spica-search/spica/internal/ndsort"
)

// SelectN returns the indices, ascending, of the best k rows of an n×dims
// row-major matrix by NSGA-II survival (K. Deb, A. Pratap, S. Agarwal,
// T. Meyarivan, "A fast and elitist multiobjective genetic algorithm:
// NSGA-II", IEEE Trans. Evol. Comput. 6(2), 2002): whole non-domination
// layers ([NonDominatedSort]) in order while they fit, then, from the first
// layer that does not fit, the rows with the largest [CrowdingDistance]
// within that layer, ties toward the lower index. It answers "the best k
// configurations" of a multi-objective search, spread along the front.
// k >= n returns every row; k < 0 is an error wrapping [ErrInvalidMatrix]
// with Path "k", as are the shape errors of [NonDominated].
//
// It costs one [NonDominatedSort] plus O(d·m + m log m) for the m rows of
// the layer that is cut. values and maximize are not modified.
func SelectN(values []float64, dims int, maximize []bool, k int) ([]int, error) {
	n, err := checkMatrix(values, dims, maximize)
	if err != nil {
		return nil, err
	}
	if k < 0 {
		return nil, errorf(ErrInvalidMatrix, "k", "is %d, want a count >= 0", k)
	}
	if k >= n {
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		return all, nil
	}
	layer := ndsort.Layers(values, n, dims, maximize)
	// size[l] rows are in layer l; the layers below cut fit whole.
	var size []int
	for _, l := range layer {
		for len(size) <= l {
			size = append(size, 0)
		}
		size[l]++
	}
	cut, taken := 0, 0
	for taken+size[cut] <= k {
		taken += size[cut]
		cut++
	}
	out := make([]int, 0, k)
	var last []int // the rows of the cut layer, ascending
	for i, l := range layer {
		switch {
		case l < cut:
			out = append(out, i)
		case l == cut:
			last = append(last, i)
		}
	}
	if rest := k - taken; rest > 0 {
		sub := make([]float64, len(last)*dims)
		for p, i := range last {
			copy(sub[p*dims:(p+1)*dims], values[i*dims:(i+1)*dims])
		}
		dist, _ := CrowdingDistance(sub, dims) // the shape is already checked
		order := make([]int, len(last))
		for p := range order {
			order[p] = p
		}
		// Positions in last are ascending row indices, so breaking ties by
		// position breaks them by index.
		slices.SortFunc(order, func(a, b int) int {
			return cmp.Or(cmp.Compare(dist[b], dist[a]), cmp.Compare(a, b))
		})
		for _, p := range order[:rest] {
			out = append(out, last[p])
		}
		slices.Sort(out)
	}
	return out, nil
}
