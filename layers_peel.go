package spica

// peelShare decides how long sortLayersPeel peels: a layer the front engine
// finds is taken as long as it holds at least 1/peelShare of the rows it was
// found among. A variable so that tests can force either path.
var peelShare = 8

// sortLayersPeel is non-dominated sorting for four or more columns that
// peels large layers off with the front engine of [NonDominated] before
// ENS-BS (sortLayersENS) takes over. ENS-BS asks a layer by scanning its
// members, so a layer of k rows costs up to k comparisons per later row: a
// single-layer input of n rows costs n²/2. Removing the rows of layers
// 0..l−1 leaves every other row's layer less by l (a row's layer is the
// length of the longest dominance chain ending at it, and every chain
// through a removed row starts with removed rows only), so peeling a large
// layer costs one front computation, and a single-layer input costs about
// one [NonDominated]. Peeling stops at the first layer holding less than
// 1/peelShare of the rows left, where many thin layers would make repeated
// front computations the larger cost; the rest, usually most of uniform
// data, goes to ENS-BS.
func sortLayersPeel(values []float64, n, dims int, maximize []bool, layer []int) {
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	sub := values
	for l := 0; ; l++ {
		m := len(rows)
		front := nonDominatedRows(sub, m, dims, maximize)
		for _, f := range front {
			layer[rows[f]] = l
		}
		if len(front) == m {
			return
		}
		// Compact the rows left, in their order, into a fresh matrix: sub
		// may be the caller's values, which must not change.
		rest := make([]float64, 0, (m-len(front))*dims)
		kept := 0
		next := 0 // index into front, which ascends
		for r := range m {
			if next < len(front) && front[next] == r {
				next++
				continue
			}
			rest = append(rest, sub[r*dims:(r+1)*dims]...)
			rows[kept] = rows[r]
			kept++
		}
		rows, sub = rows[:kept], rest
		if len(front)*peelShare < m {
			keys := sortedKeys(sub, kept, dims, maximize)
			inner := make([]int, kept)
			sortLayersENS(keys.rows, keys.order, dims, inner)
			for r, li := range inner {
				layer[rows[r]] = l + 1 + li
			}
			return
		}
	}
}
