package hv

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/spica-search/spica/internal/nd"
	"github.com/spica-search/spica/internal/testkit"
)

// within12 reports whether a and b agree within 1e-12 relative, infinities
// exactly.
func within12(a, b float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsNaN(a) || math.IsNaN(b) {
		return a == b
	}
	return math.Abs(a-b) <= 1e-12*max(math.Abs(a), math.Abs(b))
}

func TestHypervolumeHistoryByHand(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name     string
		values   []float64
		maximize []bool
		ref      []float64
		want     []float64
	}{{
		// Extents from ref (4,4): (3,1) area 3; (1,3) adds 3 minus the 1×1
		// overlap; (2,2) adds the square [1,2]×[1,2]; (5,0) lies outside
		// in column 0; a copy of (2,2) adds nothing.
		name:     "two minimized columns",
		values:   []float64{1, 3, 3, 1, 2, 2, 5, 0, 2, 2},
		maximize: []bool{false, false},
		ref:      []float64{4, 4},
		want:     []float64{3, 5, 6, 6, 6},
	}, {
		// Extents from ref (2,2,2): (1,1,1) is 1; (2,1,1) doubles it;
		// (1,2,1) adds a unit cube; (2,2,2) fills the whole box, 8.
		name:     "three minimized columns",
		values:   []float64{1, 1, 1, 0, 1, 1, 1, 0, 1, 0, 0, 0},
		maximize: []bool{false, false, false},
		ref:      []float64{2, 2, 2},
		want:     []float64{1, 2, 3, 8},
	}, {
		name:     "one maximized column is the running best above ref",
		values:   []float64{1, 3, 2, math.NaN(), 5, -1},
		maximize: []bool{true},
		ref:      []float64{0},
		want:     []float64{1, 3, 3, 3, 5, 5},
	}, {
		// Maximized (10,20) from ref (0,0) covers 200; (20,10) adds the
		// 10×10 beside it; the row below ref in column 1 adds nothing.
		name:     "two maximized columns",
		values:   []float64{10, 20, 20, 10, 30, -1},
		maximize: []bool{true, true},
		ref:      []float64{0, 0},
		want:     []float64{200, 300, 300},
	}, {
		name:     "an infinite extent makes the rest +Inf",
		values:   []float64{1, 1, math.Inf(-1), 1, 0, 0},
		maximize: []bool{false, false},
		ref:      []float64{2, 2},
		want:     []float64{1, inf, inf},
	}, {
		name:     "an infinite row outside the box changes nothing",
		values:   []float64{1, 1, 1, math.Inf(-1), 1, 3, 0, 0, 0},
		maximize: []bool{false, false, false},
		ref:      []float64{2, 2, 2},
		want:     []float64{1, 1, 8},
	}, {
		name:     "empty",
		values:   []float64{},
		maximize: []bool{false, true, false},
		ref:      []float64{0, 0, 0},
		want:     []float64{},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := historyOf(tt.values, len(tt.maximize), tt.maximize, tt.ref)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("HypervolumeHistory (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHypervolumeHistoryMatchesPrefixVolumes compares the curve with one
// Hypervolume call per prefix.
func TestHypervolumeHistoryMatchesPrefixVolumes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dims := rapid.IntRange(1, 4).Draw(t, "dims")
		n := rapid.IntRange(0, 30).Draw(t, "n")
		maximize := rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
		ref := make([]float64, dims)
		for j := range ref {
			ref[j] = 1
			if maximize[j] {
				ref[j] = 0
			}
		}
		values := make([]float64, n*dims)
		special := []float64{0, 0.5, 1, math.NaN(), math.Copysign(0, -1), 2}
		// On a grid of quarters rows tie in every column, which the
		// staircases must handle; the volumes stay exact.
		grid := rapid.Bool().Draw(t, "grid")
		for i := range values {
			if grid {
				values[i] = float64(rapid.IntRange(-1, 5).Draw(t, "q")) / 4
			} else if rapid.IntRange(0, 9).Draw(t, "kind") == 0 {
				values[i] = rapid.SampledFrom(special).Draw(t, "special")
			} else {
				values[i] = rapid.Float64Range(-0.1, 1.1).Draw(t, "v")
			}
		}
		if n > 0 && rapid.IntRange(0, 9).Draw(t, "inf") == 0 {
			values[rapid.IntRange(0, len(values)-1).Draw(t, "at")] = math.Inf(rapid.SampledFrom([]int{-1, 1}).Draw(t, "sign"))
		}
		before := slices.Clone(values)
		got := historyOf(values, dims, maximize, ref)
		if !testkit.SameBits(values, before) {
			t.Fatal("values modified")
		}
		if len(got) != n {
			t.Fatalf("len = %d, want %d", len(got), n)
		}
		for i := range n {
			want := volumeOf(values[:(i+1)*dims], dims, maximize, ref)
			if !within12(got[i], want) {
				t.Fatalf("history[%d] = %v, Hypervolume of rows 0..%d = %v", i, got[i], i, want)
			}
			if i > 0 && got[i] < got[i-1] {
				t.Fatalf("history[%d] = %v < history[%d] = %v", i, got[i], i-1, got[i-1])
			}
		}
	})
}

func TestHypervolumeHistoryLargeInputs(t *testing.T) {
	for _, c := range []struct {
		shape string
		d, n  int
	}{{"line", 2, 3000}, {"uniform", 2, 3000}, {"uniform", 3, 3000}, {"sphere", 3, 400}, {"uniform", 4, 500}} {
		values := testkit.Matrix(c.shape, c.n, c.d)
		maximize, ref := make([]bool, c.d), slices.Repeat([]float64{1}, c.d)
		got := historyOf(values, c.d, maximize, ref)
		for _, i := range []int{0, c.n / 3, c.n - 1} {
			want := volumeOf(values[:(i+1)*c.d], c.d, maximize, ref)
			if !within12(got[i], want) {
				t.Errorf("%s d=%d: history[%d] = %v, want %v", c.shape, c.d, i, got[i], want)
			}
		}
	}
}

// TestHypervolumeHistoryThreeColumnsAtScale runs the three-column kernel on
// enough rows that its k-d tree has many levels, on tied grid values and on
// points of a sphere (every row on the front), against Hypervolume of the
// prefixes.
func TestHypervolumeHistoryThreeColumnsAtScale(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(20, 300).Draw(t, "n")
		maximize := rapid.SliceOfN(rapid.Bool(), 3, 3).Draw(t, "maximize")
		kind := rapid.SampledFrom([]string{"grid", "sphere", "uniform"}).Draw(t, "kind")
		values := make([]float64, 3*n)
		for i := range n {
			row := values[3*i : 3*i+3]
			switch kind {
			case "grid":
				for c := range row {
					row[c] = float64(rapid.IntRange(0, 6).Draw(t, "g"))
				}
			case "uniform":
				for c := range row {
					row[c] = rapid.Float64Range(0, 1).Draw(t, "u")
				}
			case "sphere":
				a := rapid.Float64Range(0, math.Pi/2).Draw(t, "a")
				b := rapid.Float64Range(0, math.Pi/2).Draw(t, "b")
				row[0], row[1], row[2] = math.Cos(a)*math.Cos(b), math.Sin(a)*math.Cos(b), math.Sin(b)
			}
		}
		ref := make([]float64, 3)
		for c := range ref {
			ref[c] = 7
			if maximize[c] {
				ref[c] = -1
			}
		}
		got := historyOf(values, 3, maximize, ref)
		for i := 0; i < n; i += 1 + i/8 {
			want := volumeOf(values[:3*(i+1)], 3, maximize, ref)
			if !within12(got[i], want) {
				t.Fatalf("history[%d] = %v, Hypervolume of rows 0..%d = %v", i, got[i], i, want)
			}
		}
		if want := volumeOf(values, 3, maximize, ref); !within12(got[n-1], want) {
			t.Fatalf("history[%d] = %v, Hypervolume = %v", n-1, got[n-1], want)
		}
	})
}

// TestHypervolumeHistoryOverflow draws values near ±MaxFloat64, where
// extents and partial products overflow although volumes may fit, as
// Hypervolume measures them by rescaling; the curve must follow.
func TestHypervolumeHistoryOverflow(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dims := rapid.IntRange(1, 3).Draw(t, "dims")
		n := rapid.IntRange(1, 12).Draw(t, "n")
		maximize := rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
		pool := []float64{-math.MaxFloat64, math.MaxFloat64, -1e200, 1e200, 1e-300, 0.5, -0.5, 1, math.Inf(1), math.Inf(-1)}
		values := make([]float64, n*dims)
		for i := range values {
			values[i] = rapid.SampledFrom(pool).Draw(t, "v")
		}
		ref := make([]float64, dims)
		for j := range ref {
			ref[j] = rapid.SampledFrom([]float64{-math.MaxFloat64, math.MaxFloat64, 0, 1e200, -1e200}).Draw(t, "ref")
		}
		got := historyOf(values, dims, maximize, ref)
		for i := range n {
			want := volumeOf(values[:(i+1)*dims], dims, maximize, ref)
			if !within12(got[i], want) {
				t.Fatalf("history[%d] = %v, Hypervolume of rows 0..%d = %v", i, got[i], i, want)
			}
		}
	})
}

// TestHistoryTreeKeepsTheFront checks the k-d tree of the three-column
// kernel after the last row: its active rows must be exactly the rows that
// no other row weakly dominates, the first of equal rows standing for all,
// and each node must count the active rows below it, bound them by their
// largest values, and split into two non-empty halves or be a leaf of at
// most kdLeafSize rows. A row left active under a dominating one would not
// change the volumes, only the cost, so the prefix volumes alone would not
// show it.
func TestHistoryTreeKeepsTheFront(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 200).Draw(t, "n")
		grid := rapid.Bool().Draw(t, "grid")
		pts := make([]float64, 3*n)
		for i := range pts {
			if grid {
				pts[i] = float64(rapid.IntRange(1, 5).Draw(t, "g"))
			} else {
				pts[i] = rapid.Float64Range(0.001, 1).Draw(t, "u")
			}
		}
		_, tree := historyTree3(pts)
		row := func(i int) []float64 { return pts[3*i : 3*i+3] }
		under := func(a, b []float64) bool { return a[0] <= b[0] && a[1] <= b[1] && a[2] <= b[2] }
		inTree := make(map[int]bool)
		for _, r := range tree.order {
			inTree[r] = true
		}
		for j := range n {
			want := true
			for k := range n {
				if k < j && under(row(j), row(k)) || k > j && under(row(j), row(k)) && !slices.Equal(row(j), row(k)) {
					want = false
				}
			}
			got := inTree[j] && tree.on[tree.pos[j]]
			if got != want {
				t.Fatalf("row %d %v: active %v, on the front %v", j, row(j), got, want)
			}
		}
		for id, node := range tree.nodes {
			active := 0
			var hi [3]uint64
			for k := node.start; k < node.end; k++ {
				active += int(nd.OneIf(tree.on[k]))
				for c := range hi {
					hi[c] = max(hi[c], tree.at[k][c])
				}
				if tree.at[k] != bitsOf([3]float64(row(tree.order[k]))) {
					t.Fatalf("place %d holds %v, row %d is %v", k, tree.at[k], tree.order[k], row(tree.order[k]))
				}
			}
			if int(node.count) != active {
				t.Fatalf("node %d counts %d active rows, holds %d", id, node.count, active)
			}
			if node.hi != hi {
				t.Fatalf("node %d bounds its rows by %v, their largest values are %v", id, node.hi, hi)
			}
			if node.left < 0 {
				if node.end-node.start > kdLeafSize {
					t.Fatalf("leaf %d holds %d rows", id, node.end-node.start)
				}
				for k := node.start; k < node.end; k++ {
					if r := tree.order[k]; tree.leaf[r] != id || tree.pos[r] != int(k) {
						t.Fatalf("row %d at place %d of leaf %d: leaf %d, place %d", r, k, id, tree.leaf[r], tree.pos[r])
					}
				}
				continue
			}
			l, r := tree.nodes[node.left], tree.nodes[node.right]
			if l.start != node.start || l.end != r.start || r.end != node.end || l.end == l.start || r.end == r.start ||
				int(l.parent) != id || int(r.parent) != id {
				t.Fatalf("node %d [%d,%d) splits into [%d,%d) and [%d,%d)", id, node.start, node.end, l.start, l.end, r.start, r.end)
			}
		}
	})
}
