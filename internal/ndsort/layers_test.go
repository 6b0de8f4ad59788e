package ndsort

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/spica-search/spica/internal/nd"
	"github.com/spica-search/spica/internal/testkit"
)

// oracleLayers peels fronts off the matrix one at a time, O(n³): the
// definition of non-dominated sorting, with no cleverness to get wrong.
func oracleLayers(values []float64, dims int, maximize []bool) []int {
	n := len(values) / dims
	row := func(i int) []float64 { return values[i*dims : (i+1)*dims] }
	layer := make([]int, n)
	left := make([]int, n)
	for i := range left {
		left[i] = i
	}
	for l := 0; len(left) > 0; l++ {
		var rest []int
		for _, i := range left {
			dominated := false
			for _, j := range left {
				if testkit.Dominates(row(j), row(i), maximize) {
					dominated = true
					break
				}
			}
			if dominated {
				rest = append(rest, i)
			} else {
				layer[i] = l
			}
		}
		left = rest
	}
	return layer
}

// checkLayers fails unless got, the layers some path gave the rows of vals,
// are those of oracleLayers.
func checkLayers(t interface {
	Helper()
	Fatalf(string, ...any)
}, vals []float64, dims int, maximize []bool, got []int) {
	t.Helper()
	if diff := cmp.Diff(oracleLayers(vals, dims, maximize), got); diff != "" {
		t.Fatalf("layers (-oracle +got):\n%s", diff)
	}
}

// tiedValue draws from a small set, so rows often tie or repeat, with every
// special value the key order must place: ±Inf, NaN and -0.0.
var tiedValue = rapid.SampledFrom([]float64{
	math.Inf(-1), -2, -1, math.Copysign(0, -1), 0, 1, 2, math.Inf(1), math.NaN(),
})

// spreadValue draws mostly distinct values in [-100, 100], with a quarter of
// tiedValue's, specials included.
var spreadValue = rapid.OneOf(
	rapid.Float64Range(-100, 100),
	rapid.Float64Range(-100, 100),
	rapid.Float64Range(-100, 100),
	tiedValue,
)

// drawMatrix draws a shape, directions and an n×dims matrix whose values
// come from value.
func drawMatrix(t *rapid.T, value *rapid.Generator[float64], maxDims, maxRows int) ([]float64, int, []bool) {
	dims := rapid.IntRange(1, maxDims).Draw(t, "dims")
	n := rapid.IntRange(0, maxRows).Draw(t, "n")
	maximize := rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
	values := rapid.SliceOfN(value, n*dims, n*dims).Draw(t, "values")
	return values, dims, maximize
}

func TestNonDominatedSortMatchesPeeling(t *testing.T) {
	values := []struct {
		name  string
		value *rapid.Generator[float64]
	}{
		{"values from a small set with specials", tiedValue},
		{"spread values with some specials", spreadValue},
	}
	for _, tt := range values {
		value := tt.value
		for _, bits := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/bits=%v", tt.name, bits), func(t *testing.T) {
				useLayersBits(t, bits)
				rapid.Check(t, func(t *rapid.T) {
					vals, dims, maximize := drawMatrix(t, value, 5, 40)
					orig := slices.Clone(vals)
					got := layersOf(vals, dims, maximize)
					if !testkit.SameBits(vals, orig) {
						t.Fatal("NonDominatedSort modified its input")
					}
					checkLayers(t, vals, dims, maximize, got)
				})
			})
		}
	}
}

// useLayersBits sends the rest of the test's matrices of three or more
// columns through layersBits, whatever their size, or never.
func useLayersBits(t *testing.T, on bool) {
	old, old3 := layersBitsMax, layersBits3Max
	t.Cleanup(func() { layersBitsMax, layersBits3Max = old, old3 })
	layersBitsMax, layersBits3Max = 0, 0
	if on {
		layersBitsMax, layersBits3Max = math.MaxInt, math.MaxInt
	}
}

// TestLayersBitsAcrossWords runs layersBits on up to 300 rows, so that
// rows, sets and layers span several 64-bit words and a row's set ends in
// any bit of its last word, against the quadratic definition.
func TestLayersBitsAcrossWords(t *testing.T) {
	useLayersBits(t, true)
	rapid.Check(t, func(t *rapid.T) {
		dims := rapid.IntRange(3, 6).Draw(t, "dims")
		n := rapid.IntRange(1, 300).Draw(t, "n")
		maximize := rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
		value := rapid.OneOf(tiedValue, rapid.Float64Range(-100, 100))
		vals := rapid.SliceOfN(value, n*dims, n*dims).Draw(t, "values")
		got := layersOf(vals, dims, maximize)
		if diff := cmp.Diff(oracleLayersQuadratic(vals, dims, maximize), got); diff != "" {
			t.Fatalf("layers (-definition +bits):\n%s", diff)
		}
	})
}

// Large inputs with many layers reach the binary searches' deeper paths,
// which the small oracle comparisons rarely do.
func TestNonDominatedSortLayerInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		value := rapid.OneOf(
			rapid.Map(rapid.IntRange(0, 12), func(i int) float64 { return float64(i) }),
			rapid.Just(math.NaN()),
		)
		dims := rapid.IntRange(1, 5).Draw(t, "dims")
		n := rapid.IntRange(0, 300).Draw(t, "n")
		maximize := rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
		vals := rapid.SliceOfN(value, n*dims, n*dims).Draw(t, "values")
		layer := layersOf(vals, dims, maximize)
		front := frontOf(vals, dims, maximize)
		var zero []int
		for i, l := range layer {
			if l == 0 {
				zero = append(zero, i)
			}
		}
		if diff := cmp.Diff(front, zero, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("layer 0 differs from NonDominated (-front +layer 0):\n%s", diff)
		}
		row := func(i int) []float64 { return vals[i*dims : (i+1)*dims] }
		for i, li := range layer {
			dominatedFromAbove := li == 0
			for j, lj := range layer {
				if lj == li && testkit.Dominates(row(j), row(i), maximize) {
					t.Fatalf("row %d dominates row %d, both in layer %d", j, i, li)
				}
				if lj == li-1 && testkit.Dominates(row(j), row(i), maximize) {
					dominatedFromAbove = true
				}
			}
			if !dominatedFromAbove {
				t.Fatalf("row %d is in layer %d but no row of layer %d dominates it", i, li, li-1)
			}
		}
	})
}

func TestNonDominatedSortTable(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name     string
		values   []float64
		dims     int
		maximize []bool
		want     []int
	}{
		{"an empty matrix has no layers", nil, 2, []bool{false, false}, []int{}},
		{"one column ranks distinct values", []float64{3, 1, 3, 2, nan}, 1, []bool{false}, []int{2, 0, 2, 1, 3}},
		{"a maximized column ranks from the top", []float64{3, 1, 3, 2}, 1, []bool{true}, []int{0, 2, 0, 1}},
		{"-0.0 and 0.0 are one value", []float64{negZero, 0, 1}, 1, []bool{false}, []int{0, 0, 1}},
		{
			"two columns peel a staircase",
			[]float64{1, 4, 2, 2, 4, 1, 2, 4, 3, 3, 4, 4},
			2, []bool{false, false},
			[]int{0, 0, 0, 1, 1, 2},
		},
		{
			"a row with the same first key and a larger second is dominated",
			[]float64{1, 1, 1, 2, 1, 2},
			2, []bool{false, false},
			[]int{0, 1, 1},
		},
		{
			"NaN is worst whatever the direction",
			[]float64{nan, 0, 1, 0, -inf, nan},
			2, []bool{true, false},
			[]int{1, 0, 1},
		},
		{
			"three columns: copies share a layer",
			[]float64{1, 1, 1, 2, 2, 2, 1, 1, 1, 0, 3, 3, 3, 3, 3},
			3, []bool{false, false, false},
			[]int{0, 1, 0, 0, 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := layersOf(tt.values, tt.dims, tt.maximize)
			if got == nil {
				t.Fatal("got nil, want a non-nil slice")
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("layers (-want +got):\n%s", diff)
			}
		})
	}
}

// A chain, each row dominating the next, puts every row in its own layer:
// the deepest the binary searches over layers can go.
func TestNonDominatedSortChain(t *testing.T) {
	const n = 1000
	rank := rand.New(rand.NewPCG(7, 7)).Perm(n)
	for dims := 1; dims <= 5; dims++ {
		t.Run(fmt.Sprintf("d=%d", dims), func(t *testing.T) {
			values := make([]float64, n*dims)
			maximize := make([]bool, dims)
			for j := range maximize {
				maximize[j] = j%2 == 1
			}
			for i, r := range rank {
				for j := 0; j < dims; j++ {
					// Only the first column moves strictly; the rest step
					// every other row, so ties within the chain abound.
					v := float64(r / 2)
					if j == 0 {
						v = float64(r)
					}
					if maximize[j] {
						v = -v
					}
					values[i*dims+j] = v
				}
			}
			got := layersOf(values, dims, maximize)
			if diff := cmp.Diff(rank, got); diff != "" {
				t.Errorf("layers (-rank in chain +got):\n%s", diff)
			}
		})
	}
}

// oracleLayersQuadratic is the layer of each row by its definition, in
// O(n²·dims): one more than the deepest layer of any row dominating it (0
// when none does). Rows are visited best first in a lexicographic order of
// testkit.Better, where every dominator comes before the rows it dominates.
func oracleLayersQuadratic(values []float64, dims int, maximize []bool) []int {
	n := len(values) / dims
	row := func(i int) []float64 { return values[i*dims : (i+1)*dims] }
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		for c := range dims {
			switch {
			case testkit.Better(row(a)[c], row(b)[c], maximize[c]):
				return -1
			case testkit.Better(row(b)[c], row(a)[c], maximize[c]):
				return 1
			}
		}
		return 0
	})
	layer := make([]int, n)
	for k, i := range order {
		for _, j := range order[:k] {
			if layer[j] >= layer[i] && testkit.Dominates(row(j), row(i), maximize) {
				layer[i] = layer[j] + 1
			}
		}
	}
	return layer
}

// The three-column staircases only split into blocks and lose runs of
// steps across blocks when a layer has hundreds of members, beyond what
// the peeling oracle can check quickly; the quadratic definition serves as
// the reference instead.
func TestNonDominatedSortThreeColumnsAtScale(t *testing.T) {
	useLayersBits(t, false)
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(500, 2500).Draw(t, "n")
		shape := rapid.SampledFrom([]string{"antichain", "collapse", "plane", "grid"}).Draw(t, "shape")
		spread := rapid.IntRange(1, 50).Draw(t, "spread")
		seed := rapid.Uint64().Draw(t, "seed")
		r := rand.New(rand.NewPCG(seed, 1))
		values := make([]float64, 3*n)
		for i := 0; i < n; i++ {
			row := values[3*i : 3*i+3]
			noise := func() float64 { return float64(r.IntN(spread)) }
			switch shape {
			case "antichain":
				// The second key falls as the first rises and the third
				// rises with it: every row lands at a staircase's front.
				row[0], row[1], row[2] = float64(i)+noise(), float64(n-i)+noise(), float64(i)+noise()
			case "collapse":
				// A long antichain, then rows below it that each cut a run
				// of its steps, often across blocks.
				if i < n/2 {
					row[0], row[1], row[2] = float64(i), float64(n-i), float64(i)
				} else {
					k1 := r.IntN(n)
					row[0], row[1], row[2] = float64(n+i), float64(k1), float64(r.IntN(n-k1))+noise()
				}
			case "plane":
				x, y := float64(r.IntN(n)), float64(r.IntN(n))
				row[0], row[1], row[2] = x, y, 2*float64(n)-x-y+noise()
			case "grid":
				row[0], row[1], row[2] = noise(), noise(), noise()
			}
		}
		maximize := []bool{false, false, false}
		got := layersOf(values, 3, maximize)
		if diff := cmp.Diff(oracleLayersQuadratic(values, 3, maximize), got); diff != "" {
			t.Fatalf("layers (-definition +staircase):\n%s", diff)
		}
	})
}

func TestCrowdingDistanceTable(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name   string
		values []float64
		dims   int
		want   []float64
	}{
		{"an empty matrix has no distances", nil, 2, []float64{}},
		{"one row is an end", []float64{1, 2}, 2, []float64{inf}},
		{"two rows are both ends even when equal", []float64{1, 1, 1, 1}, 2, []float64{inf, inf}},
		{
			// Range 4 − 0 = 4. Row 1: (3 − 0)/4 = 0.75. Row 2: (4 − 1)/4 = 0.75.
			"one column: interior rows divide the neighbour gap by the range",
			[]float64{0, 1, 3, 4}, 1,
			[]float64{inf, 0.75, 0.75, inf},
		},
		{
			// Input order does not matter: sorted, the values are 0 (row 2),
			// 1 (row 0), 3 (row 3), 4 (row 1), as above.
			"rows are placed by value, not input order",
			[]float64{1, 4, 0, 3}, 1,
			[]float64{0.75, inf, inf, 0.75},
		},
		{
			// Column 0 is 0, 1, 2, 4 (range 4): rows 1 and 2 get (2 − 0)/4 =
			// 0.5 and (4 − 1)/4 = 0.75. Column 1 is 10, 8, 2, 0 (range 10),
			// sorted 0 (row 3), 2 (row 2), 8 (row 1), 10 (row 0): row 2 gets
			// (8 − 0)/10 = 0.8 and row 1 (10 − 2)/10 = 0.8. Totals: row 1
			// 0.5 + 0.8 = 1.3, row 2 0.75 + 0.8 = 1.55.
			"two columns add up",
			[]float64{0, 10, 1, 8, 2, 2, 4, 0}, 2,
			[]float64{inf, 1.3, 1.55, inf},
		},
		{
			// Column 1 is all 5: it adds nothing, not even +Inf to its ends.
			// Column 0 alone gives inf, 0.75, 0.75, inf as in the 1-D case.
			"an all-equal column adds nothing",
			[]float64{0, 5, 1, 5, 3, 5, 4, 5}, 2,
			[]float64{inf, 0.75, 0.75, inf},
		},
		{"an all-equal matrix is all zero", []float64{7, 7, 7, 7, 7, 7}, 2, []float64{0, 0, 0}},
		{
			// Sorted with ties by index: 1 (row 0), 1 (row 1), 1 (row 2),
			// 3 (row 3); range 2. Row 0 is the first end; row 1 gets
			// (1 − 1)/2 = 0; row 2 gets (3 − 1)/2 = 1.
			"ties are ordered by row index",
			[]float64{1, 1, 1, 3}, 1,
			[]float64{inf, 0, 1, inf},
		},
		{
			// -0.0 ties 0.0, so row 0 (-0.0) precedes row 1 (0.0) by index.
			// Sorted: -0.0 (row 0), 0 (row 1), 2 (row 2); range 2; row 1
			// gets (2 − 0)/2 = 1.
			"-0.0 ties 0.0",
			[]float64{math.Copysign(0, -1), 0, 2}, 1,
			[]float64{inf, 1, inf},
		},
		{
			// Column 0 without the NaN row 1: 0 (row 0), 2 (row 2), 4 (row 3),
			// 8 (row 4); range 8; row 2 gets (4 − 0)/8 = 0.5, row 3 (8 − 2)/8
			// = 0.75, row 1 nothing.
			"a NaN takes no part in its column",
			[]float64{0, nan, 2, 4, 8}, 1,
			[]float64{inf, 0, 0.5, 0.75, inf},
		},
		{
			// Column 0 has one number (row 0): nothing. Column 1: 1 (row 1),
			// 3 (row 2), ends both. Row 0 is NaN in column 1.
			"a column with one number adds nothing",
			[]float64{5, nan, nan, 1, nan, 3}, 2,
			[]float64{0, inf, inf},
		},
		{"an all-NaN matrix is all zero", []float64{nan, nan, nan}, 1, []float64{0, 0, 0}},
		{
			// Sorted: -Inf (row 0), 0 (row 1), 1 (row 2), +Inf (row 3). Row 1's
			// neighbours are -Inf and 1: an infinite gap, +Inf. Row 2's are 0
			// and +Inf: +Inf.
			"a gap to an infinity is infinite",
			[]float64{-inf, 0, 1, inf}, 1,
			[]float64{inf, inf, inf, inf},
		},
		{
			// Sorted: 0, 1, 2, 3, +Inf; the range is infinite. Rows 1 and 2
			// have finite neighbours: a finite gap in an infinite range, 0.
			// Row 3's neighbours are 2 and +Inf: +Inf.
			"a finite gap in an infinite range is zero",
			[]float64{0, 1, 2, 3, inf}, 1,
			[]float64{inf, 0, 0, inf, inf},
		},
		{
			// Sorted: 0, +Inf, +Inf, +Inf. Row 2's neighbours are both +Inf:
			// equal, so a zero gap, not Inf − Inf.
			"equal infinite neighbours are no gap",
			[]float64{0, inf, inf, inf}, 1,
			[]float64{inf, inf, 0, inf},
		},
		{
			// The range 2·MaxFloat64 overflows; the quotient must not. Row 1's
			// neighbours are -Max and Max: gap over range is 1.
			"a range beyond float64 still divides",
			[]float64{-math.MaxFloat64, 0, math.MaxFloat64}, 1,
			[]float64{inf, 1, inf},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig := slices.Clone(tt.values)
			got := crowdingOf(tt.values, tt.dims)
			if got == nil {
				t.Fatal("got nil, want a non-nil slice")
			}
			if !testkit.SameBits(tt.values, orig) {
				t.Fatal("CrowdingDistance modified its input")
			}
			if diff := cmp.Diff(tt.want, got, cmpFloatNear); diff != "" {
				t.Errorf("distances (-want +got):\n%s", diff)
			}
		})
	}
}

// cmpFloatNear compares floats to within rounding; infinities must match.
var cmpFloatNear = cmp.Comparer(func(a, b float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= 1e-12*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
})

// oracleCrowding is the textbook NSGA-II crowding distance for finite data.
func oracleCrowding(values []float64, dims int) []float64 {
	n := len(values) / dims
	dist := make([]float64, n)
	if n <= 2 {
		for i := range dist {
			dist[i] = math.Inf(1)
		}
		return dist
	}
	for j := 0; j < dims; j++ {
		v := func(i int) float64 { return values[i*dims+j] }
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return v(idx[a]) < v(idx[b]) })
		lo, hi := v(idx[0]), v(idx[n-1])
		if lo == hi {
			continue
		}
		dist[idx[0]] = math.Inf(1)
		dist[idx[n-1]] = math.Inf(1)
		for r := 1; r < n-1; r++ {
			dist[idx[r]] += (v(idx[r+1]) - v(idx[r-1])) / (hi - lo)
		}
	}
	return dist
}

func TestCrowdingDistanceMatchesTextbookOnFiniteData(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		value := rapid.OneOf(rapid.Float64Range(-1e6, 1e6), rapid.SampledFrom([]float64{-1, 0, 1, 2}))
		vals, dims, _ := drawMatrix(t, value, 4, 30)
		got := crowdingOf(vals, dims)
		if diff := cmp.Diff(oracleCrowding(vals, dims), got, cmpFloatNear); diff != "" {
			t.Fatalf("distances (-textbook +got):\n%s", diff)
		}
	})
}

func TestCrowdingDistanceIsNeverNaN(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		value := rapid.OneOf(
			tiedValue,
			rapid.Float64Range(-1e6, 1e6),
			rapid.SampledFrom([]float64{-math.MaxFloat64, math.MaxFloat64, math.SmallestNonzeroFloat64}),
		)
		vals, dims, _ := drawMatrix(t, value, 4, 30)
		orig := slices.Clone(vals)
		got := crowdingOf(vals, dims)
		if !testkit.SameBits(vals, orig) {
			t.Fatal("CrowdingDistance modified its input")
		}
		for i, d := range got {
			if math.IsNaN(d) || d < 0 {
				t.Fatalf("row %d: distance %v, want a number >= 0", i, d)
			}
		}
	})
}

// TestNonDominatedSortDCPaths goes through NonDominatedSort with four to six
// columns, with the divide and conquer forced down to single rows and
// one-row samples, and at its defaults.
func TestNonDominatedSortDCPaths(t *testing.T) {
	for _, tune := range [][2]int{{1, 1}, {2, 3}, {dcBrute, dcSample}} {
		t.Run(fmt.Sprintf("brute=%d,sample=%d", tune[0], tune[1]), func(t *testing.T) {
			useLayersBits(t, false)
			defer func(b, s int) { dcBrute, dcSample = b, s }(dcBrute, dcSample)
			dcBrute, dcSample = tune[0], tune[1]
			rapid.Check(t, func(t *rapid.T) {
				value := rapid.OneOf(tiedValue, rapid.Float64Range(-100, 100))
				dims := rapid.IntRange(4, 6).Draw(t, "dims")
				n := rapid.IntRange(0, 40).Draw(t, "n")
				maximize := rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
				vals := rapid.SliceOfN(value, n*dims, n*dims).Draw(t, "values")
				got := layersOf(vals, dims, maximize)
				checkLayers(t, vals, dims, maximize, got)
			})
		})
	}
}

// TestStepsBisections checks the branch-free bisections of the staircase
// against counting, on ascending keys with runs of equal ones.
func TestStepsBisections(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOfN(rapid.Uint64Range(0, 20), 0, 40).Draw(t, "keys")
		slices.Sort(keys)
		steps := make([]stairStep, len(keys))
		for i, k := range keys {
			steps[i] = stairStep{k1: k}
		}
		k := rapid.OneOf(rapid.Uint64Range(0, 21), rapid.SampledFrom([]uint64{math.MaxUint64, 1 << 63})).Draw(t, "k")
		atMost, below := 0, 0
		for _, s := range steps {
			if s.k1 <= k {
				atMost++
			}
			if s.k1 < k {
				below++
			}
		}
		if got := stepsAtMost(steps, k); got != atMost {
			t.Fatalf("stepsAtMost(%v, %d) = %d, want %d", keys, k, got, atMost)
		}
		if got := stepsBelow(steps, k); got != below {
			t.Fatalf("stepsBelow(%v, %d) = %d, want %d", keys, k, got, below)
		}
	})
}

// TestLayersTwoColumnsBeyondTheSmallPath sorts two columns of more rows than
// the small path takes (nd.SmallLexOrder2Max), and at its limit, against the
// same rows with a constant third column: a column every row shares changes
// no dominance, and sends the rows down the three-column path instead.
func TestLayersTwoColumnsBeyondTheSmallPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 2))
	for _, n := range []int{nd.SmallLexOrder2Max, nd.SmallLexOrder2Max + 1, 20000} {
		values := make([]float64, 2*n)
		three := make([]float64, 0, 3*n)
		for i := range n {
			// Few distinct values, so rows tie and layers run deep.
			values[2*i], values[2*i+1] = float64(rng.IntN(300)), float64(rng.IntN(300))
			three = append(three, values[2*i], values[2*i+1], 7)
		}
		maximize := []bool{false, true}
		got := Layers(values, n, 2, maximize)
		want := Layers(three, n, 3, []bool{false, true, false})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("n=%d: two columns (+) against three with a constant one (-):\n%s", n, diff)
		}
	}
}

// TestEngineFor pins which way Layers takes at the bounds its godoc
// gives; TestNonDominatedSortMatchesPeeling and the tests that force each engine
// check that every way gives the same layers.
func TestEngineFor(t *testing.T) {
	for _, tt := range []struct {
		n, dims int
		want    layersEngine
	}{
		{1, 1, keyedEngine},
		{nd.SmallLexOrder2Max, 2, small2Engine},
		{nd.SmallLexOrder2Max + 1, 2, keyedEngine},
		{layersBits3Max, 3, bitsEngine},
		{layersBits3Max + 1, 3, keyedEngine},
		{layersBitsMax, 4, bitsEngine},
		{layersBitsMax + 1, 4, peeledEngine},
		{layersBitsMax, 6, bitsEngine},
		{layersBitsMax + 1, 6, peeledEngine},
	} {
		if got := engineFor(tt.n, tt.dims); got != tt.want {
			t.Errorf("engineFor(%d, %d) = %d, want %d", tt.n, tt.dims, got, tt.want)
		}
	}
}

// TestLayerStairsInvariant inserts steps into a staircase, each only if no
// step dominates it, as sortLayers3 and sweepB2 do, and after each checks
// the staircase's invariant (k1 strictly ascending, k2 strictly
// descending, blocks non-empty and at most 2·stairBlock long) and that it
// holds exactly the minimal steps of those inserted so far. Keys from a
// small range tie often in either key; hundreds of steps along a falling
// line fill several blocks.
func TestLayerStairsInvariant(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		top := rapid.Uint64Range(1, 600).Draw(t, "top")
		n := rapid.IntRange(1, 1200).Draw(t, "n")
		var spare [][]stairStep
		s := layerStairs{spare: &spare}
		var minimal []stairStep // the oracle: the steps no other is no larger than
		for range n {
			p := stairStep{rapid.Uint64Range(0, top).Draw(t, "k1"), 0}
			p.k2 = top - p.k1 + rapid.Uint64Range(0, 2).Draw(t, "k2 above the line")
			dominated := slices.ContainsFunc(minimal, func(q stairStep) bool { return q.k1 <= p.k1 && q.k2 <= p.k2 })
			if s.dominates(p) != dominated {
				t.Fatalf("dominates(%v) = %v, want %v", p, !dominated, dominated)
			}
			if dominated {
				continue
			}
			s.insert(p)
			minimal = slices.DeleteFunc(minimal, func(q stairStep) bool { return p.k1 <= q.k1 && p.k2 <= q.k2 })
			minimal = append(minimal, p)
			slices.SortFunc(minimal, func(a, b stairStep) int { return int(a.k1) - int(b.k1) })
			var got []stairStep
			for _, blk := range s.blocks {
				if len(blk) == 0 || len(blk) > 2*stairBlock {
					t.Fatalf("a block of %d steps", len(blk))
				}
				got = append(got, blk...)
			}
			if !slices.Equal(got, minimal) {
				t.Fatalf("after inserting %v the staircase is %v, want %v", p, got, minimal)
			}
		}
	})
}

// TestLayerStairsRunIntoNextBlock builds by hand a staircase of two
// blocks, steps (i, 1000−i) for i < 256 and 256 ≤ i < 300, and inserts
// (250, 744), which dominates (250, 750) … (255, 745) at the end of the
// first block and (256, 744), of equal k2, at the head of the second.
func TestLayerStairsRunIntoNextBlock(t *testing.T) {
	var spare [][]stairStep
	s := layerStairs{spare: &spare}
	for i := range uint64(300) {
		s.insert(stairStep{i, 1000 - i})
	}
	if len(s.blocks) != 2 || len(s.blocks[0]) != stairBlock {
		t.Fatalf("blocks of %d and %d steps, want %d and 44", len(s.blocks[0]), len(s.blocks[1]), stairBlock)
	}
	s.insert(stairStep{250, 744})
	var got []stairStep
	for _, blk := range s.blocks {
		got = append(got, blk...)
	}
	var want []stairStep
	for i := range uint64(250) {
		want = append(want, stairStep{i, 1000 - i})
	}
	want = append(want, stairStep{250, 744})
	for i := uint64(257); i < 300; i++ {
		want = append(want, stairStep{i, 1000 - i})
	}
	if !slices.Equal(got, want) {
		t.Errorf("staircase %v, want %v", got, want)
	}
}
