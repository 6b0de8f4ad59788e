package ndsort

import (
	"slices"
	"sync"

	"github.com/spica-search/spica/internal/nd"
)

// layersBitsMax and layersBits3Max are the most rows layersBits takes with
// four or more columns and with three. Its sets hold a word per 64 rows
// for every row, O(n²) bits (8 MiB at 8192 rows, pooled), and its time
// grows as n², where the divide and conquer and the staircases grow as
// n log n: against them, in one run on uniform rows (U) and rows of a
// sphere (S), in ms,
//
//	rows   U3           U4           S4           U5            U6
//	1000   0.10 / 0.22  0.11 / 0.63  0.09 / 0.27  0.15 / 0.82   0.16 / 0.93
//	2048   0.28 / 0.41  0.33 / 1.44  0.24 / 0.60  0.38 / 2.21   0.45 / 2.41
//	4096   1.11 / 1.01  1.23 / 3.39  0.82 / 1.59  1.51 / 6.55   1.51 / 8.16
//	8192   3.60 / 2.09  3.98 / 6.67  3.19 / 4.13  4.59 / 14.8   5.15 / 19.5
//
// Tests set them to 0 to send small inputs the other ways.
var layersBitsMax, layersBits3Max = 8192, 2048

// layersBits is Layers for three or more columns and at most layersBitsMax
// rows, into layer, by the dominance sets of merge non-dominated sorting
// (J. Moreno, D. Rodriguez, A. J. Nebro, J. A. Lozano, "Merge nondominated
// sorting algorithm for many-objective optimization", IEEE Trans.
// Cybernetics 51(12), 2021) kept as bits, as nd's maximaBits keeps them
// for the front: O(m² (d−1) / 64) word operations for m distinct rows,
// with none of the divide and conquer's set-up, which dominates a call of
// a thousand rows.
//
// The distinct rows are numbered in lexicographic order of their keys, a
// linear extension of dominance. A row's set of dominators starts as the
// rows numbered before it and, for each further column, is cut by an AND
// with the rows no worse in that column, gathered by a walk in that
// column's order. What is left is exactly the row's dominators: no worse
// everywhere, and, being distinct and earlier, strictly better somewhere.
// A row's layer is then the first layer holding none of its dominators,
// found by a binary search over the layers' sets, since a row with a
// dominator in layer l has one in every layer above it. Copies of a row
// take its layer.
func layersBits(values []float64, n, dims int, maximize []bool, layer []int) {
	sc := bitsPool.Get().(*bitsScratch)
	defer bitsPool.Put(sc)
	keys := nd.Grow(&sc.keys, n*dims)
	for c, up := range maximize {
		flip := uint64(0)
		if up {
			flip = ^flip
		}
		for i := c; i < n*dims; i += dims {
			keys[i] = nd.FastKey(values[i], flip)
		}
	}
	recs := nd.Grow(&sc.recs, 2*n)
	lex, _ := nd.LexSortInto(recs, keys, dims, n)
	// Distinct rows, numbered in lexicographic order: their keys side by
	// side in uniq, and of each row its number in id.
	uniq, id := nd.Grow(&sc.uniq, n*dims)[:0], nd.Grow(&sc.id, n)
	m := 0
	for i, rec := range lex {
		r := int(rec.Aux)
		row := keys[r*dims : (r+1)*dims]
		if i == 0 || !slices.Equal(row, uniq[(m-1)*dims:m*dims]) {
			uniq = append(uniq, row...)
			m++
		}
		id[r] = m - 1
	}
	words := (m + 63) / 64
	// sets[k*words:] is the set of row k, of which only the words up to k's
	// own can be non-zero; seen gathers a walk's rows.
	sets, seen := nd.Grow(&sc.sets, m*words), nd.Grow(&sc.seen, words)
	for k := range m {
		set := sets[k*words : k*words+k>>6+1]
		for w := range set {
			set[w] = ^uint64(0)
		}
		set[k>>6] = 1<<(k&63) - 1
	}
	recs = recs[:2*m] // lex is done with
	for c := 1; c < dims; c++ {
		for k := range m {
			recs[k] = nd.Rec{Key: uniq[k*dims+c], Aux: uint64(k)}
		}
		sorted, _ := nd.SortRecs(recs[:m], recs[m:])
		clear(seen)
		for lo := 0; lo < m; {
			hi := nd.KeyRunEnd(sorted, lo)
			for _, rec := range sorted[lo:hi] {
				seen[rec.Aux>>6] |= 1 << (rec.Aux & 63)
			}
			for _, rec := range sorted[lo:hi] {
				k := int(rec.Aux)
				set := sets[k*words : k*words+k>>6+1]
				for w := range set {
					set[w] &= seen[w]
				}
			}
			lo = hi
		}
	}
	// layers[l*words:] is the set of layer l's rows.
	layers := nd.Grow(&sc.layers, 0)
	rank := nd.Grow(&sc.rank, m)
	for k := range m {
		set := sets[k*words : k*words+k>>6+1]
		lo, hi := 0, len(layers)/words
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if meets(set, layers[mid*words:]) {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo == len(layers)/words {
			layers = append(layers, make([]uint64, words)...)
		}
		layers[lo*words+k>>6] |= 1 << (k & 63)
		rank[k] = lo
	}
	sc.layers = layers
	for r := range n {
		layer[r] = rank[id[r]]
	}
}

// meets reports whether set and the leading words of other share a bit.
func meets(set, other []uint64) bool {
	other = other[:len(set)]
	var common uint64
	for w, b := range set {
		common |= b & other[w]
	}
	return common != 0
}

// bitsScratch is the memory of layersBits but the caller's layer, pooled.
type bitsScratch struct {
	keys, uniq, sets, seen, layers []uint64
	id, rank                       []int
	recs                           []nd.Rec
}

var bitsPool = sync.Pool{New: func() any { return new(bitsScratch) }}
