package hv

import (
	"container/heap"
	"math"
	"slices"

	"github.com/spica-search/spica/internal/nd"
)

// Subset chooses at most k ≥ 0 rows of a valid n×dims matrix whose
// hypervolume is as large as it can find, by the rules of the root's
// HypervolumeSubset, and returns them ascending with their volume.
func Subset(values []float64, n, dims int, maximize []bool, ref []float64, k int) ([]int, float64) {
	pts, rows := subsetCandidates(values, n, dims, maximize, ref)
	m := len(rows)
	var chosen []int // positions in rows
	switch {
	case k >= m:
		chosen = make([]int, m)
		for p := range chosen {
			chosen[p] = p
		}
	case k == 0:
	case hasInf(pts):
		chosen = make([]int, k)
		for p := range chosen {
			chosen[p] = p
		}
		if first := finiteRows(pts, dims); first >= k { // the first row with a +Inf extent
			chosen[k-1] = first
		}
	case dims == 2:
		chosen = subset2(pts, k)
	default:
		chosen = subsetGreedy(pts, dims, k)
	}
	out := make([]int, len(chosen))
	sub := make([]float64, len(chosen)*dims)
	slices.Sort(chosen)
	for i, p := range chosen {
		out[i] = rows[p]
		copy(sub[i*dims:(i+1)*dims], values[rows[p]*dims:(rows[p]+1)*dims])
	}
	return out, Volume(sub, len(out), dims, maximize, ref)
}

// subsetCandidates returns the extents and indices, ascending, of the rows
// that add volume: inside the reference box, non-dominated, the first of
// equal rows.
func subsetCandidates(values []float64, n, dims int, maximize []bool, ref []float64) ([]float64, []int) {
	pts, rows := extents(values, n, dims, maximize, ref)
	up := make([]bool, dims)
	for j := range up {
		up[j] = true
	}
	front := nd.Front(pts, len(rows), dims, up)
	// Sorted by the first extent (a radix sort of its bits, stable, so the
	// lowest index leads), equal rows fall in the same run, and runs are
	// short unless the data is degenerate.
	a := make([]nd.Rec, len(front))
	for q, p := range front {
		a[q] = nd.Rec{Key: math.Float64bits(pts[p*dims]), Aux: uint64(p)}
	}
	a = nd.SortStable(a, nil)
	copyOf := make([]bool, len(rows))
	row := func(p uint64) []float64 { return pts[int(p)*dims : (int(p)+1)*dims] }
	for lo, hi := nd.NextTieRun(a, 0); lo != len(a); lo, hi = nd.NextTieRun(a, hi) {
		run := a[lo:hi]
		slices.SortStableFunc(run, func(x, y nd.Rec) int { return slices.Compare(row(x.Aux), row(y.Aux)) })
		for q := 1; q < len(run); q++ {
			copyOf[run[q].Aux] = slices.Equal(row(run[q-1].Aux), row(run[q].Aux))
		}
	}
	kept := make([]float64, len(front)*dims)
	keptRows := make([]int, 0, len(front))
	for _, p := range front {
		if !copyOf[p] {
			copy(kept[len(keptRows)*dims:(len(keptRows)+1)*dims], pts[p*dims:(p+1)*dims])
			keptRows = append(keptRows, rows[p])
		}
	}
	return kept[:len(keptRows)*dims], keptRows
}

// subset2 returns the positions of the k of m mutually non-dominated,
// distinct, finite two-column extent rows (k < m) with the largest union of
// boxes [0,x]×[0,y], and among subsets of that area the lexicographically
// smallest set of positions.
//
// With the rows sorted by x ascending, so y descending, a subset's area is
// Σ (x_i − x_prev)·y_i over its rows in that order, x_prev the x of the one
// before (0 for the first). So f[c][i], the best area of c rows ending at
// row i, is x_i·y_i + max over j < i of (f[c−1][j] − x_j·y_i): the maximum
// of lines with slope −x_j at the point y_i. Lines arrive with falling
// slopes and the query points fall too, so the upper envelope is a deque
// and each layer c costs O(m) (the convex hull trick of Bringmann et al.).
//
// Ties: two best subsets for f[c−1][j] and f[c−1][j'] keep their order
// when row i joins both (their symmetric difference does not change, and
// the smaller set is the one holding its least element), so each f[c][i]
// keeps the smallest of its tied predecessors. Lines that meet the
// envelope in a single point stay in the deque, so every line attaining
// the maximum at y_i sits next to the pointer, and ties are settled by
// comparing the two sets along their parent links, O(c log c) each time.
func subset2(pts []float64, k int) []int {
	m := len(pts) / 2
	a := make([]nd.Rec, m)
	for i := range a {
		a[i] = nd.Rec{Key: math.Float64bits(pts[2*i]), Aux: uint64(i)}
	}
	a = nd.SortStable(a, nil)
	x, y := make([]float64, m), make([]float64, m)
	for r, e := range a {
		x[r], y[r] = pts[2*e.Aux], pts[2*e.Aux+1]
	}
	prev, cur := make([]float64, m), make([]float64, m)
	for i := range prev {
		prev[i] = x[i] * y[i]
	}
	parent := make([]int32, k*m)
	// set returns the positions, ascending, of the subset behind f[c][i].
	set := func(c, i int, buf []int) []int {
		buf = buf[:0]
		for ; c >= 0; c-- {
			buf = append(buf, int(a[i].Aux))
			i = int(parent[c*m+i])
		}
		slices.Sort(buf)
		return buf
	}
	var buf1, buf2 []int
	// smaller reports whether the subset behind f[c][i] comes before the
	// one behind f[c][j].
	smaller := func(c, i, j int) bool {
		buf1, buf2 = set(c, i, buf1), set(c, j, buf2)
		return slices.Compare(buf1, buf2) == -1 // never 0: the sets end at different rows
	}
	hull := make([]int, 0, m)
	// above reports whether line j2 is at least line j1 at t.
	above := func(j1, j2 int, t float64) bool { return prev[j2]-prev[j1] >= (x[j2]-x[j1])*t }
	for c := 1; c < k; c++ {
		hull, h := hull[:0], 0
		for i := c; i < m; i++ {
			// Line i−1 joins; the middle of the last three lines leaves
			// the envelope when it is below where the outer two meet.
			j3 := i - 1
			for len(hull) >= 2 {
				j1, j2 := hull[len(hull)-2], hull[len(hull)-1]
				if (prev[j2]-prev[j1])*(x[j3]-x[j2]) >= (prev[j3]-prev[j2])*(x[j2]-x[j1]) {
					break
				}
				hull = hull[:len(hull)-1]
			}
			// Should the pointer's line have left, it restarts at the line
			// that joins.
			h = min(h, len(hull))
			hull = append(hull, j3)
			for h+1 < len(hull) && above(hull[h], hull[h+1], y[i]) {
				h++
			}
			j := hull[h]
			best := prev[j] + (x[i]-x[j])*y[i]
			// The pointer stops at the last line attaining the maximum;
			// the others tied with it are just before it.
			for q := h - 1; q >= 0; q-- {
				jq := hull[q]
				v := prev[jq] + (x[i]-x[jq])*y[i]
				if v < best {
					break
				}
				if v > best || smaller(c-1, jq, j) {
					best, j = v, jq
				}
			}
			cur[i] = best
			parent[c*m+i] = int32(j)
		}
		prev, cur = cur, prev
	}
	best := k - 1
	for i := k; i < m; i++ {
		if prev[i] > prev[best] || prev[i] == prev[best] && smaller(k-1, i, best) {
			best = i
		}
	}
	return set(k-1, best, nil)
}

// subsetGreedy returns the positions of k of the mutually non-dominated,
// distinct, finite extent rows (dims ≥ 3), chosen greedily by largest
// exclusive volume against those already chosen, ties toward the lower
// position. A row's gain can only fall as rows are chosen (submodularity),
// so a gain measured in an earlier round is an upper bound: the heap's top
// is chosen once its gain is current (lazy greedy, M. Minoux, 1978).
func subsetGreedy(pts []float64, dims, k int) []int {
	m := len(pts) / dims
	h := make(gainHeap, m)
	for p := range h {
		h[p] = gainEntry{gain: product(pts[p*dims : (p+1)*dims]), pos: p}
	}
	heap.Init(&h)
	chosen := make([]int, 0, k)
	var l limiter
	for len(chosen) < k {
		top := &h[0]
		if top.round == len(chosen) {
			chosen = append(chosen, top.pos)
			heap.Pop(&h)
			continue
		}
		p := pts[top.pos*dims : (top.pos+1)*dims]
		g := product(p)
		// hvFinite of no rows is 0 in every kernel, so an empty limited
		// set needs no branch of its own.
		if limited, covered := l.limit(p, pts, dims, chosen, -1); covered {
			g = 0
		} else {
			g -= hvFinite(limited, dims)
		}
		top.gain, top.round = max(saturate(g), 0), len(chosen)
		heap.Fix(&h, 0)
	}
	return chosen
}

// gainEntry is a candidate of the greedy selection: its gain as measured
// when round rows had been chosen.
type gainEntry struct {
	gain       float64
	pos, round int
}

// gainHeap puts the largest gain first, ties toward the lower position.
type gainHeap []gainEntry

func (h gainHeap) Len() int { return len(h) }
func (h gainHeap) Less(i, j int) bool {
	return h[i].gain > h[j].gain || h[i].gain == h[j].gain && h[i].pos < h[j].pos
}
func (h gainHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *gainHeap) Push(x any)   { *h = append(*h, x.(gainEntry)) }
func (h *gainHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}
