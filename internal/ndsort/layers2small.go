package ndsort

import (
	"math"
	"sync"

	"github.com/spica-search/spica/internal/nd"
)

// layers2Small is Layers for two columns and at most nd.SmallLexOrder2Max
// rows, into layer, or false where nd.LexOrder2 does not apply (a NaN, an
// infinite first value, ...). It pays only for what a small call needs:
// no keys, no comparison sort of the pool (nd.LexOrder2 orders the rows by
// counting sorts on their first values) and no allocation but the caller's
// layer, its scratch being pooled. On a thousand rows it took a fifth of
// the keyed path's time on a line or a sphere (one layer) and under a third
// on uniform rows (62 layers), medians of five alternated runs of the
// root's BenchmarkMoocore.
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
// number of layers. Both scans are written out over a fixed width, the
// heads and the tails past the last layer being NaN, which no value is
// above: loops over the blocks in use took half as many instructions again
// (cachegrind, 1000 uniform rows of 62 layers: 213 a row against 142). A
// row below tails[0], every row of a front, skips both.
func sweepLayers2(sv [][2]float64, order []uint16, layer []int, tails []float64) []float64 {
	nan := math.NaN()
	var heads [16]float64 // heads[b] = tails[b*tailBlock], NaN for a block not open
	for b := range heads {
		heads[b] = nan
	}
	pad := [tailBlock]float64{nan, nan, nan, nan, nan, nan, nan, nan}
	// tails reaches to the end of the block of the next layer to open.
	tails = append(tails[:0], pad[:]...)
	var prev0, prev1 float64
	l, layers := 0, 0
	for i, r := range order {
		v0, v1 := sv[r][0], sv[r][1]
		// -0.0 == 0.0 here, as in the keys of package nd.
		if i > 0 && v0 == prev0 && v1 == prev1 {
			layer[r] = l
			continue
		}
		prev0, prev1 = v0, v1
		switch {
		case tails[0] > v1: // below every layer's tail: layer 0, which is open
			l, tails[0], heads[0] = 0, v1, v1
			layer[r] = 0
			continue
		case layers > tailBlock*len(heads):
			l = countAtMost(tails[:layers], v1)
		default:
			l = 0
			if layers > tailBlock {
				// Blocks whose head is at most v1; with none, every tail
				// is above v1, block 0's too. (With one block, a row
				// above all its tails counts tailBlock in it.)
				h := &heads
				b := nd.OneIf(h[0] <= v1) + nd.OneIf(h[1] <= v1) + nd.OneIf(h[2] <= v1) + nd.OneIf(h[3] <= v1) +
					nd.OneIf(h[4] <= v1) + nd.OneIf(h[5] <= v1) + nd.OneIf(h[6] <= v1) + nd.OneIf(h[7] <= v1)
				if layers > tailBlock*8 {
					b += nd.OneIf(h[8] <= v1) + nd.OneIf(h[9] <= v1) + nd.OneIf(h[10] <= v1) + nd.OneIf(h[11] <= v1) +
						nd.OneIf(h[12] <= v1) + nd.OneIf(h[13] <= v1) + nd.OneIf(h[14] <= v1) + nd.OneIf(h[15] <= v1)
				}
				l = max(b-1, 0) * tailBlock
			}
			t := (*[tailBlock]float64)(tails[l : l+tailBlock])
			l += nd.OneIf(t[0] <= v1) + nd.OneIf(t[1] <= v1) + nd.OneIf(t[2] <= v1) + nd.OneIf(t[3] <= v1) +
				nd.OneIf(t[4] <= v1) + nd.OneIf(t[5] <= v1) + nd.OneIf(t[6] <= v1) + nd.OneIf(t[7] <= v1)
		}
		if l == layers {
			if layers++; layers%tailBlock == 0 {
				tails = append(tails, pad[:]...)
			}
		}
		tails[l] = v1
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
