package hv

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

func TestHV4DByHand(t *testing.T) {
	tests := []struct {
		name string
		pts  []float64 // extents
		want float64
	}{
		{"one row is its box", []float64{1, 2, 3, 4}, 24},
		// 2·1·1·1 + 1·2·1·1 − 1 (the unit hypercube both hold).
		{"two rows overlap in a unit hypercube", []float64{2, 1, 1, 1, 1, 2, 1, 1}, 3},
		// Unit boxes stretched to 2 along each axis in turn share the unit
		// hypercube: 4·2 − 3·1.
		{"four rows long on one axis each", []float64{
			2, 1, 1, 1, 1, 2, 1, 1, 1, 1, 2, 1, 1, 1, 1, 2,
		}, 5},
		{"a row inside another adds nothing", []float64{2, 2, 2, 2, 1, 1, 1, 1}, 16},
		{"a duplicate counts once", []float64{1, 2, 3, 4, 1, 2, 3, 4}, 24},
		// The second row covers [0,1]×[0,3]×[0,1]×[0,3] = 9, of which the
		// first row's 3·1·1·1 box holds the part with x, z, w ≤ 1, y ≤ 1.
		{"rows crossing in two axes", []float64{3, 1, 1, 1, 1, 3, 1, 3}, 3 + 9 - 1},
		// The second row enters above the first with the same x and y, so
		// the first leaves L as the second is measured: 2·2·1·2 + 2·2·3·1
		// − 2·2·1·1. The third sticks out of both by x in (2, 3] only:
		// 1·1·2·0.5.
		{"a lower row equal in x and y leaves L", []float64{2, 2, 1, 2, 2, 2, 3, 1, 3, 1, 2, 0.5}, 8 + 12 - 4 + 1},
		{"no rows", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hv4d(tt.pts); got != tt.want {
				t.Errorf("hv4d = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestHV4DTiedDelimiters builds the case a random draw rarely does: while
// the last row's exclusive volume is swept, a row below it ties the step
// just right of its rectangle (cr) in y, so it replaces that step; a row
// inside the rectangle then links to the new step, and a later cut from
// below must walk from it, not from the step it replaced. The second case
// is the mirror image on the left (cl). The first four rows have w = 2 and
// the last w = 1, so it is swept last.
func TestHV4DTiedDelimiters(t *testing.T) {
	for name, pts := range map[string][]float64{
		"right": {6, 1, 5, 2, 7, 1, 3, 2, 3, 2, 2, 2, 5, 3, 1, 2, 4, 4, 4, 1},
		"left":  {1, 6, 5, 2, 1, 7, 3, 2, 2, 3, 2, 2, 3, 5, 1, 2, 4, 4, 4, 1},
	} {
		t.Run(name, func(t *testing.T) {
			want := oracleOfExtents(pts, 4)
			if got := hv4d(pts); got != want {
				t.Errorf("hv4d = %v, oracle %v", got, want)
			}
		})
	}
}

// TestHV4DMatchesGridOracle draws coordinates from a handful of values, so
// that ties in every column, duplicates and rows covered by one or by
// several others are common, and compares with the grid oracle.
func TestHV4DMatchesGridOracle(t *testing.T) {
	kernelMatchesGridOracle(t, "hv4d", hv4d, 4, 12, false)
}

// TestHV4DMatchesWFG compares with the WFG kernel on larger sets: random
// rows, rows on a sphere (all mutually non-dominated) and rows on a coarse
// grid, where the staircases see long runs of ties.
func TestHV4DMatchesWFG(t *testing.T) {
	kernelMatchesWFG(t, "hv4d", hv4d, 4, 300, 1)
}

// kernelMatchesGridOracle checks kernel, the hypervolume of dims-column
// extents, against the grid oracle on up to maxN rows whose coordinates
// come from a handful of values, under both of locate's paths: equal to it
// when exact, else within approxEqual.
func kernelMatchesGridOracle(t *testing.T, name string, kernel func([]float64) float64, dims, maxN int, exact bool) {
	locatePaths(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			n := rapid.IntRange(0, maxN).Draw(t, "n")
			pool := []float64{0.5, 1, 2, 3, 4}
			pts := make([]float64, dims*n)
			for i := range pts {
				pts[i] = rapid.SampledFrom(pool).Draw(t, "e")
			}
			want, got := oracleOfExtents(pts, dims), kernel(pts)
			if exact && got != want || !exact && !approxEqual(got, want) {
				t.Fatalf("%s = %v, oracle %v", name, got, want)
			}
		})
	})
}

// kernelMatchesWFG checks kernel, the hypervolume of dims-column extents,
// against WFG to 1e-12 relative on 1 to maxN rows of each shape of
// shapedExtents (random streams numbered stream), under both of locate's
// paths.
func kernelMatchesWFG(t *testing.T, name string, kernel func([]float64) float64, dims, maxN int, stream uint64) {
	locatePaths(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			n := rapid.IntRange(1, maxN).Draw(t, "n")
			shape := rapid.SampledFrom([]string{"uniform", "sphere", "grid"}).Draw(t, "shape")
			rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), stream))
			pts := shapedExtents(rng, shape, n, dims)
			want, got := wfg(pts, dims), kernel(pts)
			if math.Abs(got-want) > 1e-12*max(1, want) {
				t.Fatalf("%s = %v, WFG %v", name, got, want)
			}
		})
	})
}

// shapedExtents returns n rows of d positive extents: uniform in (0,1],
// on the unit sphere (all mutually non-dominated), or on the grid 1..4,
// where the staircases see long runs of ties.
func shapedExtents(rng *rand.Rand, shape string, n, d int) []float64 {
	pts := make([]float64, d*n)
	for i := range n {
		row := pts[d*i : d*(i+1)]
		norm := 0.0
		for c := range row {
			switch shape {
			case "uniform":
				row[c] = 1 - rng.Float64()
			case "sphere":
				row[c] = math.Abs(rng.NormFloat64()) + 1e-9
				norm += row[c] * row[c]
			case "grid":
				row[c] = float64(1 + rng.IntN(4))
			}
		}
		if norm > 0 {
			for c := range row {
				row[c] /= math.Sqrt(norm)
			}
		}
	}
	return pts
}

// TestExtentOrderMatchesASort checks both paths of extentOrder, sortKeys on
// a few rows and the radix sort on more, against a plain sort: extents
// descending column by column, then rows ascending. Extents come from a
// small pool, from values a few ulps apart (which share the 48 bits the
// keys sort on) and from a wide range.
func TestExtentOrderMatchesASort(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dims := rapid.IntRange(1, 4).Draw(t, "dims")
		m := rapid.SampledFrom([]int{0, 1, 2, 7, 40, extentKeysMax, extentKeysMax + 1, 700}).Draw(t, "m")
		var gen *rapid.Generator[float64]
		switch rapid.IntRange(0, 2).Draw(t, "regime") {
		case 0:
			gen = rapid.SampledFrom([]float64{1, 2, 3})
		case 1:
			gen = rapid.Custom(func(t *rapid.T) float64 {
				return math.Float64frombits(math.Float64bits(1) + rapid.Uint64Range(0, 1<<17).Draw(t, "ulps"))
			})
		default:
			gen = rapid.Float64Range(1e-300, 1e300)
		}
		pts := rapid.SliceOfN(gen, dims*m, dims*m).Draw(t, "pts")
		columns := make([]int, dims)
		for c := range columns {
			columns[c] = c
		}
		cols := rapid.Permutation(columns).Draw(t, "cols")
		want := make([]int, m)
		for i := range want {
			want[i] = i
		}
		slices.SortFunc(want, func(a, b int) int {
			for _, c := range cols {
				if x, y := pts[dims*a+c], pts[dims*b+c]; x != y {
					return cmp.Compare(y, x)
				}
			}
			return cmp.Compare(a, b)
		})
		if got := extentOrder(pts, dims, cols...); !slices.Equal(got, want) {
			t.Fatalf("extentOrder = %v, want %v", got, want)
		}
	})
}

// TestHV4DReusesItsSweepSafely runs hv4d from several goroutines at once on
// sets of alternating sizes, one of them above hv4PoolRows (which is not
// pooled), so that pooled sweeps are reused after larger and smaller ones
// and shared between goroutines: each result must equal WFG's, computed
// beforehand. Under -race it also checks that no two calls share a sweep.
func TestHV4DReusesItsSweepSafely(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 4))
	var sets [][]float64
	for _, n := range []int{300, 3, 120, 1, hv4PoolRows + 50, 40, 250, 7} {
		sets = append(sets, shapedExtents(rng, []string{"uniform", "sphere", "grid"}[n%3], n, 4))
	}
	want := make([]float64, len(sets))
	for i, pts := range sets {
		want[i] = wfg(pts, 4)
	}
	concurrently(4, 3*len(sets), func(g, r int) {
		i := (r + 3*g) % len(sets)
		if got := hv4d(sets[i]); math.Abs(got-want[i]) > 1e-12*max(1, want[i]) {
			t.Errorf("goroutine %d, set %d (%d rows): hv4d = %v, WFG %v", g, i, len(sets[i])/4, got, want[i])
		}
	})
}

// concurrently runs f(g, r) for r from 0 to rounds−1 on each of goroutines
// g at once, and returns when all are done.
func concurrently(goroutines, rounds int, f func(g, r int)) {
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				f(g, r)
			}
		}()
	}
	wg.Wait()
}

// TestHV4DPoolsOnlySmallSweeps checks the pool's policy, and that a
// pooled sweep's buffers are reused, by what a call allocates once the pool
// is warm: nothing up to hv4PoolRows rows, whichever sort orders them (up
// to extentKeysMax rows sortKeys, above the radix sort, whose records are
// pooled too), and a whole sweep (the sweep, its nodes, L, the order and
// the records) one row above, which must not be kept for the next call.
func TestHV4DPoolsOnlySmallSweeps(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct {
		n    int
		want float64
	}{
		{100, 0},
		{extentKeysMax, 0},
		{extentKeysMax + 1, 0},
		{hv4PoolRows, 0},
		{hv4PoolRows + 1, 5},
	} {
		pts := shapedExtents(rng, "uniform", c.n, 4)
		checkWarmAllocs(t, fmt.Sprintf("hv4d, %d rows", c.n), c.want, func() { hv4d(pts) })
	}
}

// checkWarmAllocs checks that run, called once to warm the pools, then
// allocates want times a call. Under the race detector, whose sync.Pool
// drops a quarter of what it is given at random, a pooled call may
// allocate its buffers anew, so there only the lower bound holds; .ci/run
// runs these tests once more without -race for the exact counts.
func checkWarmAllocs(t *testing.T, name string, want float64, run func()) {
	t.Helper()
	run()
	got := testing.AllocsPerRun(20, run)
	if got != want && !(raceEnabled && got > want) {
		t.Errorf("%s: %v allocations a call, want %v", name, got, want)
	}
}

// TestByExtentKeys: extentOrder's two sorts give the same order, so only
// the choice itself shows where one hands over to the other.
func TestByExtentKeys(t *testing.T) {
	for _, c := range []struct {
		m    int
		want bool
	}{{1, true}, {extentKeysMax, true}, {extentKeysMax + 1, false}, {contrib3SmallIndex + 1, false}} {
		if got := byExtentKeys(c.m); got != c.want {
			t.Errorf("byExtentKeys(%d) = %v, want %v", c.m, got, c.want)
		}
	}
}
