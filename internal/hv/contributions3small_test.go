package hv

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spica-search/spica/internal/nd"
	"pgregory.net/rapid"
)

// contributions3Paths are the two values of contributions3SmallMax that
// send every three-column call one way: the sweep over bit trees
// (contributions3) or the one over slices (contributions3Small).
var contributions3Paths = []struct {
	name  string
	limit int
}{{"sweep", 0}, {"small", 1 << 30}}

// useContributions3Path sets contributions3SmallMax for the rest of the test.
func useContributions3Path(t testing.TB, limit int) {
	old := contributions3SmallMax
	contributions3SmallMax = limit
	t.Cleanup(func() { contributions3SmallMax = old })
}

// sharesOnPath is sharesOf of a three-column matrix with
// contributions3SmallMax set to limit for the one call, for the bodies of
// rapid checks, which have no Cleanup.
func sharesOnPath(limit int, values []float64, maximize []bool, ref []float64) []float64 {
	defer func(old int) { contributions3SmallMax = old }(contributions3SmallMax)
	contributions3SmallMax = limit
	return sharesOf(values, 3, maximize, ref)
}

// useHV3Path sets hv3SmallMax, above which Volume takes three columns
// through hv3, for the rest of the test.
func useHV3Path(t testing.TB, limit int) {
	old := hv3SmallMax
	hv3SmallMax = limit
	t.Cleanup(func() { hv3SmallMax = old })
}

func TestContributions3ByHand(t *testing.T) {
	up := []bool{true, true, true}
	tests := []struct {
		name     string
		values   []float64
		maximize []bool
		ref      []float64
		want     []float64
	}{
		{"one row holds its box", []float64{1, 2, 3}, up, []float64{0, 0, 0}, []float64{6}},
		// Boxes of 3 overlapping in the unit cube: each keeps 3 − 1.
		{"two rows share a unit cube", []float64{3, 1, 1, 1, 3, 1}, up, []float64{0, 0, 0}, []float64{2, 2}},
		// The same rows minimized against (4, 4, 2): extents 3,1,1 and 1,3,1.
		{"minimized", []float64{1, 3, 1, 3, 1, 1}, nil, []float64{4, 4, 2}, []float64{2, 2}},
		// The unit cube is held by both: 8 − 1 and 0.
		{"a row inside another", []float64{2, 2, 2, 1, 1, 1}, up, []float64{0, 0, 0}, []float64{7, 0}},
		// Equal rows hide each other. The third holds its box, 3, less the
		// 1×1×2 under the equal rows: 1.
		{"equal rows and a third", []float64{2, 2, 2, 2, 2, 2, 1, 1, 3}, up, []float64{0, 0, 0}, []float64{0, 0, 1}},
		// A tie in x and z: the second row's box, 6, holds the first's, 2.
		{"a tie in x under a taller row", []float64{2, 1, 1, 2, 3, 1}, up, []float64{0, 0, 0}, []float64{0, 4}},
		// Boxes 9 and 8 overlap in 2×2×1: 5 and 4. The third row, inside
		// the second only, takes from it the part above z = 1 that the first
		// does not cover: 1×1×0.5.
		{"a row that only one other hides", []float64{3, 3, 1, 2, 2, 2, 1, 1, 1.5}, up, []float64{0, 0, 0}, []float64{5, 3.5, 0}},
		// Ties in x between rows the sweep meets in turn. (2, 4, 2) and
		// (2, 2, 4) share the cube [0,2]×[0,2]×[0,2], 8, and keep 16 − 8;
		// (3, 1, 1) keeps its box, 3, less the 2×1×1 both hide: 1.
		{"a tie in x across the heights", []float64{2, 4, 2, 2, 2, 4, 3, 1, 1}, up, []float64{0, 0, 0}, []float64{8, 8, 1}},
		// (4, 2, 4) holds (4, 2, 2) and (4, 1, 2): its box, 32, less the
		// union of (4, 2, 2), 16, and of (1, 4, 3) clipped to (1, 2, 3),
		// whose 1×2×1 above z = 2 is new: 14. (1, 4, 3) keeps 12 − 6.
		{"a tie in x with the row above", []float64{4, 2, 4, 4, 2, 2, 4, 1, 2, 1, 4, 3}, up, []float64{0, 0, 0}, []float64{14, 0, 0, 6}},
		// (4, 2, 4) holds (1, 1, 3) and (1, 2, 2): 32 less (1, 4, 4)
		// clipped to (1, 2, 4), 8, is 24; (1, 4, 4) keeps 16 less the same
		// 8, which holds the other two clipped.
		{"a tie in x below a front row", []float64{1, 4, 4, 1, 1, 3, 1, 2, 2, 4, 2, 4}, up, []float64{0, 0, 0}, []float64{8, 0, 0, 24}},
		// (1, 4, 3) keeps 12 less (3, 2, 4) clipped to (1, 2, 3): 6.
		// (3, 2, 4) keeps 24 less 19: 2×3×2 under (4, 2, 2), then the
		// L-shaped 2 + 3 − 1 = 4 of (1, 2, 3) and (3, 1, 4) between z = 2
		// and 3, and 3×1×1 of (3, 1, 4) above: 5. (3, 1, 4) is inside it;
		// (4, 2, 2) keeps 16 less (3, 2, 2), 12: 4.
		{"a tie in x the new front row dominates", []float64{1, 4, 3, 3, 2, 4, 3, 1, 4, 4, 2, 2}, up, []float64{0, 0, 0}, []float64{6, 5, 0, 4}},
		// (1, 3, 1) and (1, 4, 2) are inside (1, 4, 4). (3, 2, 1) keeps 6
		// less the union of 1×2 and 3×1 over z ∈ [0, 1], 4: 2. (1, 4, 4)
		// keeps 16 less 1×4×2 and 1×1×2 above it: 6. (4, 1, 4) keeps 16
		// less 3×1×1 and 1×1×3: 10.
		{"a back row on a rectangle's old left side", []float64{1, 3, 1, 3, 2, 1, 1, 4, 4, 1, 4, 2, 4, 1, 4}, up, []float64{0, 0, 0}, []float64{0, 2, 6, 0, 10}},
		// Rows outside the box, on its border or NaN count for nothing.
		{"rows outside the box", []float64{1, 1, 1, 0, 5, 5, math.NaN(), 1, 1, 2, -1, 2}, up, []float64{0, 0, 0}, []float64{1, 0, 0, 0}},
	}
	for _, p := range contributions3Paths {
		for _, tt := range tests {
			t.Run(p.name+"/"+tt.name, func(t *testing.T) {
				useContributions3Path(t, p.limit)
				maximize := tt.maximize
				if maximize == nil {
					maximize = make([]bool, 3)
				}
				got := sharesOf(tt.values, 3, maximize, tt.ref)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("shares (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestContributions3RoundingByHand holds the sweep, which updates areas by
// differences, to shares worked out exactly on rows where a wrong choice
// of when to measure again, or of which rows to keep, shows in the result.
// Maximized, reference (0, 0, 0).
func TestContributions3RoundingByHand(t *testing.T) {
	tests := []shares3Case{
		// (3, 6, 1+2^-52) holds (3, 6−2^-50, 1), which leaves it the strip
		// 3×2^-50 under z = 1: 3·6·2^-52 + 3·2^-50·1 = 30·2^-52. The back
		// row's gain, 3·(6−2^-50) = 18 − 3·2^-50, rounds to 18 − 2^-48
		// (ulps of 2^-48 above 16), so 18 less the gain would be 2^-48 =
		// 4·2^-50: a difference that cancels more than half the area must
		// not be taken.
		{"an area almost all lost", []float64{3, 6, 1 + 0x1p-52, 3, 6 - 0x1p-50, 1}, []float64{30 * 0x1p-52, 0}},
		// A = (6, 6) over C = (7, 1) has the rectangle [0,6]×[1,6], 30,
		// for 2^-50 of height; (0.24, 1) lies inside C, on A's bottom, and
		// stays out of the back. D = (3, 7) at z = 1 cuts [0,3]×[1,6],
		// 15, leaving A 15: 15 + 30·2^-50, which ulps of 2^-49 hold. Had
		// the row on the bottom entered the back, the cut would be the
		// strips 0.24·5 + (3 − 0.24)·5, 15 − 2^-49 in floats (see
		// TestContributions2RectangleInOneProduct), and A's area would be
		// left 15 + 2^-49. C keeps 7·(1+2^-50) less A's 6·(1+2^-50); D keeps
		// 21 less A's 18.
		{"a row on a rectangle's bottom", []float64{6, 6, 1 + 0x1p-50, 7, 1, 1 + 0x1p-50, 0.24, 1, 1 + 0x1p-51, 3, 7, 1},
			[]float64{15 + 15*0x1p-49, 1 + 0x1p-50, 0, 3}},
	}
	checkShares3(t, tests)
}

// TestContrib3Search: the first step with x ≥ v, a step with x = v
// included, on a front short enough to count (three steps) and on one long
// enough to bisect (twenty, x = 1…20); contrib3Counts draws the line
// between the two at sixteen steps, where only speed shows it.
func TestContrib3Search(t *testing.T) {
	short := []contrib3Step{{x: 1, y: 3}, {x: 2, y: 2}, {x: 3, y: 1}}
	long := make([]contrib3Step, 20)
	for i := range long {
		long[i] = contrib3Step{x: float64(i + 1), y: float64(20 - i)}
	}
	for _, tt := range []struct {
		name  string
		front []contrib3Step
		v     float64
		want  int
	}{
		{"short, left of every step", short, 0.5, 0},
		{"short, on the first step", short, 1, 0},
		{"short, on a middle step", short, 2, 1},
		{"short, between steps", short, 2.5, 2},
		{"short, right of every step", short, 3.5, 3},
		{"empty", nil, 1, 0},
		{"long, left of every step", long, 0, 0},
		{"long, on a step", long, 7, 6},
		{"long, between steps", long, 7.5, 7},
		{"long, on the last step", long, 20, 19},
		{"long, right of every step", long, 21, 20},
	} {
		if got := contrib3Search(tt.front, tt.v); got != tt.want {
			t.Errorf("%s: contrib3Search(%v) = %d, want %d", tt.name, tt.v, got, tt.want)
		}
	}
	for _, tt := range []struct {
		n    int
		want bool
	}{{0, true}, {1, true}, {16, true}, {17, false}, {100, false}} {
		if got := contrib3Counts(tt.n); got != tt.want {
			t.Errorf("contrib3Counts(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
}

// contributions3Input draws a three-column matrix from a handful of values,
// so ties in every column, duplicates and rows outside the box are common,
// with NaN and infinities when special is set.
func contributions3Input(t *rapid.T, maxRows int, special bool) ([]float64, []bool, []float64) {
	n := rapid.IntRange(0, maxRows).Draw(t, "n")
	maximize := rapid.SliceOfN(rapid.Bool(), 3, 3).Draw(t, "maximize")
	ref := []float64{4.5, 4.5, 4.5}
	for j, up := range maximize {
		if up {
			ref[j] = -0.5
		}
	}
	pool := []float64{0, 0.5, 1, 2, 3, 4, 5}
	if special {
		pool = append(pool, math.NaN(), math.Inf(1), math.Inf(-1))
	}
	values := rapid.SliceOfN(rapid.SampledFrom(pool), 3*n, 3*n).Draw(t, "values")
	return values, maximize, ref
}

// TestContributions3PathsMatchExactOracle holds each path to the exact
// exclusive volumes on finite data full of ties and duplicates, and to the
// grid oracle's +Inf and finite shares when infinities and NaN are drawn.
func TestContributions3PathsMatchExactOracle(t *testing.T) {
	for _, p := range contributions3Paths {
		t.Run(p.name, func(t *testing.T) {
			useContributions3Path(t, p.limit)
			rapid.Check(t, func(t *rapid.T) {
				values, maximize, ref := contributions3Input(t, 10, false)
				got := sharesOf(values, 3, maximize, ref)
				if worst, at := worstRelErr(got, exactExclusive(values, 3, maximize, ref)); worst > 1e-12 {
					t.Fatalf("row %d: relative error %.3g, shares %v", at, worst, got)
				}
			})
			rapid.Check(t, func(t *rapid.T) {
				values, maximize, ref := contributions3Input(t, 8, true)
				got := sharesOf(values, 3, maximize, ref)
				_, want := gridOracle(values, 3, maximize, ref)
				if diff := cmp.Diff(want, got, approx); diff != "" {
					t.Fatalf("shares (-oracle +got):\n%s", diff)
				}
			})
		})
	}
}

// TestContributions3SweepOrderWithinOneKey draws heights a few ulps apart
// around 1, 2 and 4, which agree in the bits contributions3Small sorts on
// within each group, so that only the exact pass after the sort puts the
// rows of a group in order.
func TestContributions3SweepOrderWithinOneKey(t *testing.T) {
	for _, p := range contributions3Paths {
		t.Run(p.name, func(t *testing.T) {
			useContributions3Path(t, p.limit)
			rapid.Check(t, func(t *rapid.T) {
				n := rapid.IntRange(1, 10).Draw(t, "n")
				values := make([]float64, 3*n)
				for i := range n {
					values[3*i] = rapid.SampledFrom([]float64{1, 2, 3}).Draw(t, "x")
					values[3*i+1] = rapid.SampledFrom([]float64{1, 2, 3}).Draw(t, "y")
					base := rapid.SampledFrom([]float64{1, 2, 4}).Draw(t, "base")
					values[3*i+2] = base * (1 + float64(rapid.IntRange(0, 40).Draw(t, "ulps"))*0x1p-52)
				}
				maximize := []bool{true, true, true}
				ref := []float64{0, 0, 1 - 0x1p-30}
				got := sharesOf(values, 3, maximize, ref)
				if worst, at := worstRelErr(got, exactExclusive(values, 3, maximize, ref)); worst > 1e-12 {
					t.Fatalf("row %d: relative error %.3g, shares %v", at, worst, got)
				}
			})
		})
	}
}

// TestContributions3SmallMatchesSweep compares the two paths on sets too
// large for the oracles: uniform rows (a few on the front, many hidden),
// rows on a sphere (all on the front, so long staircases), and rows on a
// coarse grid (ties and duplicates everywhere).
func TestContributions3SmallMatchesSweep(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// rapid draws small numbers most of the time; the staircases get
		// long only on hundreds of rows.
		n := rapid.SampledFrom([]int{1, 10, 100, 300}).Draw(t, "size") + rapid.IntRange(0, 9).Draw(t, "more")
		shape := rapid.SampledFrom([]string{"uniform", "sphere", "grid"}).Draw(t, "shape")
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 5))
		values := make([]float64, 3*n)
		for i := range n {
			row := values[3*i : 3*i+3]
			switch shape {
			case "uniform":
				row[0], row[1], row[2] = rng.Float64(), rng.Float64(), rng.Float64()
			case "sphere":
				a, b := rng.Float64()*math.Pi/2, rng.Float64()*math.Pi/2
				row[0], row[1], row[2] = 1-math.Sin(a)*math.Cos(b), 1-math.Sin(a)*math.Sin(b), 1-math.Cos(a)
			case "grid":
				row[0], row[1], row[2] = float64(rng.IntN(5)), float64(rng.IntN(5)), float64(rng.IntN(5))
			}
		}
		maximize := make([]bool, 3)
		ref := []float64{5, 5, 5}
		shares := make([][]float64, 2)
		for k, p := range contributions3Paths {
			shares[k] = sharesOnPath(p.limit, values, maximize, ref)
		}
		for i, want := range shares[0] {
			if got := shares[1][i]; math.Abs(got-want) > 1e-10*max(math.Abs(got), math.Abs(want)) {
				t.Fatalf("row %d %v: small %v, sweep %v", i, values[3*i:3*i+3], got, want)
			}
		}
	})
}

// TestContributionsContractOnTheSweep runs the tests of three-column
// contributions, which the default threshold sends to contributions3Small
// since they are small, on contributions3.
func TestContributionsContractOnTheSweep(t *testing.T) {
	for _, test := range []struct {
		name string
		run  func(*testing.T)
	}{
		{"accuracy", TestHypervolumeContributionsAccuracyInMoreColumns},
		{"rescaled overflow", TestHypervolumeContributionsRescaleOverflow},
		{"equal unbounded rows", TestHypervolumeContributionsOfEqualUnboundedRows},
		{"a hiding row", TestHypervolumeContributionsOfAHidingRow},
		{"infinities", TestHypervolumeWithInfinitiesMatchesGridOracle},
		{"row order", TestHypervolumeIgnoresRowOrder},
		{"crowded grids", TestCrowdedGridsMatchTheOracle},
	} {
		t.Run(test.name, func(t *testing.T) {
			useContributions3Path(t, 0)
			test.run(t)
		})
	}
}

// TestSortKeysEqualKeys passes keys that crowd one bucket and are all
// equal, which no caller passes: a bucket that cannot be narrowed is not
// dealt again, and the keys come back as they were.
func TestSortKeysEqualKeys(t *testing.T) {
	a := append(slices.Repeat([]uint64{7}, 40), 1, 1<<40)
	sortKeys(a, make([]uint64, len(a)))
	want := append(append([]uint64{1}, slices.Repeat([]uint64{7}, 40)...), 1<<40)
	if !slices.Equal(a, want) {
		t.Fatalf("sortKeys = %v, want %v", a, want)
	}
}

// TestSortKeys draws keys spread over a range, which one dealing into
// buckets sorts; keys crowded near 0 beside one far away, which crowd one
// bucket and are dealt again, once or more; and the bit patterns of floats
// most of which share a binade, as the fourth extents of a U4 front do.
func TestSortKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		top := rapid.SampledFrom([]uint64{1 << 20, 1000}).Draw(t, "top")
		a := rapid.SliceOfNDistinct(rapid.Uint64Range(0, top), 0, 600, rapid.ID).Draw(t, "a")
		if rapid.Bool().Draw(t, "far") {
			a = append(a, 1<<62)
		}
		if rapid.Bool().Draw(t, "floats") {
			// Most values in [1/2, 1), a few far below: the bit patterns
			// of one binade crowd one bucket of the whole range.
			a = a[:0]
			for _, v := range rapid.SliceOfNDistinct(rapid.Float64Range(0.5, 1), 64, 600, rapid.ID).Draw(t, "values") {
				a = append(a, math.Float64bits(v))
			}
			for _, v := range rapid.SliceOfNDistinct(rapid.Float64Range(1e-300, 1e-200), 1, 8, rapid.ID).Draw(t, "tail") {
				a = append(a, math.Float64bits(v))
			}
		}
		want := slices.Clone(a)
		slices.Sort(want)
		sortKeys(a, make([]uint64, len(a)))
		if !slices.Equal(a, want) {
			t.Fatalf("sortKeys = %v, want %v", a, want)
		}
	})
}

// TestSortKeysAllEqualCrowd passes only equal keys, more than crowd a
// bucket: the range is one value, so the keys are dealt once with shift 0,
// and the one bucket they crowd cannot be narrowed and is not dealt again.
func TestSortKeysAllEqualCrowd(t *testing.T) {
	a := slices.Repeat([]uint64{7}, 40)
	sortKeys(a, make([]uint64, len(a)))
	if want := slices.Repeat([]uint64{7}, 40); !slices.Equal(a, want) {
		t.Fatalf("sortKeys = %v, want %v", a, want)
	}
}

// TestSortKeysByValueKeepsRowOrderOnTies: rows 0 and 2 share the value 5
// and row 1 has 9. Sorted into decreasing value, 9 comes first, and of the
// two 5s row 0 stays before row 2; the keys of equal values agree in the
// bits sorted on, so agreed is true.
func TestSortKeysByValueKeepsRowOrderOnTies(t *testing.T) {
	values := []float64{5, 9, 5}
	keys := make([]uint64, len(values))
	for i, v := range values {
		keys[i] = nd.FastKey(v, ^uint64(0))&^contrib3SmallIndex | uint64(i)
	}
	agreed := sortKeysByValue(keys, make([]uint64, len(keys)), func(i int) float64 { return values[i] })
	var rows []int
	for _, k := range keys {
		rows = append(rows, int(k&contrib3SmallIndex))
	}
	if want := []int{1, 0, 2}; !slices.Equal(rows, want) || !agreed {
		t.Fatalf("rows %v, agreed %v; want %v, true", rows, agreed, want)
	}
}

// TestContributions3SmallLeastSkipsRowsOnTheReference: each of three rows
// lies on the reference in one column, so outside the box, and carries a
// tiny magnitude in another; they get nothing and their magnitudes are not
// the least. The least non-zero magnitude is that of (1, 2, 4), the one row
// inside, whose whole box, 8, is its own; ref's zeros do not count.
func TestContributions3SmallLeastSkipsRowsOnTheReference(t *testing.T) {
	values := []float64{
		0, 0x1p-1000, 3,
		3, 0, 0x1p-1010,
		0x1p-1020, 3, 0,
		1, 2, 4,
	}
	out := make([]float64, 4)
	least := contributions3Small(values, []bool{true, true, true}, []float64{0, 0, 0}, out)
	if want := []float64{0, 0, 0, 8}; least != 1 || !slices.Equal(out, want) {
		t.Fatalf("contributions3Small = %v, %v; want 1, %v", least, out, want)
	}
}

// TestContributions3SmallReusesItsScratch: a call with as many rows as the
// pooled scratch holds, the most contributions3Small takes, allocates
// nothing once the pool is warm. The rows all sit on the reference, so the
// call costs one pass over them.
func TestContributions3SmallReusesItsScratch(t *testing.T) {
	n := contrib3SmallIndex + 1
	values, out := make([]float64, 3*n), make([]float64, n)
	checkWarmAllocs(t, "contributions3Small, most rows", 0, func() {
		contributions3Small(values, []bool{true, true, true}, []float64{0, 0, 0}, out)
	})
}

// TestSortKeysCrowded: a bucket is crowded beyond sortKeysMaxCrowd, 16,
// keys, wherever it starts; only speed shows the bound.
func TestSortKeysCrowded(t *testing.T) {
	tests := []struct {
		from, end int32
		want      bool
	}{
		{0, 0, false},
		{0, 16, false},
		{0, 17, true},
		{5, 21, false}, // 16 keys
		{5, 22, true},  // 17 keys
		{100, 116, false},
		{100, 300, true},
	}
	for _, tt := range tests {
		if got := sortKeysCrowded(tt.from, tt.end); got != tt.want {
			t.Errorf("sortKeysCrowded(%d, %d) = %v, want %v", tt.from, tt.end, got, tt.want)
		}
	}
}

// TestContributions3SmallRoundingByHand: cases on ties, where a row that
// changes nothing still passed to the rectangle's list or the front would
// split a product or a strip in two and change the last bit. In each the
// exact contributions are floats, and the sweep must return them.
func TestContributions3SmallRoundingByHand(t *testing.T) {
	const e = 0x1p-50
	tests := []shares3Case{
		// C = (4, e, 2) holds A = (2, e, 1); at z = 1 B = (5, 6, 1) comes
		// after A (equal z, row order) and covers both. A, on the top of
		// C's rectangle, is dropped into C's list rather than made a step.
		// C keeps 4e above z = 1, 2^-48. B has 30 less C's 4e: 30 − 2^-48,
		// a float (ulps of 2^-48 in [16, 32)). B's area is the strips
		// 1·6 = 6 and 4·(6 − e) = 24 − 2^-48, exact; had A been a step,
		// the strips 2·(6 − e) = 12 − 2^-49 twice would sum through
		// 18 − 2^-49, a tie that rounds to 18, and end at 30.
		{"a row on a rectangle's top", []float64{2, e, 1, 5, 6, 1, 4, e, 2}, []float64{0, 30 - 0x1p-48, 0x1p-48}},
		// C = (2, 8, 6) over B = (8, 3, 5): C keeps 2·8·1 + 2·5·5 = 66 and B
		// 24·5 less C's 2·3·5, 90. A = (2, 3, e) lies on C's bottom, under
		// two steps, and is skipped: C is settled once, 10·5 = 50. Had it
		// entered C's list, C would settle at e too: 10·(5 − e) rounds to
		// 50 − 2^-47, 66 − 2^-47 is a tie that rounds to 66, and the 10e
		// left on top rounds 66 + 10e up to 66 + 2^-46.
		{"a row on a rectangle's bottom", []float64{2, 3, e, 8, 3, 5, 2, 8, 6}, []float64{0, 90, 66}},
		// A = (2, 6, 6) holds B = (2, 3+e, 4) and C, the same point at
		// z = 2: A keeps 12·2 + (12 − 2·(3 + e))·4 = 48 − 8e = 48 − 2^-47,
		// a float (ulps of 2^-47 in [32, 64)). C, at B's x and covered by
		// it, is dropped. Had the walk passed B, C would replace it and
		// settle A at 2: (6 − 2e)·2 twice, 36 − 2^-48 and then 48 − 2^-48,
		// two ties that round to 36 and 48.
		{"a row at a back row's x", []float64{2, 6, 6, 2, 3 + e, 4, 2, 3 + e, 2}, []float64{48 - 0x1p-47, 0, 0}},
		// C = (5, 2, 8) leaves the front for A = (6, 3 − e/2, 2), and into
		// A's list; B = (6, 2, 1 + e) covers C and takes its place. A
		// keeps (8 − 3e)(1 − e) + (6 − 3e)(1 + e) = 14 − 8e, a float
		// (ulps of 2e in [8, 16)), and so does the sweep: A's area from 2
		// down is the strips 1·(3 − e/2) + 5·(1 − e/2), which round to
		// 8 − 2e; from 1 + e down, the one strip 6·(1 − e/2) = 6 − 3e,
		// exact, and the two products round to 8 − 10e and 6 + 3e, whose
		// sum, 14 − 7e, is a tie that rounds to 14 − 8e. Had C, level with
		// B, stayed in the list, the strips 5·(1 − e/2) + 1·(1 − e/2)
		// would round to 6 − 2e, and A would end at 14 − 6e.
		{"a back row level with a new one", []float64{6, 3 - e/2, 2, 6, 2, 1 + e, 5, 2, 8}, []float64{14 - 8*e, 0, 60}},
		// A = (6, 1, 5) is covered by B = (6, 3+e, 4) from z = 4 down: A
		// keeps 6, and B (18 + 6e − 6)·4 = 48 + 24e, a float (ulps of 8e
		// in [32, 64)). C = (5, 1, 1) under A, in B's list, is covered
		// and changes nothing. Had it entered the list, B would settle at
		// 1, (12 + 6e)·3 rounding to 36 + 16e, and its strips
		// 5·(2 + e) + 1·(2 + e) would round to 12 + 4e, for 48 + 16e.
		{"a row level with a back row", []float64{6, 1, 5, 6, 3 + e, 4, 5, 1, 1}, []float64{6, 48 + 24*e, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := make([]float64, len(tt.want))
			contributions3Small(tt.values, []bool{true, true, true}, []float64{0, 0, 0}, got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("contributions3Small (-want +got):\n%s", diff)
			}
			for i, w := range exactExclusive(tt.values, 3, []bool{true, true, true}, []float64{0, 0, 0}) {
				if w.Cmp(rat(tt.want[i])) != 0 {
					t.Errorf("row %d: exact %v, want %v", i, w.FloatString(20), tt.want[i])
				}
			}
		})
	}
}
