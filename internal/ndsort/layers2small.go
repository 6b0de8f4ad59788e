package ndsort

import (
	"sync"

	"github.com/spica-search/spica/internal/nd"
)

// layers2Small is Layers for two columns and at most nd.SmallLexOrder2Max
// rows, into layer, or false where nd.LexOrder2 does not apply (a NaN, an
// infinite first value, ...). It pays only for what a small call needs:
// no keys, no sort of the pool (nd.LexOrder2 orders the rows by buckets of
// their first values) and no allocation but the caller's layer, its
// scratch being pooled. On a thousand rows it took a fifth of the keyed
// path's time on a line or a sphere (one layer) and under a third on
// uniform rows (62 layers), medians of five alternated runs of the root's
// BenchmarkMoocore.
func layers2Small(values []float64, n int, maximize []bool, layer []int) bool {
	sc := layers2Pool.Get().(*layers2Scratch)
	ok := nd.LexOrder2(values, n, maximize, func(sv [][2]float64, order []uint16) {
		sc.tails = sweepLayers2(sv, order, layer, sc.tails[:0])
	})
	layers2Pool.Put(sc)
	return ok
}

// layers2Scratch is the memory of layers2Small beside nd.LexOrder2's.
type layers2Scratch struct{ tails []float64 }

var layers2Pool = sync.Pool{New: func() any { return new(layers2Scratch) }}

// sweepLayers2 gives each row its layer in one sweep over the rows in
// lexicographic order of their signed values sv (smaller is better): a
// longest-chain computation, the patience sorting of the longest
// non-decreasing subsequence of the second values (D. Aldous and
// P. Diaconis, Bull. Amer. Math. Soc. 36(4), 1999; Jensen's two-column
// sweep is the same computation on keys). It returns tails, its scratch,
// for reuse.
//
// An earlier row that is not a copy of the row dominates it exactly when
// its second value is no larger: its first value is smaller, or equal with
// a smaller second value. A row's layer is one more than the largest layer
// of its dominators, so with tails[l] the least second value placed in
// layer l so far, the layer is the number of l with tails[l] ≤ v1. tails
// never decreases in l, since every row of layer l+1 has a dominator in
// layer l, so that number is a search (tailSet.count); the row then lowers
// tails[layer] to its own second value, or opens a layer. Copies of a row
// are next to it in the order and share its layer.
func sweepLayers2(sv [][2]float64, order []uint16, layer []int, tails []float64) []float64 {
	var prev0, prev1 float64
	ts := tailSet{tails: tails}
	l := 0
	for i, r := range order {
		v0, v1 := sv[r][0], sv[r][1]
		// -0.0 == 0.0 here, as in the keys of package nd.
		if i == 0 || v0 != prev0 || v1 != prev1 {
			l = ts.count(v1)
			ts.set(l, v1)
			prev0, prev1 = v0, v1
		}
		layer[r] = l
	}
	return ts.tails
}

// tailBlock is the width of the blocks of tailSet.
const tailBlock = 8

// tailSet is a non-decreasing list of values with the first of every block
// of tailBlock beside it in heads, so that counting the values at most v
// is two short scans, one of heads and one of a block, whose compares do
// not wait on each other, where a bisection would chain a load and a
// compare per step (on a thousand uniform rows, 62 layers, that chain was
// most of the sweep). Past 16 heads the heads are bisected, which keeps a
// count O(log n) whatever the number of layers.
type tailSet struct {
	tails []float64
	heads [16]float64 // heads[b] = tails[b*tailBlock], for the first 16 blocks
}

// count returns how many tails are at most v.
func (s *tailSet) count(v float64) int {
	t := s.tails
	nb := (len(t) + tailBlock - 1) / tailBlock
	if nb > len(s.heads) {
		return countAtMost(t, v)
	}
	b := 0 // blocks whose head is at most v
	for _, h := range s.heads[:nb] {
		b += nd.OneIf(h <= v)
	}
	if b == 0 {
		return 0
	}
	at := (b - 1) * tailBlock
	return at + countRun(t[at:min(len(t), at+tailBlock)], v)
}

// countRun counts the values of a short run at most v.
func countRun(run []float64, v float64) int {
	c := 0
	for _, x := range run {
		c += nd.OneIf(x <= v)
	}
	return c
}

// set makes v the tail of layer l, a new layer if l is the count of tails.
func (s *tailSet) set(l int, v float64) {
	if l == len(s.tails) {
		s.tails = append(s.tails, v)
	} else {
		s.tails[l] = v
	}
	if l%tailBlock == 0 && l/tailBlock < len(s.heads) {
		s.heads[l/tailBlock] = v
	}
}

// countAtMost returns how many values of t, non-decreasing, are at most v,
// by a bisection without branches, which on uniform data would be
// mispredicted half the time.
func countAtMost(t []float64, v float64) int {
	if len(t) == 0 {
		return 0
	}
	j, n := 0, len(t)
	for n > 1 {
		half := n >> 1
		j += half * nd.OneIf(t[j+half] <= v)
		n -= half
	}
	return j + nd.OneIf(t[j] <= v)
}
