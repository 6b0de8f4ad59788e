package ndsort

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/spica-search/spica/internal/testkit"
)

// dcTuning sets the divide and conquer's thresholds for a test run.
type dcTuning struct {
	brute, sample int // dcBrute, dcSample
	stair         int // dcStairRanks: 0 turns sweepB2 off
	filter        int // dcFilter: 0 turns the rank filter off, 1<<20 forces it
}

// drawDCTuning draws thresholds that force each path of the recursion on
// small inputs, or leave it at its default.
func drawDCTuning(t *rapid.T) dcTuning {
	return dcTuning{
		brute:  rapid.SampledFrom([]int{1, 2, 3, dcBrute}).Draw(t, "brute"),
		sample: rapid.SampledFrom([]int{1, 2, 5, dcSample}).Draw(t, "sample"),
		stair:  rapid.SampledFrom([]int{0, 1, 2, 100, dcStairRanks}).Draw(t, "stair"),
		filter: rapid.SampledFrom([]int{0, 1, 1 << 20, dcFilter}).Draw(t, "filter"),
	}
}

// dcLayers runs the divide and conquer alone on a matrix with at least two
// columns, with the thresholds of tu.
func dcLayers(values []float64, dims int, maximize []bool, tu dcTuning) []int {
	defer func(b, s, r, f int) { dcBrute, dcSample, dcStairRanks, dcFilter = b, s, r, f }(dcBrute, dcSample, dcStairRanks, dcFilter)
	dcBrute, dcSample, dcStairRanks, dcFilter = tu.brute, tu.sample, tu.stair, tu.filter
	n := len(values) / dims
	layer := make([]int, n)
	if n == 0 {
		return layer
	}
	keys := sortedKeys(values, n, dims, maximize)
	sortLayersDC(keys.rows, keys.order, dims, layer)
	return layer
}

// The recursion is forced down to single rows (brute 1), to small blocks
// (2, 3) and left at its default, with each sweep and the rank filter
// forced, off or at their defaults, on two to eight columns (so that the
// pairwise test meets every width it unrolls and the general one), on
// ties, copies, NaN rows, ±Inf, -0.0 and mixed directions, against the
// oracle.
func TestSortLayersDCMatchesPeeling(t *testing.T) {
	values := []struct {
		name  string
		value *rapid.Generator[float64]
	}{
		{"values from a small set with specials", tiedValue},
		{"a few integers", rapid.Map(rapid.IntRange(0, 3), func(i int) float64 { return float64(i) })},
		{"spread values with some specials", spreadValue},
	}
	for _, tt := range values {
		value := tt.value
		t.Run(tt.name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				dims := rapid.IntRange(2, 8).Draw(t, "dims")
				n := rapid.IntRange(0, 60).Draw(t, "n")
				maximize := rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
				vals := rapid.SliceOfN(value, n*dims, n*dims).Draw(t, "values")
				orig := slices.Clone(vals)
				got := dcLayers(vals, dims, maximize, drawDCTuning(t))
				if !testkit.SameBits(vals, orig) {
					t.Fatal("sortLayersDC modified its input")
				}
				checkLayers(t, vals, dims, maximize, got)
			})
		})
	}
}

// Rows on a grid make long chains and many layers, so that the sweeps'
// staircases grow and shrink and helperB meets overlapping sides at every
// depth; the oracle checks the result row by row.
func TestSortLayersDCGrid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dims := rapid.IntRange(2, 5).Draw(t, "dims")
		n := rapid.IntRange(0, 150).Draw(t, "n")
		maximize := rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
		cell := rapid.OneOf(
			rapid.Map(rapid.IntRange(0, 7), func(i int) float64 { return float64(i) }),
			rapid.Just(math.NaN()),
		)
		vals := rapid.SliceOfN(cell, n*dims, n*dims).Draw(t, "values")
		got := dcLayers(vals, dims, maximize, drawDCTuning(t))
		checkLayers(t, vals, dims, maximize, got)
	})
}

// Hand-checked layers, with the recursion forced to single rows.
func TestSortLayersDCTable(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name     string
		values   []float64
		dims     int
		maximize []bool
		want     []int
	}{
		{
			// (0,0,0,0) dominates everything; (1,1,1,1) and its copy are
			// next; (2,2,2,1) after them; (0,3,3,3) only by row 0, and
			// (3,0,0,0) by nothing but row 0 either.
			"a chain with a copy and two side rows",
			[]float64{
				2, 2, 2, 1,
				1, 1, 1, 1,
				0, 0, 0, 0,
				1, 1, 1, 1,
				0, 3, 3, 3,
				3, 0, 0, 0,
			},
			4, []bool{false, false, false, false},
			[]int{2, 1, 0, 1, 1, 1},
		},
		{
			// Only the last column breaks the tie: (1,1,1,1) dominates
			// (1,1,1,2); a NaN row is dominated by every row with numbers
			// no worse elsewhere.
			"the last column decides and NaN is worst",
			[]float64{
				1, 1, 1, 2,
				1, 1, 1, 1,
				1, 1, 1, nan,
				0, 9, 9, 9,
			},
			4, []bool{false, false, false, false},
			[]int{1, 0, 2, 0},
		},
		{
			// Maximized first column: 5 beats 3; rows (5,1,1,1) and
			// (3,0,0,0) trade off; (3,1,1,1) is dominated by both.
			"mixed directions",
			[]float64{
				5, 1, 1, 1,
				3, 0, 0, 0,
				3, 1, 1, 1,
			},
			4, []bool{true, false, false, false},
			[]int{0, 0, 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, tu := range []dcTuning{
				{brute: 1, sample: 1, stair: 0, filter: 0},
				{brute: 1, sample: 1, stair: 100, filter: 1 << 20},
				{brute: dcBrute, sample: dcSample, stair: dcStairRanks, filter: dcFilter},
			} {
				got := dcLayers(tt.values, tt.dims, tt.maximize, tu)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Fatalf("%+v: layers (-want +got):\n%s", tu, diff)
				}
			}
		})
	}
}

func TestSelectKey(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vals := rapid.SliceOfN(rapid.Uint64Range(0, 5), 1, 50).Draw(t, "vals")
		r := rapid.IntRange(0, len(vals)-1).Draw(t, "r")
		sorted := slices.Clone(vals)
		slices.Sort(sorted)
		if got := selectKey(slices.Clone(vals), r); got != sorted[r] {
			t.Fatalf("selectKey(%v, %d) = %d, want %d", vals, r, got, sorted[r])
		}
	})
}

// Rows whose keys 1 and 2 trade off exactly (t against 1−t) never dominate
// one another in those keys, so sweepB2's staircases keep every row swept
// and grow past a block (2·stairBlock steps), which splits them and reuses
// spare blocks. Each base row may have a copy shifted by one in columns 0
// and 3, dominated by its base alone, and that copy a copy shifted again:
// layers 0, 1 and 2 by construction.
func TestSortLayersDCLongStaircases(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var vals []float64
	var want []int
	for i := range 1200 {
		x, w, tt := rng.Float64(), rng.Float64(), float64(i)/1200
		for l := range 1 + rng.IntN(3) {
			s := float64(l)
			vals = append(vals, x+s, tt, 1-tt, w+s)
			want = append(want, l)
		}
	}
	maximize := make([]bool, 4)
	for _, tu := range []dcTuning{
		{brute: 1, sample: dcSample, stair: 100, filter: 0},
		{brute: 4, sample: 5, stair: 100, filter: 1 << 20},
		{brute: dcBrute, sample: dcSample, stair: dcStairRanks, filter: dcFilter},
	} {
		got := dcLayers(vals, 4, maximize, tu)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%+v: layers (-want +got):\n%s", tu, diff)
		}
	}
}

// TestLopsided pins when a sampled cut is redone exactly: only past
// dcSample rows, and when the smaller side holds under a sixteenth of
// them (64 rows: 3 is under, 4 is not).
func TestLopsided(t *testing.T) {
	for _, tt := range []struct {
		low, total int
		want       bool
	}{
		{0, 63, false}, // dcSample rows: never
		{0, 64, true},
		{3, 64, true},
		{4, 64, false},
		{60, 64, false},
		{61, 64, true},
		{64, 64, true},
	} {
		if got := lopsided(tt.low, tt.total); got != tt.want {
			t.Errorf("lopsided(%d, %d) = %v, want %v", tt.low, tt.total, got, tt.want)
		}
	}
	// A cut of L and H together counts both sides: 3 + 1 of 40 + 24 is 4
	// of 64, not lopsided; 2 + 1 of 40 + 30 is 3 of 70, lopsided.
	if lopsidedSplit(3, 1, 40, 24) || !lopsidedSplit(2, 1, 40, 30) {
		t.Error("lopsidedSplit does not count the two sides together")
	}
}

// TestIdle counts the rows the rank filter may set aside: rows of L below
// bottom, rows of H above top, and not the rows at either bound.
func TestIdle(t *testing.T) {
	s := dcSorter{rank: []int{0, 1, 2, 3, 4, 5, 0, 5}}
	L, H := []int32{0, 1, 2, 6}, []int32{3, 4, 5, 7}
	if got := s.idle(L, H, 1, 4); got != 4 { // rows 0 and 6 of L, 5 and 7 of H
		t.Errorf("idle = %d, want 4", got)
	}
	if got := s.idle(L, H, 0, 5); got != 0 {
		t.Errorf("idle with bounds at the extremes = %d, want 0", got)
	}
}

// TestBestCut checks by hand where bestCut puts the rows at the threshold
// t: on the side that leaves the smaller side larger, low on a tie, and
// never where a side would be empty. The rows are split between A and B,
// which it counts alike.
func TestBestCut(t *testing.T) {
	for _, tt := range []struct {
		name      string
		keys      []uint64 // key 0 of rows 0, 1, …; A is the first two
		t, top    uint64
		wantAtLow bool
	}{
		{"1 below, 3 at, 1 above: 4|1 or 1|4, a tie, low", []uint64{1, 2, 2, 2, 3}, 2, 3, true},
		{"3 below, 1 at, 1 above: 4|1 against 3|2", []uint64{1, 1, 1, 2, 3}, 2, 3, false},
		{"1 below, 1 at, 3 above: 2|3 against 1|4", []uint64{1, 2, 3, 3, 3}, 2, 3, true},
		{"none below: the rows at t go low, or the low side is empty", []uint64{2, 2, 3, 3, 3, 3, 3}, 2, 3, true},
		{"t at the top: the rows at t go high, or the high side is empty", []uint64{1, 3, 3}, 3, 3, false},
		{"3 below, 2 at, 2 above: 5|2 against 3|4", []uint64{1, 2, 1, 3, 2, 1, 3}, 2, 3, false},
	} {
		s := dcSorter{cols: [][]uint64{tt.keys}}
		all := make([]int32, len(tt.keys))
		for i := range all {
			all[i] = int32(i)
		}
		c := s.bestCut(all[:2], all[2:], 0, tt.top, tt.t)
		if c.t != tt.t || c.atLow != tt.wantAtLow {
			t.Errorf("%s: bestCut = %+v, want atLow %v", tt.name, c, tt.wantAtLow)
		}
	}
}

// TestDCChoices pins the bounds at which the divide and conquer compares
// rows pairwise, hands keys 0..2 to sweepB2 and sets rows aside by layer,
// at the default thresholds. Every choice gives the same layers
// (TestSortLayersDCMatchesPeeling forces each way), so only this test can
// see a bound move.
func TestDCChoices(t *testing.T) {
	if dcBrute != 64 || dcStairRanks != 4 || dcFilter != 8 {
		t.Fatalf("thresholds %d, %d, %d; this test is written for 64, 4, 8", dcBrute, dcStairRanks, dcFilter)
	}
	for _, tt := range []struct {
		n    int
		want bool
	}{{64, true}, {65, false}} {
		if got := bruteA(tt.n); got != tt.want {
			t.Errorf("bruteA(%d) = %v", tt.n, got)
		}
	}
	for _, tt := range []struct {
		l, h int
		want bool
	}{{64, 64, true}, {1, 4096, true}, {65, 63, true}, {65, 64, false}, {4097, 1, false}} {
		if got := bruteB(tt.l, tt.h); got != tt.want {
			t.Errorf("bruteB(%d, %d) = %v", tt.l, tt.h, got)
		}
	}
	// 60 + 40 rows have a bit length of 7: layers of L reaching under 28
	// above the bounds of H go to sweepB2; 40 + 23 rows, 6 bits, under 24.
	for _, tt := range []struct {
		top, bottom, l, h int
		want              bool
	}{{30, 3, 60, 40, true}, {31, 3, 60, 40, false}, {30, 3, 40, 23, false}, {5, 2, 1, 0, true}, {6, 2, 1, 0, false}, {0, 0, 0, 0, false}} {
		if got := stairsPay(tt.top, tt.bottom, tt.l, tt.h); got != tt.want {
			t.Errorf("stairsPay(%d, %d, %d, %d) = %v", tt.top, tt.bottom, tt.l, tt.h, got)
		}
	}
	// Layers 2..5 in L, bounds 3..7 in H: row 7 of H is above every layer
	// of L, row 2 of L below every bound of H.
	for _, tt := range []struct {
		lowL, highH, bottom, top, l, h, idle int
		want                                 bool
	}{
		{2, 7, 3, 5, 40, 40, 10, true},  // 10·8 ≥ 80
		{2, 7, 3, 5, 40, 41, 10, false}, // 80 < 81
		{3, 7, 3, 5, 40, 40, 10, true},  // only H's above top
		{2, 5, 3, 5, 40, 40, 10, true},  // only L's below bottom
		{3, 5, 3, 5, 8, 8, 8, false},    // none can be: idle not asked
		{1, 5, 3, 5, 1, 0, 0, false},    // 0 < 1
	} {
		asked := false
		got := rankFilterPays(tt.lowL, tt.highH, tt.bottom, tt.top, tt.l, tt.h, func() int { asked = true; return tt.idle })
		some := tt.lowL < tt.bottom || tt.highH > tt.top
		if got != tt.want || asked != some {
			t.Errorf("rankFilterPays(%+v) = %v, idle asked: %v", tt, got, asked)
		}
	}
}

// TestStairsAddKeepsNoRedundantStep: the sweeps' staircase holds only
// steps that ascend in both key 1 and layer; a row no step can use is not
// added, and the steps a new row makes redundant go. Worked by hand.
func TestStairsAddKeepsNoRedundantStep(t *testing.T) {
	for _, tt := range []struct {
		name string
		add  []dcStep
		want []dcStep
	}{
		{"a larger key of the same layer adds nothing", []dcStep{{3, 2}, {5, 2}}, []dcStep{{3, 2}}},
		{"an equal key of a higher layer replaces", []dcStep{{5, 1}, {5, 2}}, []dcStep{{5, 2}}},
		{"a smaller key of the same layer replaces", []dcStep{{7, 2}, {5, 2}}, []dcStep{{5, 2}}},
		{"a smaller key of a lower layer goes before", []dcStep{{7, 2}, {5, 1}}, []dcStep{{5, 1}, {7, 2}}},
		{"one row drops two steps", []dcStep{{1, 0}, {4, 1}, {6, 2}, {9, 4}, {3, 3}}, []dcStep{{1, 0}, {3, 3}, {9, 4}}},
	} {
		var s dcSorter
		for _, st := range tt.add {
			s.stairsAdd(st.k1, st.rank)
		}
		if !slices.Equal(s.stairs, tt.want) {
			t.Errorf("%s: stairs %v, want %v", tt.name, s.stairs, tt.want)
		}
	}
}

// TestSweepB2SizesItsStaircases: sweepB2 keeps one staircase for each
// layer from bottom to top, and no more. Row 0 (keys 1 and 2: 0, 0) of
// layer 2 dominates row 1 (1, 1), whose bound 2 becomes 3; row 2 (layer
// 3, keys 5, 5) dominates nothing.
func TestSweepB2SizesItsStaircases(t *testing.T) {
	s := dcSorter{
		dims: 3,
		rows: []uint64{0, 0, 0, 1, 1, 1, 0, 5, 5},
		rank: []int{2, 2, 3},
	}
	s.sweepB2([]int32{0, 2}, []int32{1}, 2, 3)
	if s.rank[1] != 3 || len(s.layerStairs) != 2 {
		t.Errorf("rank %v, %d staircases; want rank[1] = 3, 2 staircases", s.rank, len(s.layerStairs))
	}
	for r, ls := range s.layerStairs {
		if len(ls.blocks) != 0 {
			t.Errorf("staircase %d not reset: %v", r, ls.blocks)
		}
	}
}
