package ndsort

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/spica-search/spica/internal/nd"
	"github.com/spica-search/spica/internal/testkit"
)

// chainLayers is the definition of a row's layer as the longest chain of
// dominating rows ending at it, O(n²) by testkit.Dominates: a dominator of
// a row has strictly fewer dominators (each of its own dominates the row
// too, and it is one more), so visiting the rows by their number of
// dominators visits every dominator before the rows it dominates.
func chainLayers(values []float64, maximize []bool) []int {
	n := len(values) / 2
	row := func(i int) []float64 { return values[2*i : 2*i+2] }
	dominators := make([][]int, n)
	for i := range n {
		for j := range n {
			if testkit.Dominates(row(j), row(i), maximize) {
				dominators[i] = append(dominators[i], j)
			}
		}
	}
	byCount := make([]int, n)
	for i := range byCount {
		byCount[i] = i
	}
	slices.SortStableFunc(byCount, func(a, b int) int { return len(dominators[a]) - len(dominators[b]) })
	layer := make([]int, n)
	for _, i := range byCount {
		for _, j := range dominators[i] {
			layer[i] = max(layer[i], layer[j]+1)
		}
	}
	return layer
}

// smallPathGivesUp reports whether nd.LexOrder2 may decline a two-column
// matrix: a NaN, an infinite first value, or +Inf and -Inf both in the
// second column (the values drawn below never overflow a range).
func smallPathGivesUp(values []float64) bool {
	var plus, minus bool
	for i, v := range values {
		switch {
		case math.IsNaN(v), i%2 == 0 && math.IsInf(v, 0):
			return true
		case math.IsInf(v, 1):
			plus = true
		case math.IsInf(v, -1):
			minus = true
		}
	}
	return plus && minus
}

// TestLayers2SmallMatchesOracle forces the small two-column path,
// layers2Small, on matrices with copies of rows, ties in either column,
// -0.0 beside 0.0, infinities and NaN, in every direction, against the
// peeling definition (oracleLayers) and the longest chain (chainLayers).
// Where the path declines, it must be for one of its documented reasons.
func TestLayers2SmallMatchesOracle(t *testing.T) {
	negZero := math.Copysign(0, -1)
	small := rapid.SampledFrom([]float64{-2, -1, negZero, 0, 1, 2, 3})
	rare := rapid.SampledFrom([]float64{math.Inf(1), math.Inf(-1), math.NaN()})
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 80).Draw(t, "n")
		maximize := rapid.SliceOfN(rapid.Bool(), 2, 2).Draw(t, "maximize")
		// Columns of few distinct values tie and repeat; spread ones
		// rarely do. Odd values (infinite, NaN) come in one draw in ten.
		var col [2]*rapid.Generator[float64]
		for c := range col {
			if rapid.Bool().Draw(t, "few values") {
				col[c] = small
			} else {
				col[c] = rapid.Float64Range(-10, 10)
			}
			if rapid.IntRange(0, 9).Draw(t, "odd values") == 0 {
				col[c] = rapid.OneOf(col[c], col[c], col[c], rare)
			}
		}
		values := make([]float64, 0, 2*n)
		for range n {
			if len(values) > 0 && rapid.IntRange(0, 5).Draw(t, "copy") == 0 {
				j := 2 * rapid.IntRange(0, len(values)/2-1).Draw(t, "copy of")
				values = append(values, values[j], values[j+1])
				continue
			}
			values = append(values, col[0].Draw(t, "v0"), col[1].Draw(t, "v1"))
		}
		orig := slices.Clone(values)
		layer := make([]int, n)
		ok := layers2Small(values, n, maximize, layer)
		if !testkit.SameBits(values, orig) {
			t.Fatal("layers2Small modified its input")
		}
		if !ok {
			if !smallPathGivesUp(values) {
				t.Fatalf("layers2Small declined %v", values)
			}
			return
		}
		checkLayers(t, values, 2, maximize, layer)
		if diff := cmp.Diff(chainLayers(values, maximize), layer); diff != "" {
			t.Fatalf("layers (-longest chain +got):\n%s", diff)
		}
	})
}

// TestLayers2SmallManyLayers draws a hundred to a thousand rows of a
// small integer grid, so that buckets hold more rows than nd.LexOrder2
// orders by insertion, and there are dozens of layers, or, with rows near
// a diagonal, hundreds, so that sweepLayers2 counts by its heads and by
// bisection (past 16 blocks of tailBlock layers); the longest chain is the
// oracle.
func TestLayers2SmallManyLayers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(100, 1000).Draw(t, "n")
		side := rapid.IntRange(2, 400).Draw(t, "side")
		diagonal := rapid.Bool().Draw(t, "diagonal")
		maximize := rapid.SliceOfN(rapid.Bool(), 2, 2).Draw(t, "maximize")
		cell := rapid.IntRange(0, side)
		step := rapid.IntRange(0, 2)
		values := make([]float64, 2*n)
		for i := 0; i < len(values); i += 2 {
			values[i] = float64(cell.Draw(t, "v0"))
			if diagonal {
				// Along the diagonal in the columns' directions, a chain.
				values[i+1] = values[i] + float64(step.Draw(t, "step"))
				if maximize[0] != maximize[1] {
					values[i+1] = -values[i+1]
				}
			} else {
				values[i+1] = float64(cell.Draw(t, "v1"))
			}
		}
		layer := make([]int, n)
		if !layers2Small(values, n, maximize, layer) {
			t.Fatal("layers2Small declined a finite matrix")
		}
		if diff := cmp.Diff(chainLayers(values, maximize), layer); diff != "" {
			t.Fatalf("layers (-longest chain +got):\n%s", diff)
		}
	})
}

// TestLayers2SmallTable checks hand-worked cases, minimized unless said.
func TestLayers2SmallTable(t *testing.T) {
	negZero := math.Copysign(0, -1)
	inf := math.Inf(1)
	tests := []struct {
		name     string
		values   []float64
		maximize []bool
		want     []int
	}{
		// (1,4) (2,2) (4,1) are a staircase; (2,4) is dominated by (1,4)
		// and (2,2); (3,3) by (2,2); (4,4) by (3,3), itself on layer 1.
		{
			"a staircase peels into three layers",
			[]float64{1, 4, 2, 2, 4, 1, 2, 4, 3, 3, 4, 4},
			[]bool{false, false},
			[]int{0, 0, 0, 1, 1, 2},
		},
		// (0,5) is beaten by (0,3) in the second column only: layer 1;
		// the copy of (0,5) shares it, and (1,5) is dominated by both.
		{
			"a tie in the first column and copies",
			[]float64{0, 5, 0, 3, 0, 5, 1, 5},
			[]bool{false, false},
			[]int{1, 0, 1, 2},
		},
		// (-0,1) and (0,1) are one row; (1,1) is dominated by it.
		{
			"-0.0 and 0.0 are equal",
			[]float64{negZero, 1, 0, 1, 1, 1},
			[]bool{false, false},
			[]int{0, 0, 1},
		},
		// Maximizing both: (3,3) is best, (2,3) is beaten in the first
		// column, (1,+Inf) by nobody: +Inf is the best second value.
		{
			"maximized columns",
			[]float64{2, 3, 3, 3, 1, inf},
			[]bool{true, true},
			[]int{1, 0, 0},
		},
		// Minimizing the first and maximizing the second: (1,1) beats
		// (2,1) and (1,0); (2,0) is beaten by both, so it is on layer 2.
		{
			"mixed directions",
			[]float64{1, 1, 2, 1, 1, 0, 2, 0},
			[]bool{false, true},
			[]int{0, 1, 1, 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			layer := make([]int, len(tt.want))
			if !layers2Small(tt.values, len(tt.want), tt.maximize, layer) {
				t.Fatal("layers2Small declined")
			}
			if diff := cmp.Diff(tt.want, layer); diff != "" {
				t.Errorf("layers (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCountAtMost checks the bisection against a count, on runs of equal
// values and every length up to 9.
func TestCountAtMost(t *testing.T) {
	for length := range 10 {
		vals := make([]float64, length)
		for i := range vals {
			vals[i] = float64(i / 2) // 0 0 1 1 2 2 ...
		}
		for v := -1.0; v <= 5; v += 0.5 {
			want := 0
			for _, x := range vals {
				if x <= v {
					want++
				}
			}
			if got := countAtMost(vals, v); got != want {
				t.Errorf("countAtMost(%v, %v) = %d, want %d", vals, v, got, want)
			}
		}
	}
}

// TestLayers2SmallAtItsLimit runs Layers on nd.SmallLexOrder2Max rows, the
// most the small path takes, and on one row more, which go by keys: rows
// (i, m−i) for i < m−1 lie on a line and dominate none of each other
// (layer 0), and the last row, (m, m), is no better than any of them in
// either column and worse in one, so it is layer 1.
func TestLayers2SmallAtItsLimit(t *testing.T) {
	for _, m := range []int{nd.SmallLexOrder2Max, nd.SmallLexOrder2Max + 1} {
		values := make([]float64, 0, 2*m)
		want := make([]int, m)
		for i := range m - 1 {
			values = append(values, float64(i), float64(m-i))
		}
		values = append(values, float64(m), float64(m))
		want[m-1] = 1
		if diff := cmp.Diff(want, Layers(values, m, 2, []bool{false, false})); diff != "" {
			t.Errorf("%d rows: layers (-want +got):\n%s", m, diff)
		}
	}
}
