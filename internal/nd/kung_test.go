package nd

import (
	"fmt"
	"slices"
	"testing"
)

// TestCoveredIn checks coveredIn on every width it unrolls (2 to 5) and on
// the general loop (1 and 6): x = 1 in every column against rows equal to
// it, better in every column, and worse by one in a single column.
func TestCoveredIn(t *testing.T) {
	for w := 1; w <= 6; w++ {
		x := make([]int32, w)
		for c := range x {
			x[c] = 1
		}
		equal := slices.Clone(x)
		better := make([]int32, w) // 0 < 1 in every column
		worse := func(c int) []int32 {
			y := slices.Clone(x)
			y[c] = 2 // 1 − 2 < 0: y is worse than x in column c
			return y
		}
		t.Run(fmt.Sprintf("width %d", w), func(t *testing.T) {
			tests := []struct {
				name string
				blk  []int32
				want bool
			}{
				{"no rows cover nothing", nil, false},
				{"an equal row covers", equal, true},
				{"a better row covers", better, true},
			}
			for c := range w {
				tests = append(tests,
					struct {
						name string
						blk  []int32
						want bool
					}{fmt.Sprintf("a row worse in column %d does not cover", c), worse(c), false},
					struct {
						name string
						blk  []int32
						want bool
					}{fmt.Sprintf("an equal row after one worse in column %d covers", c), slices.Concat(worse(c), equal), true})
			}
			for _, tt := range tests {
				if got := coveredIn(tt.blk, x); got != tt.want {
					t.Errorf("%s: coveredIn(%v, %v) = %v, want %v", tt.name, tt.blk, x, got, tt.want)
				}
			}
		})
	}
}

// TestKungLayout checks the memory kung.layout carves out of its scratch:
// per row a flag and dims−1 ranks (pts, cleared even in used scratch), the
// Fenwick tree's distinct+1 entries, two boxes of dims entries per lo
// (lim), and room for blk = min(distinct, max(brutePairs, leaf, 1)) rows
// of dims−1 ranks (blkA, empty), one after another in one int32
// allocation; and, in one kRec allocation, the merge scratch (tmp), the
// list maxima starts from, and a list per level lo = 1 … dims−4 (bufs).
func TestKungLayout(t *testing.T) {
	tests := []struct {
		name                string
		dims, distinct      int
		t                   ndTuning
		pts, fen, lim, blkA int // sizes, worked out below
		levels              int
	}{
		// pts 5·10 = 50, fen 10+1 = 11, lim 2·5·5 = 50; blk = min(10,
		// max(4, 3, 1)) = 4 rows of 4 ranks = 16; levels 5−4 = 1.
		{"five columns, brutePairs rows", 5, 10, ndTuning{leaf: 3, brutePairs: 4}, 50, 11, 50, 16, 1},
		// pts 6·3 = 18, fen 4, lim 2·6·6 = 72; blk = min(3, 32768) = 3
		// rows of 5 ranks = 15; levels 2.
		{"six columns, fewer rows than brutePairs", 6, 3, ndTuning{leaf: 1, brutePairs: 32768}, 18, 4, 72, 15, 2},
		// pts 4·7 = 28, fen 8, lim 32; blk = min(7, max(0, 5, 1)) = 5 rows
		// of 3 ranks = 15; levels 0.
		{"four columns, leaf rows", 4, 7, ndTuning{leaf: 5, brutePairs: 0}, 28, 8, 32, 15, 0},
		// blk = min(9, max(0, 0, 1)) = 1 row of 6 ranks.
		{"seven columns, one row", 7, 9, ndTuning{}, 63, 10, 98, 6, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := new(kungScratch)
			var k kung
			k.layout(sc, tt.dims, tt.distinct, tt.t)
			for i := range sc.i32 {
				sc.i32[i] = -1 // used scratch
			}
			for lo := range sc.bufs {
				sc.bufs[lo] = make([]kRec, 1)
			}
			list := k.layout(sc, tt.dims, tt.distinct, tt.t)
			if k.dims != tt.dims || k.t != tt.t {
				t.Errorf("dims %d and tuning %+v, want %d and %+v", k.dims, k.t, tt.dims, tt.t)
			}
			if i := slices.IndexFunc(k.pts, func(v int32) bool { return v != 0 }); i >= 0 {
				t.Errorf("pts[%d] = %d, want every entry cleared", i, k.pts[i])
			}
			if len(k.blkA) != 0 {
				t.Errorf("blkA holds %d ranks, want none", len(k.blkA))
			}
			// Tag each piece with its number and read the allocation back.
			var want []int32
			for tag, piece := range [][]int32{k.pts, k.fen, k.lim, k.blkA[:cap(k.blkA)]} {
				for i := range piece {
					piece[i] = int32(tag)
				}
				want = append(want, slices.Repeat([]int32{int32(tag)}, []int{tt.pts, tt.fen, tt.lim, tt.blkA}[tag])...)
			}
			if !slices.Equal(sc.i32, want) {
				t.Errorf("int32 scratch %v,\nwant %v", sc.i32, want)
			}
			if len(k.bufs) != tt.dims {
				t.Fatalf("%d bufs, want %d", len(k.bufs), tt.dims)
			}
			pieces := [][]kRec{k.tmp, list}
			for lo, buf := range k.bufs {
				if lo >= 1 && lo <= tt.levels {
					pieces = append(pieces, buf)
				} else if buf != nil {
					t.Errorf("bufs[%d] holds %d rows, want none (levels 1…%d)", lo, len(buf), tt.levels)
				}
			}
			var wantRecs []kRec
			for tag, piece := range pieces {
				for i := range piece {
					piece[i] = kRec{key: uint32(tag)}
				}
				wantRecs = append(wantRecs, slices.Repeat([]kRec{{key: uint32(tag)}}, tt.distinct)...)
			}
			if !slices.Equal(sc.recs, wantRecs) {
				t.Errorf("kRec scratch %v,\nwant %v", sc.recs, wantRecs)
			}
		})
	}
}

// TestByBits checks which halves maxima settles by bit sets: those of more
// than leaf rows and at most bits, and never more than 1<<16 rows.
func TestByBits(t *testing.T) {
	small := ndTuning{bits: 12, leaf: 2}
	huge := ndTuning{bits: 1 << 20, leaf: 96}
	off := ndTuning{bits: 0, leaf: 96}
	for _, c := range []struct {
		name string
		t    ndTuning
		n    int
		want bool
	}{
		{"no rows divide", small, 0, false},
		{"leaf rows are compared pairwise", small, 2, false},
		{"one row over leaf takes bits", small, 3, true},
		{"bits rows take bits", small, 12, true},
		{"one row over bits divides", small, 13, false},
		{"1<<16 rows take bits", huge, 1 << 16, true},
		{"one row over 1<<16 divides", huge, 1<<16 + 1, false},
		{"bits 0 never takes bits, small", off, 50, false},
		{"bits 0 never takes bits, large", off, 200, false},
	} {
		if got := c.t.byBits(c.n); got != c.want {
			t.Errorf("%s: byBits(%d) with bits %d, leaf %d = %v, want %v", c.name, c.n, c.t.bits, c.t.leaf, got, c.want)
		}
	}
}

// TestByPairs checks which marriages cross compares pairwise: those whose
// sides multiply to at most brutePairs = 6.
func TestByPairs(t *testing.T) {
	tuning := ndTuning{brutePairs: 6}
	for _, c := range []struct {
		na, nb int
		want   bool
	}{
		{2, 3, true},  // 6 ≤ 6
		{3, 2, true},  // 6 ≤ 6
		{1, 6, true},  // 6 ≤ 6
		{1, 1, true},  // 1 ≤ 6
		{1, 7, false}, // 7 > 6
		{7, 1, false}, // 7 > 6
		{2, 4, false}, // 8 > 6
		{3, 3, false}, // 9 > 6
	} {
		if got := tuning.byPairs(c.na, c.nb); got != c.want {
			t.Errorf("byPairs(%d, %d) with brutePairs 6 = %v, want %v", c.na, c.nb, got, c.want)
		}
	}
}

// TestKungMerge checks merge on lists worked out by hand: it interleaves
// the halves, keeps the first half's rows first among equal keys, and
// leaves halves already in order, equal keys at the seam included,
// uncopied (tmp untouched). Rows of the first half have ids below 10.
func TestKungMerge(t *testing.T) {
	tests := []struct {
		name   string
		s      []kRec
		mid    int
		want   []kRec
		copied bool
	}{
		{"interleaved, a tie kept in order",
			[]kRec{{1, 0}, {3, 1}, {5, 2}, {2, 10}, {3, 11}, {4, 12}}, 3,
			[]kRec{{1, 0}, {2, 10}, {3, 1}, {3, 11}, {4, 12}, {5, 2}}, true},
		{"a tie after the second half's smaller row",
			[]kRec{{2, 0}, {4, 1}, {1, 10}, {4, 11}}, 2,
			[]kRec{{1, 10}, {2, 0}, {4, 1}, {4, 11}}, true},
		{"the second half first",
			[]kRec{{5, 0}, {6, 1}, {1, 10}, {2, 11}}, 2,
			[]kRec{{1, 10}, {2, 11}, {5, 0}, {6, 1}}, true},
		{"in order, equal at the seam",
			[]kRec{{1, 0}, {2, 1}, {2, 10}, {3, 11}}, 2,
			[]kRec{{1, 0}, {2, 1}, {2, 10}, {3, 11}}, false},
		{"all equal",
			[]kRec{{7, 0}, {7, 1}, {7, 10}}, 2,
			[]kRec{{7, 0}, {7, 1}, {7, 10}}, false},
		{"an empty first half", []kRec{{2, 10}, {1, 11}}, 0, []kRec{{2, 10}, {1, 11}}, false},
		{"an empty second half", []kRec{{2, 0}, {1, 1}}, 2, []kRec{{2, 0}, {1, 1}}, false},
	}
	for _, tt := range tests {
		untouched := kRec{99, 99}
		k := &kung{tmp: slices.Repeat([]kRec{untouched}, len(tt.s))}
		s := slices.Clone(tt.s)
		k.merge(s, tt.mid)
		if !slices.Equal(s, tt.want) {
			t.Errorf("%s: merge(%v, %d) = %v, want %v", tt.name, tt.s, tt.mid, s, tt.want)
		}
		if copied := slices.ContainsFunc(k.tmp, func(r kRec) bool { return r != untouched }); copied != tt.copied {
			t.Errorf("%s: copied through tmp %v, want %v", tt.name, copied, tt.copied)
		}
	}
}

// TestSortKRecs checks that sortKRecs sorts by key and keeps rows with
// equal keys in their order (ids ascend among equal keys here).
func TestSortKRecs(t *testing.T) {
	for _, tt := range []struct{ s, want []kRec }{
		{nil, nil},
		{[]kRec{{4, 0}}, []kRec{{4, 0}}},
		{[]kRec{{3, 0}, {1, 1}, {3, 2}, {2, 3}, {1, 4}}, []kRec{{1, 1}, {1, 4}, {2, 3}, {3, 0}, {3, 2}}},
		{[]kRec{{5, 0}, {5, 1}, {5, 2}}, []kRec{{5, 0}, {5, 1}, {5, 2}}},
		{[]kRec{{3, 0}, {2, 1}, {1, 2}}, []kRec{{1, 2}, {2, 1}, {3, 0}}},
	} {
		s := slices.Clone(tt.s)
		sortKRecs(s)
		if !slices.Equal(s, tt.want) {
			t.Errorf("sortKRecs(%v) = %v, want %v", tt.s, s, tt.want)
		}
	}
}
