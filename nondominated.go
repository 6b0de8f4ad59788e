package spica

// nonDominatedRows is the engine behind [NonDominated]: the indices of the
// non-dominated rows of an already validated n×dims matrix, ascending.
func nonDominatedRows(values []float64, n, dims int, maximize []bool) []int {
	keys := make([]uint64, n*dims)
	for i, v := range values {
		keys[i] = objectiveKey(v, maximize[i%dims])
	}
	front := make([]int, 0)
	for i := 0; i < n; i++ {
		a := keys[i*dims : (i+1)*dims]
		dominated := false
		for j := 0; j < n && !dominated; j++ {
			dominated = j != i && keysDominate(keys[j*dims:(j+1)*dims], a)
		}
		if !dominated {
			front = append(front, i)
		}
	}
	return front
}

// keysDominate reports whether key row a dominates key row b: no worse in
// every column and strictly better in one.
func keysDominate(a, b []uint64) bool {
	strict := false
	for k, ka := range a {
		kb := b[k]
		if ka > kb {
			return false
		}
		if ka < kb {
			strict = true
		}
	}
	return strict
}
