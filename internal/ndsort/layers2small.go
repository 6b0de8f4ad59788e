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
// layer l; the row then lowers tails[layer] to its own second value, or
// opens a layer. Copies of a row are next to it in the order and share its
// layer.
//
// The count is two short scans, of heads, the first tail of every block of
// tailBlock, then of one block, whose compares do not wait on each other,
// where a bisection would chain a load and a compare per step; past
// len(heads) blocks it is a bisection, which keeps it O(log n) whatever the
// number of layers. A row below tails[0], every row of a front, skips
// both. The loop is written out in one function: on a thousand rows (in
// ns, min of 400 alternated timings) a bisection took 30.4 k uniform
// (62 layers) and 9.5 k on a line (one layer), the scans behind method
// calls 20.5 k and 7.2 k, and this 16.4 k and 5.8 k.
func sweepLayers2(sv [][2]float64, order []uint16, layer []int, tails []float64) []float64 {
	var heads [16]float64 // heads[b] = tails[b*tailBlock]
	var prev0, prev1 float64
	l := 0
	for i, r := range order {
		v0, v1 := sv[r][0], sv[r][1]
		// -0.0 == 0.0 here, as in the keys of package nd.
		if i > 0 && v0 == prev0 && v1 == prev1 {
			layer[r] = l
			continue
		}
		prev0, prev1 = v0, v1
		switch nb := (len(tails) + tailBlock - 1) / tailBlock; {
		case len(tails) > 0 && tails[0] > v1:
			l = 0
		case nb > len(heads):
			l = countAtMost(tails, v1)
		default:
			b := 0 // blocks whose head is at most v1
			for _, h := range heads[:nb] {
				b += nd.OneIf(h <= v1)
			}
			// With no such block every tail is above v1, block 0's too.
			l = max(b-1, 0) * tailBlock
			for _, t := range tails[l:min(len(tails), l+tailBlock)] {
				l += nd.OneIf(t <= v1)
			}
		}
		if l == len(tails) {
			tails = append(tails, v1)
		} else {
			tails[l] = v1
		}
		if l%tailBlock == 0 && l < tailBlock*len(heads) {
			heads[l/tailBlock] = v1
		}
		layer[r] = l
	}
	return tails
}

// tailBlock is the width of the blocks of tails that sweepLayers2 scans.
const tailBlock = 8

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
