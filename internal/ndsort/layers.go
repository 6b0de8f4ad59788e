package ndsort

import (
	"math/bits"
	"slices"
	"sort"

	"github.com/spica-search/spica/internal/nd"
)

// Layers returns each row's non-domination layer in a valid n×dims
// row-major matrix, maximize giving each column's direction: 0 for the rows
// no other row dominates, 1 for the front of the rest, and so on; equal rows
// share a layer. It is the root's NonDominatedSort without its checks.
//
// Every algorithm first sorts the rows lexicographically by their keys (a
// radix sort on the first key, then a comparison sort within runs of equal
// first keys, which are short unless the data is degenerate), so that every
// row that dominates another comes before it and copies of a row are
// neighbours:
//
//   - One column: the layer is the rank of the row's distinct value.
//   - Two columns: Jensen's sweep, O(n log n) (M. T. Jensen, "Reducing the
//     run-time complexity of multiobjective EAs: the NSGA-II and other
//     algorithms", IEEE Trans. Evol. Comput. 7(5), 2003). Within a layer the
//     second key falls as the first rises, so the last row placed in a layer
//     dominates a later row if any member does; a binary search over the
//     layers' last rows finds the first layer that does not dominate it.
//     A small matrix skips the keys and the sort (layers2Small).
//   - Three or more columns, up to 2048 rows with three and 8192 with
//     more: the dominance sets of merge non-dominated sorting as bit sets,
//     and each row's layer by a binary search over the layers' sets
//     (layersBits), O(n² d / 64) word operations and no allocation.
//   - Three columns, above that: efficient non-dominated sort with binary
//     search, ENS-BS (X. Zhang, Y. Tian, R. Cheng, Y. Jin, "An efficient
//     approach to nondominated sorting for evolutionary multiobjective
//     optimization", IEEE Trans. Evol. Comput. 19(2), 2015). Each row goes into the first
//     layer none of whose members dominates it, found by binary search over
//     the layers built so far. A layer keeps only the staircase of its
//     members' last two keys, and asking it is itself a binary search:
//     O(n log² n) comparisons. Staircases are kept in blocks of a few
//     hundred steps, so an insertion also moves up to a block's steps and
//     the block list: O(n·(b + n/b)) words for blocks of b steps in the
//     worst case, a small share of the time below millions of rows.
//   - Four or more columns, above that: layer 0 by the front engine
//     (nd.Front), then divide and conquer over the keys of the other rows
//     (sortLayersDC), O(n log^(d−1) n). The divide and conquer replaced
//     ENS-BS behind a peel of large layers by the front engine, whose scan
//     of a layer's members cost O(n² d) on many layers: in two runs it was
//     4–6× faster on uniform data of 1e5 rows with 4 and 5 columns. Peeling
//     every layer by the front engine lost on uniform data (1e5 rows: 785
//     against 207 ms with 4 columns, 1379 against 717 ms with 5). Peeling
//     layer 0 alone costs little there, where the front is small and found
//     fast, and on single-layer data it is the whole call: since the front
//     engine settles halves by bit sets, that is about 0.6 of the divide
//     and conquer (sphere, 1e4 rows, 6 columns: 40.3 against 24.6 ms,
//     medians of three interleaved runs; uniform, 1e5 rows, 4 and 5
//     columns: level).
func Layers(values []float64, n, dims int, maximize []bool) []int {
	layer := make([]int, n)
	if n == 0 {
		return layer
	}
	switch engineFor(n, dims) {
	case bitsEngine:
		layersBits(values, n, dims, maximize, layer)
		return layer
	case peeledEngine:
		return peeledLayersDC(values, n, dims, maximize, layer)
	case small2Engine:
		if layers2Small(values, n, maximize, layer) {
			return layer
		}
	}
	keys := sortedKeys(values, n, dims, maximize)
	switch dims {
	case 1:
		sortLayers1(keys.rows, keys.order, layer)
	case 2:
		sortLayers2(keys.rows, keys.order, layer)
	case 3:
		sortLayers3(keys.rows, keys.order, layer)
	}
	return layer
}

// layersEngine is one of the ways Layers sorts, as its godoc lays out.
type layersEngine int

const (
	keyedEngine  layersEngine = iota // sortedKeys, then sortLayers1, 2 or 3
	bitsEngine                       // layersBits
	peeledEngine                     // peeledLayersDC
	small2Engine                     // layers2Small, or keyedEngine where it declines
)

// engineFor is the way Layers sorts n rows of dims columns: every way gives
// the same layers, so the choice is one of speed, and TestEngineFor pins it.
func engineFor(n, dims int) layersEngine {
	if dims >= 4 && n <= layersBitsMax || dims == 3 && n <= layersBits3Max {
		return bitsEngine
	}
	if dims >= 4 {
		return peeledEngine
	}
	if dims == 2 && n <= nd.SmallLexOrder2Max {
		return small2Engine
	}
	return keyedEngine
}

// peeledLayersDC is Layers for four or more columns, into
// layer, zeroed: layer 0 by the front engine, the other rows by the divide
// and conquer among themselves, one layer deeper. That is exact: a chain
// of dominating rows that is longest for its last row starts on layer 0
// (a dominated first row could be preceded by a row dominating it), and
// every chain among the other rows extends below by a row of layer 0 (a
// dominated row is dominated by some non-dominated row), so a row's
// longest chain among the other rows is one row shorter.
func peeledLayersDC(values []float64, n, dims int, maximize []bool, layer []int) []int {
	front := nd.Front(values, n, dims, maximize)
	if len(front) == n {
		return layer
	}
	onFront := make([]bool, n)
	for _, r := range front {
		onFront[r] = true
	}
	keys := sortedKeys(values, n, dims, maximize)
	m := 0
	for r, i := range keys.order {
		if !onFront[i] {
			copy(keys.rows[m*dims:(m+1)*dims], keys.rows[r*dims:(r+1)*dims])
			keys.order[m] = i
			m++
		}
	}
	sortLayersDC(slices.Clip(keys.rows[:m*dims]), keys.order[:m], dims, layer)
	for _, i := range keys.order[:m] {
		layer[i]++
	}
	return layer
}

// sortedRows is a matrix of keys with its rows in lexicographic order:
// rows[r*dims:(r+1)*dims] holds the keys of input row order[r].
type sortedRows struct {
	rows  []uint64
	order []int
}

// sortedKeys turns values into keys and sorts the rows lexicographically
// with the engine's sort (see nd.LexSort). Lexicographic order is a linear
// extension of dominance: a dominating row has no larger key anywhere and a
// smaller one somewhere, so it sorts first, and copies of one row sort next
// to each other.
func sortedKeys(values []float64, n, dims int, maximize []bool) sortedRows {
	keys := nd.KeyMatrix(values, dims, nd.KeyFlips(maximize))
	lex, _ := nd.LexSort(keys, dims, n)
	// Copy the rows into sorted order so the sweeps read memory in sequence.
	s := sortedRows{rows: make([]uint64, n*dims), order: make([]int, n)}
	for r, rec := range lex {
		i := int(rec.Aux)
		s.order[r] = i
		copy(s.rows[r*dims:(r+1)*dims], keys[i*dims:(i+1)*dims])
	}
	return s
}

// sortLayers1 ranks the distinct keys of a one-column matrix.
func sortLayers1(rows []uint64, order []int, layer []int) {
	l := 0
	for r, i := range order {
		if r > 0 && rows[r] != rows[r-1] {
			l++
		}
		layer[i] = l
	}
}

// sortLayers2 is Jensen's two-column sweep. last0 and last1 hold the keys of
// the row placed last in each layer. Rows arrive in lexicographic order, so a
// layer's last row has the smallest second key of its members and dominates
// the new row whenever any member does (a member with the same first key
// and a smaller second key, or a smaller first key and no larger second
// key). Whether it does is monotone in the layer, because each layer's last
// row is no worse in the second key than the next layer's.
func sortLayers2(rows []uint64, order []int, layer []int) {
	var last0, last1 []uint64
	for r, i := range order {
		k0, k1 := rows[2*r], rows[2*r+1]
		// The last row of a layer came earlier, so its first key is no larger;
		// it dominates unless it is an exact copy or has a larger second key.
		l := sort.Search(len(last1), func(l int) bool {
			return last1[l] > k1 || (last1[l] == k1 && last0[l] == k0)
		})
		if l == len(last1) {
			last0 = append(last0, k0)
			last1 = append(last1, k1)
		} else {
			last0[l], last1[l] = k0, k1
		}
		layer[i] = l
	}
}

// sortLayers3 is ENS-BS for three columns with each layer reduced to a
// staircase. Rows arrive in lexicographic order, so an earlier row that is
// not a copy dominates the new one exactly when it is no worse in the last
// two keys; of a layer's members only those minimal in those two keys can
// dominate anything the others do, and they form a staircase: rising in the
// second key, strictly falling in the third. Asking whether a layer
// dominates a row is then a binary search, not a scan.
func sortLayers3(rows []uint64, order []int, layer []int) {
	var stairs []layerStairs
	for r, i := range order {
		p := rows[3*r : 3*r+3]
		if r > 0 && slices.Equal(rows[3*r-3:3*r], p) {
			// A copy is not dominated by its twin, which the staircase
			// test below would claim, and shares its layer.
			layer[i] = layer[order[r-1]]
			continue
		}
		step := stairStep{p[1], p[2]}
		l := sort.Search(len(stairs), func(l int) bool {
			return !stairs[l].dominates(step)
		})
		if l == len(stairs) {
			stairs = append(stairs, layerStairs{})
		}
		stairs[l].insert(step)
		layer[i] = l
	}
}

// stairStep is the last two keys of a row.
type stairStep struct{ k1, k2 uint64 }

// layerStairs is one layer's staircase: a set of steps in which none is no
// larger than another in both keys, kept in ascending k1 (hence strictly
// descending k2). It is
// stored in blocks of at most 2·stairBlock steps, so that an insertion
// moves the steps of one block and the list of blocks rather than all the
// steps of a flat slice, which rows arriving at its front would make
// quadratic.
type layerStairs struct {
	blocks [][]stairStep // all non-empty
	// spare, if not nil, holds emptied blocks for new ones to reuse: the
	// divide and conquer of sortLayersDC builds and drops staircases by the
	// thousand, and only it resets them.
	spare *[][]stairStep
}

// newBlock returns an empty block, a spare one if there is one.
func (s *layerStairs) newBlock() []stairStep {
	if s.spare != nil && len(*s.spare) > 0 {
		free := *s.spare
		blk := free[len(free)-1]
		*s.spare = free[:len(free)-1]
		return blk[:0]
	}
	return make([]stairStep, 0, stairBlock)
}

// reset empties the staircase, giving its blocks to spare, which must not
// be nil.
func (s *layerStairs) reset() {
	*s.spare = append(*s.spare, s.blocks...)
	clear(s.blocks)
	s.blocks = s.blocks[:0]
}

const stairBlock = 256

// dominates reports whether some step is no larger than p in both keys.
// The step with the largest k1 not above p's has the smallest k2 of all
// such steps, so it alone decides.
func (s *layerStairs) dominates(p stairStep) bool {
	// The last block whose first step has k1 ≤ p's (by the bisection of
	// stepsAtMost), and its last such step.
	blocks := s.blocks
	if len(blocks) == 0 || blocks[0][0].k1 > p.k1 {
		return false
	}
	b, n := 0, len(blocks)
	for n > 1 {
		half := n >> 1
		_, above := bits.Sub64(p.k1, blocks[b+half][0].k1, 0)
		b += half &^ -int(above)
		n -= half
	}
	blk := blocks[b]
	return blk[stepsAtMost(blk, p.k1)-1].k2 <= p.k2
}

// stepsAtMost returns how many steps have k1 ≤ k, steps in ascending k1,
// by a bisection without branches, which random keys mispredict half the
// time: the probe moves by half unless the borrow of k − k1 says the probed
// key is above k.
func stepsAtMost(steps []stairStep, k uint64) int {
	if len(steps) == 0 {
		return 0
	}
	j, n := 0, len(steps)
	for n > 1 {
		half := n >> 1
		_, above := bits.Sub64(k, steps[j+half].k1, 0)
		j += half &^ -int(above)
		n -= half
	}
	_, above := bits.Sub64(k, steps[j].k1, 0)
	return j + 1 - int(above)
}

// stepsBelow returns how many steps have k1 < k: those with k1 ≤ k − 1.
func stepsBelow(steps []stairStep, k uint64) int {
	if k == 0 {
		return 0
	}
	return stepsAtMost(steps, k-1)
}

// insert adds p, which no step dominates, and drops the steps p dominates:
// the run from the first step with k1 >= p.k1 on while k2 >= p.k2.
func (s *layerStairs) insert(p stairStep) {
	b := sort.Search(len(s.blocks), func(b int) bool {
		blk := s.blocks[b]
		return blk[len(blk)-1].k1 >= p.k1
	})
	if b == len(s.blocks) {
		// p lies beyond every step and dominates none of them.
		if b == 0 || len(s.blocks[b-1]) >= stairBlock {
			s.blocks = append(s.blocks, s.newBlock())
		} else {
			b--
		}
		s.blocks[b] = append(s.blocks[b], p)
		return
	}
	blk := s.blocks[b]
	lo := stepsBelow(blk, p.k1)
	hi := lo
	for hi < len(blk) && blk[hi].k2 >= p.k2 {
		hi++
	}
	if hi == len(blk) {
		// The run may go on into the following blocks.
		next := b + 1
		for next < len(s.blocks) {
			nb := s.blocks[next]
			k := 0
			for k < len(nb) && nb[k].k2 >= p.k2 {
				k++
			}
			if k < len(nb) {
				s.blocks[next] = nb[k:]
				break
			}
			next++
		}
		s.blocks = slices.Delete(s.blocks, b+1, next)
	}
	blk = slices.Replace(blk, lo, hi, p)
	if len(blk) > 2*stairBlock {
		half := len(blk) / 2
		tail := append(s.newBlock(), blk[half:]...)
		s.blocks[b] = blk[:half]
		s.blocks = slices.Insert(s.blocks, b+1, tail)
		return
	}
	s.blocks[b] = blk
}
