package nd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/spica-search/spica/internal/testkit"
)

// oracleAxisFront is the front in ParetoFront's order for a matrix laid out
// as objectiveMatrix lays it out: column 0's raw value ascending, NaN last,
// ties in row order.
func oracleAxisFront(values []float64, dims int, maximize []bool) []int {
	front := testkit.Front(values, dims, maximize)
	slices.SortStableFunc(front, func(a, b int) int { return compareAxis(values[a*dims], values[b*dims]) })
	return front
}

// axisRows is the rows of frontByAxis under a tuning, after checking that
// each record's key is its row's key in column 0.
func axisRows(t interface{ Fatalf(string, ...any) }, values []float64, dims int, maximize []bool, tuning ndTuning) []int {
	rows := []int{}
	flip := KeyFlips(maximize)[0]
	for _, rec := range frontByAxis(values, len(values)/dims, dims, maximize, tuning) {
		if want := FastKey(values[int(rec.Aux)*dims], flip); rec.Key != want {
			t.Fatalf("row %d has key %#x, want %#x", rec.Aux, rec.Key, want)
		}
		rows = append(rows, int(rec.Aux))
	}
	return rows
}

// ndTunings force every path of the engine on inputs small enough for the
// oracle: pre-filter on and off, radix and comparison sorts, the two-column
// buckets compared pairwise or swept, the Fenwick and the sorted-slice
// sweeps of three columns, divide and conquer recursing down to single
// rows, and bit sets in place of it, alone or under it, one row's sets at a
// time or a few rows', and the sort-filter of four or more columns, always
// or as a sample of four rows decides.
var ndTunings = map[string]ndTuning{
	"defaults":         ndDefaults,
	"everything":       {prefilterMin: 1, radixMin: 2, leaf: 1, brutePairs: 0, probe: math.MaxInt},
	"no-prefilter":     {prefilterMin: math.MaxInt, radixMin: math.MaxInt, leaf: 3, brutePairs: 4, small3: math.MaxInt},
	"small-radix":      {prefilterMin: 16, radixMin: 8, leaf: 2, brutePairs: 1, probe: 40, small3: math.MaxInt},
	"radix-no-filt":    {prefilterMin: math.MaxInt, radixMin: 2, leaf: 5, brutePairs: 9},
	"filter-quits":     {prefilterMin: 2, radixMin: 2, leaf: 4, brutePairs: 16, probe: 6, small3: math.MaxInt},
	"quits-by-share":   {prefilterMin: 2, radixMin: 2, leaf: 4, brutePairs: 16, probe: math.MaxInt, probeShare: 3},
	"buckets-inserted": {prefilterMin: 2, radixMin: 2, leaf: 4, brutePairs: 16, probe: 6, bucket2Max: math.MaxInt, bucket3Max: math.MaxInt, crowd: math.MaxInt},
	"buckets-sorted":   {prefilterMin: 2, radixMin: 2, leaf: 4, brutePairs: 16, probe: 6, bucket2Max: math.MaxInt, bucket3Max: math.MaxInt, crowd: 1},
	"buckets-sampled":  {prefilterMin: 2, radixMin: 2, leaf: 4, brutePairs: 16, probe: 6, bucket2Max: 4, sample2: 4, crowd: 2},
	"bits-everything":  {prefilterMin: math.MaxInt, radixMin: 2, leaf: 1, bits: math.MaxInt, bitsWords: 1},
	"bits-chunked":     {prefilterMin: math.MaxInt, radixMin: 2, leaf: 1, bits: math.MaxInt, bitsWords: 16},
	"bits-under-kung":  {prefilterMin: 2, radixMin: 2, leaf: 2, brutePairs: 4, probe: 6, bits: 12, bitsWords: 2},
	"sort-filter":      {prefilterMin: math.MaxInt, radixMin: 2, leaf: 4, brutePairs: 16, filterMax: math.MaxInt},
	"filter-sampled":   {prefilterMin: math.MaxInt, radixMin: 2, leaf: 4, brutePairs: 16, filterMax: math.MaxInt, filterSample: 4},
}

func TestNonDominatedTable(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name     string
		values   []float64
		maximize []bool
		want     []int
	}{
		{"an empty matrix has an empty front", nil, []bool{false, false}, []int{}},
		{"one row is its own front", []float64{3, 4}, []bool{false, false}, []int{0}},
		{"one column keeps every copy of the best", []float64{2, 1, 3, 1}, []bool{false}, []int{1, 3}},
		{"one maximized column keeps the largest", []float64{2, 1, 3, 1}, []bool{true}, []int{2}},
		{"a trade-off keeps both ends", []float64{1, 2, 2, 1, 2, 2}, []bool{false, false}, []int{0, 1}},
		{"equal rows do not dominate each other", []float64{1, 1, 1, 1, 2, 2}, []bool{false, false}, []int{0, 1}},
		{"a tie in one column and a win in the other dominates", []float64{1, 2, 1, 3}, []bool{false, false}, []int{0}},
		{"directions are per column", []float64{1, 1, 2, 2, 0, 0}, []bool{false, true}, []int{0, 1, 2}},
		{"NaN loses to any number", []float64{nan, 5, 9, 5}, []bool{false, false}, []int{1}},
		{"NaN loses in a maximized column too", []float64{nan, 5, -inf, 5}, []bool{true, false}, []int{1}},
		{"NaN rows tie with each other", []float64{nan, nan, nan, nan}, []bool{false, true}, []int{0, 1}},
		{"-0 equals 0", []float64{negZero, 1, 0, 1}, []bool{false, false}, []int{0, 1}},
		// 10 and 10.001 share the last of six buckets over [0, 10.001].
		{"a close first value and an equal second lose", []float64{0, 9, 10, 5, 10.001, 5}, []bool{false, false}, []int{0, 1}},
		{"the same, maximized", []float64{0, -9, -10, -5, -10.001, -5}, []bool{true, true}, []int{0, 1}},
		{"infinities order as numbers", []float64{-inf, inf, 0, 0, inf, -inf}, []bool{false, false}, []int{0, 1, 2}},
		{"three columns with a duplicate front row", []float64{
			1, 2, 3,
			1, 2, 3,
			1, 2, 4,
			0, 5, 5,
			2, 1, 3,
		}, []bool{false, false, false}, []int{0, 1, 3, 4}},
		{"four columns where only the last breaks the tie", []float64{
			1, 1, 1, 2,
			1, 1, 1, 1,
			0, 9, 9, 9,
		}, []bool{false, false, false, false}, []int{1, 2}},
	}
	for _, tt := range tests {
		for tname, tuning := range ndTunings {
			t.Run(tt.name+"/"+tname, func(t *testing.T) {
				dims := len(tt.maximize)
				got := nonDominatedTuned(tt.values, len(tt.values)/dims, dims, tt.maximize, tuning)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("front mismatch (-want +got):\n%s", diff)
				}
				if oracle := testkit.Front(tt.values, dims, tt.maximize); !slices.Equal(oracle, tt.want) {
					t.Errorf("the oracle disagrees with the table: %v", oracle)
				}
				want := oracleAxisFront(tt.values, dims, tt.maximize)
				if diff := cmp.Diff(want, axisRows(t, tt.values, dims, tt.maximize, tuning)); diff != "" {
					t.Errorf("front along column 0 mismatch (-oracle +got):\n%s", diff)
				}
			})
		}
	}
}

// specials are the values whose handling is easy to get wrong.
var specials = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64}

// matrixGen draws a matrix whose values come from one of several regimes:
// continuous, a small pool (so ties and duplicate rows are common), or a mix
// with the special values.
func matrixGen(t *rapid.T, maxRows int) (values []float64, dims int, maximize []bool) {
	dims = rapid.IntRange(1, 6).Draw(t, "dims")
	n := rapid.IntRange(0, maxRows).Draw(t, "n")
	maximize = rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
	var gen *rapid.Generator[float64]
	switch rapid.IntRange(0, 2).Draw(t, "regime") {
	case 0:
		gen = rapid.Float64Range(-10, 10)
	case 1:
		// Neighbours of 1 differ only in the low bits, which the two-column
		// sweep drops from its packed second key.
		pool := rapid.SliceOfN(rapid.SampledFrom([]float64{0, 1, 2, 3, -1, math.NaN(), math.Inf(1), math.Nextafter(1, 2), math.Nextafter(1, 0)}), 1, 4).Draw(t, "pool")
		gen = rapid.SampledFrom(pool)
	default:
		gen = rapid.OneOf(rapid.SampledFrom(specials), rapid.Float64Range(-2, 2), rapid.SampledFrom([]float64{0, 1, 2}))
	}
	values = rapid.SliceOfN(gen, n*dims, n*dims).Draw(t, "values")
	return values, dims, maximize
}

func TestNonDominatedMatchesOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		values, dims, maximize := matrixGen(t, 80)
		checkFronts(t, values, dims, maximize)
	})
}

// checkFronts checks NonDominated, and the engine under every tuning, in
// row order and along column 0, against the pairwise oracle, and that the
// matrix is left as it was. The engine runs with its scratch pooled and
// not.
func checkFronts(t interface{ Fatalf(string, ...any) }, values []float64, dims int, maximize []bool) {
	before := slices.Clone(values)
	want := testkit.Front(values, dims, maximize)
	got := frontOf(values, dims, maximize)
	if !slices.Equal(got, want) {
		t.Fatalf("NonDominated = %v, oracle %v", got, want)
	}
	wantAxis := oracleAxisFront(values, dims, maximize)
	defer func(old int) { marksPoolRows = old }(marksPoolRows)
	for name, tuning := range ndTunings {
		for _, pooled := range []int{math.MaxInt, 0} {
			marksPoolRows = pooled
			if got := nonDominatedTuned(values, len(values)/dims, dims, maximize, tuning); !slices.Equal(got, want) {
				t.Fatalf("tuning %s, marksPoolRows %d: front = %v, oracle %v", name, pooled, got, want)
			}
		}
		if got := axisRows(t, values, dims, maximize, tuning); !slices.Equal(got, wantAxis) {
			t.Fatalf("tuning %s: front along column 0 = %v, oracle %v", name, got, wantAxis)
		}
	}
	if !testkit.SameBits(values, before) {
		t.Fatalf("values was modified")
	}
}

// TestNonDominatedLargeMatchesOracle crosses the default thresholds, so the
// pre-filter, the radix sort and the divide and conquer run as in production.
func TestNonDominatedLargeMatchesOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// -short runs the smaller pools only, so that a full run checks all
	// that a short one does: mutation testing runs short.
	sizes := []int{400, 1500}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, n := range sizes {
		for dims := 1; dims <= 6; dims++ {
			for _, shape := range []string{"uniform", "line", "sphere", "pool", "ulps", "specials"} {
				var values []float64
				switch shape {
				case "pool":
					values = make([]float64, n*dims)
					for i := range values {
						values[i] = float64(rng.IntN(3))
					}
				case "ulps":
					// Consecutive floats differ only in the bits the two-column
					// sweep packs away, so its exact fallback decides.
					values = make([]float64, n*dims)
					for i := range values {
						values[i] = math.Float64frombits(math.Float64bits(1) + uint64(rng.IntN(8)))
					}
				case "specials":
					values = make([]float64, n*dims)
					for i := range values {
						if rng.IntN(4) == 0 {
							values[i] = specials[rng.IntN(len(specials))]
						} else {
							values[i] = rng.Float64()
						}
					}
				default:
					values = testkit.Matrix(shape, n, dims)
				}
				maximize := make([]bool, dims)
				for c := range maximize {
					maximize[c] = rng.IntN(2) == 0
				}
				for _, dir := range []string{"mixed", "minimize"} {
					if dir == "minimize" {
						maximize = make([]bool, dims)
					}
					t.Run(fmt.Sprintf("n=%d/d=%d/%s/%s", n, dims, shape, dir), func(t *testing.T) {
						want := testkit.Front(values, dims, maximize)
						wantAxis := oracleAxisFront(values, dims, maximize)
						got := frontOf(values, dims, maximize)
						if diff := cmp.Diff(want, got); diff != "" {
							t.Errorf("front mismatch (-oracle +got):\n%s", diff)
						}
						for name, tuning := range ndTunings {
							got := nonDominatedTuned(values, n, dims, maximize, tuning)
							if diff := cmp.Diff(want, got); diff != "" {
								t.Errorf("tuning %s: front mismatch (-oracle +got):\n%s", name, diff)
							}
							if diff := cmp.Diff(wantAxis, axisRows(t, values, dims, maximize, tuning)); diff != "" {
								t.Errorf("tuning %s: front along column 0 mismatch (-oracle +got):\n%s", name, diff)
							}
						}
					})
				}
			}
		}
	}
}

// TestBenchShapesAreFronts checks the claim the benchmarks rest on: line and
// sphere data is (nearly) all on the front, uniform data is not.
func TestBenchShapesAreFronts(t *testing.T) {
	for _, d := range []int{2, 3, 4} {
		for _, shape := range []string{"line", "sphere"} {
			values := testkit.Matrix(shape, 2000, d)
			front := frontOf(values, d, make([]bool, d))
			if len(front) < 1990 {
				t.Errorf("%s d=%d: %d of 2000 rows on the front, want nearly all", shape, d, len(front))
			}
		}
	}
}

func TestNonDominatedAllocations(t *testing.T) {
	for _, d := range []int{2, 3, 4} {
		values := testkit.Matrix("sphere", 5000, d)
		allocs := testing.AllocsPerRun(3, func() {
			_ = frontOf(values, d, make([]bool, d))
		})
		if allocs > 20 {
			t.Errorf("d=%d: %v allocations per call, want a constant few", d, allocs)
		}
	}
}

// TestBucketFrontsMatchOracle draws two- and three-column pools whose first
// values crowd into a few clusters a few ulps or a few thousandths wide,
// with repeated later values (infinite and NaN ones among them), so that buckets
// of front2Small and front3Buckets hold many rows that tie in some column;
// front2Small runs with buckets ordered by insertion, sorted, and in between,
// ordering by radixOrder or by bucketOrder.
func TestBucketFrontsMatchOracle(t *testing.T) {
	defer func(old int) { lexRadixMax = old }(lexRadixMax)
	rapid.Check(t, func(t *rapid.T) {
		lexRadixMax = rapid.SampledFrom([]int{0, math.MaxInt}).Draw(t, "lexRadixMax")
		dims := rapid.IntRange(2, 3).Draw(t, "dims")
		n := rapid.IntRange(1, 60).Draw(t, "n")
		odd := rapid.SampledFrom([]float64{math.Inf(1), math.Inf(-1), math.NaN()})
		centers := rapid.SliceOfN(rapid.Float64Range(-5, 5), 1, 4).Draw(t, "centers")
		if rapid.IntRange(0, 9).Draw(t, "odd center") == 0 {
			centers = append(centers, odd.Draw(t, "center"))
		}
		step := rapid.SampledFrom([]float64{0, 1e-15, 1e-3}).Draw(t, "step")
		later := rapid.SliceOfN(rapid.OneOf(rapid.Float64Range(-5, 5), odd), 1, 5)
		pools := [][]float64{nil, later.Draw(t, "seconds"), later.Draw(t, "thirds")}
		values := make([]float64, dims*n)
		for r := range n {
			center := rapid.SampledFrom(centers).Draw(t, "center")
			values[dims*r] = center + float64(rapid.IntRange(0, 3).Draw(t, "offset"))*step
			for c := 1; c < dims; c++ {
				values[dims*r+c] = rapid.SampledFrom(pools[c]).Draw(t, "later")
			}
		}
		maximize := rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
		want := testkit.Front(values, dims, maximize)
		var got []int
		if dims == 2 {
			crowd := rapid.SampledFrom([]int{1, 2, 3, 16, math.MaxInt}).Draw(t, "crowd")
			got = front2Small(values, n, KeyFlips(maximize), crowd)
		} else {
			got = front3Buckets(values, n, KeyFlips(maximize))
		}
		// Both hand NaN to the sorting paths, and front3Buckets a row whose
		// sum is NaN too; front2Small hands on an infinite first value, and
		// a second column holding both infinities (its sum is NaN), and
		// front3Buckets an infinite first value that its knee pre-filter
		// lets through.
		mustGiveUp := slices.ContainsFunc(values, math.IsNaN) || dims == 3 && infinitiesMeet(values, dims)
		infiniteFirst, plusInf, minusInf := false, false, false
		for r := 0; r < len(values); r += dims {
			infiniteFirst = infiniteFirst || math.IsInf(values[r], 0)
			plusInf = plusInf || math.IsInf(values[r+1], 1)
			minusInf = minusInf || math.IsInf(values[r+1], -1)
		}
		switch {
		case mustGiveUp || dims == 2 && (infiniteFirst || plusInf && minusInf):
			if got != nil {
				t.Fatalf("bucket front = %v, want nil", got)
			}
			return
		case got == nil && !infiniteFirst:
			t.Fatalf("bucket front = nil, oracle %v", want)
		}
		if got != nil && !slices.Equal(got, want) {
			t.Fatalf("bucket front = %v, oracle %v", got, want)
		}
	})
}

// infinitiesMeet reports whether some row holds both +Inf and -Inf.
func infinitiesMeet(values []float64, dims int) bool {
	for r := 0; r < len(values); r += dims {
		row := values[r : r+dims]
		if slices.Contains(row, math.Inf(1)) && slices.Contains(row, math.Inf(-1)) {
			return true
		}
	}
	return false
}

// FuzzNonDominated decodes a matrix from bytes, each value one of a few
// that tie, the special ones, or a 1 moved by a few ulps, and checks it as
// TestNonDominatedMatchesOracle does (checkFronts): the bucket paths meet
// values that overflow their range, share a bucket or are not numbers.
func FuzzNonDominated(f *testing.F) {
	f.Add([]byte{2, 0, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{3, 5, 0, 0, 0, 1, 1, 1, 2, 2, 2, 9, 9, 9})
	f.Add([]byte{2, 3, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21})
	palette := append(slices.Clone(specials), 2, 3, 0.5, 1e-300, 1e300)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		dims := 1 + int(data[0])%6
		maximize := make([]bool, dims)
		for c := range maximize {
			maximize[c] = data[1]>>c&1 == 1
		}
		data = data[2:]
		n := len(data) / dims
		values := make([]float64, n*dims)
		for i := range values {
			b := int(data[i])
			if b < 2*len(palette) {
				values[i] = palette[b%len(palette)]
			} else {
				values[i] = math.Float64frombits(math.Float64bits(1) + uint64(b%8))
			}
		}
		checkFronts(t, values, dims, maximize)
	})
}

// TestFrontHeavy2 checks the sample that sends two-column pools above
// bucket2Max rows to the buckets: rows of a line are all on the front; one
// row better than the rest in both columns leaves a front of one, and two a
// quarter of the sample, just enough; a sample larger than the pool, none
// at all, or a NaN (front2Small gives up) send the pool to the sorting
// path.
func TestFrontHeavy2(t *testing.T) {
	line := make([]float64, 0, 16)
	lead := make([]float64, 0, 16)
	for i := range 8 {
		x := float64(i) / 8
		line = append(line, x, 1-x)
		lead = append(lead, 1+x, 2-x)
	}
	lead[0], lead[1] = 0, 0
	quarter := slices.Clone(lead)
	quarter[0], quarter[1], quarter[2], quarter[3] = 0, 1, 1, 0
	withNaN := slices.Clone(line)
	withNaN[3] = math.NaN()
	// Sixteen rows: the even ones on a line, all on the sample's front if
	// the sample spreads; row 1 dominates the first eight but for itself.
	spread := make([]float64, 0, 32)
	for r := range 16 {
		switch x := float64(r) / 16; {
		case r%2 == 0:
			spread = append(spread, x, 1-x)
		case r == 1:
			spread = append(spread, -1, -1)
		default:
			spread = append(spread, 5, 5)
		}
	}
	flip := KeyFlips([]bool{false, false})
	for _, c := range []struct {
		name   string
		values []float64
		s      int
		want   bool
	}{
		{"spread", spread, 8, true},
		{"line", line, 8, true},
		{"line, half sampled", line, 4, true},
		{"one leads", lead, 8, false},
		{"two lead, a quarter", quarter, 8, true},
		{"no sample", line, 0, false},
		{"sample beyond the pool", line, 9, false},
		{"NaN", withNaN, 8, false},
	} {
		if got := frontHeavy2(c.values, len(c.values)/2, flip, c.s); got != c.want {
			t.Errorf("%s: frontHeavy2 = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestBucketPathsAtTheirLargestPools runs the bucket paths on 1<<14 rows,
// the most their 16-bit rows and buckets hold, against the sorting paths
// (front2, front3) on the same rows: a line and a sphere, all on the front
// (the two-column sample sends them to the buckets), uniform rows, and a
// pool of three values, so that buckets crowd. Two columns are also
// ordered by radixOrder at the most rows it takes.
func TestBucketPathsAtTheirLargestPools(t *testing.T) {
	sorting := ndDefaults
	sorting.bucket2Max, sorting.sample2, sorting.bucket3Max = 0, 0, 0
	rng := rand.New(rand.NewPCG(3, 4))
	for _, run := range []struct{ dims, n int }{{2, 1 << 14}, {3, 1 << 14}, {2, radixRows}} {
		dims, n := run.dims, run.n
		for _, shape := range []string{"line", "sphere", "uniform", "pool"} {
			var values []float64
			if shape == "pool" {
				values = make([]float64, n*dims)
				for i := range values {
					values[i] = float64(rng.IntN(3))
				}
			} else {
				values = testkit.Matrix(shape, n, dims)
			}
			for _, maximize := range [][]bool{make([]bool, dims), append([]bool{true}, make([]bool, dims-1)...)} {
				want := nonDominatedTuned(values, n, dims, maximize, sorting)
				if got := nonDominatedTuned(values, n, dims, maximize, ndDefaults); !slices.Equal(got, want) {
					t.Errorf("d=%d n=%d %s %v: buckets give %d rows, the sorting path %d", dims, n, shape, maximize, len(got), len(want))
				}
			}
		}
	}
}

// TestPooledFrontIsTheCallersOwn checks that a front Front returns from
// pooled scratch is the caller's: a second call, which reuses the scratch,
// leaves the first front as it was. The sort-filter is off and the
// pre-filter never stands down, so that both calls run the general engine
// with the pre-filter's rows, which live in the scratch.
func TestPooledFrontIsTheCallersOwn(t *testing.T) {
	tuning := ndDefaults
	tuning.filterMax, tuning.probe, tuning.probeShare = 0, math.MaxInt, 0
	a, b := testkit.Stream("uniform", 1000, 6, 1), testkit.Stream("uniform", 1000, 6, 2)
	maximize := make([]bool, 6)
	first := nonDominatedTuned(a, 1000, 6, maximize, tuning)
	kept := slices.Clone(first)
	second := nonDominatedTuned(b, 1000, 6, maximize, tuning)
	if !slices.Equal(first, kept) {
		t.Errorf("the second call changed the first front: %v, was %v", first[:min(len(first), 8)], kept[:min(len(kept), 8)])
	}
	if want := testkit.Front(b, 6, maximize); !slices.Equal(second, want) {
		t.Errorf("second front %v, oracle %v", second, want)
	}
}

// TestProbeAt checks the row at which the pre-filter judges whether it
// pays: n/probeShare rows when that comes before probe, else probe, and
// probe alone when probeShare is 0.
func TestProbeAt(t *testing.T) {
	for _, c := range []struct {
		name     string
		probe    int
		share, n int
		want     int
	}{
		{"a thousand rows judge at a quarter", 4096, 4, 1000, 250},     // 1000/4 = 250 < 4096
		{"a third of ten rows is three", 4096, 3, 10, 3},               // 10/3 = 3 (10·3 = 30 would be late)
		{"four times probe rows judge at probe", 4096, 4, 16384, 4096}, // 16384/4 = 4096
		{"more rows still judge at probe", 4096, 4, 20000, 4096},       // 20000/4 = 5000 > 4096
		{"no rows judge at once", 4096, 4, 0, 0},                       // 0/4 = 0
		{"no share judges at probe", 4096, 0, 1000, 4096},
		{"no share and few rows judge at probe", 40, 0, 10, 40},
	} {
		tuning := ndTuning{probe: c.probe, probeShare: c.share}
		if got := tuning.probeAt(c.n); got != c.want {
			t.Errorf("%s: probeAt(%d) with probe %d, share %d = %d, want %d", c.name, c.n, c.probe, c.share, got, c.want)
		}
	}
}

// TestFrontMarksPreFiltersFromPrefilterMin checks that a pool of
// prefilterMin rows passes the pre-filter, whose rows then name the key
// rows, and that one row fewer skips it (rows is nil: key row j is row j).
// The probe never comes, so the filter cannot stand down. Rows 0–2 trade
// off, row 4 beats row 3 in every column, so the front of all five rows is
// 0, 1, 2, 4 and of the first four 0, 1, 2.
func TestFrontMarksPreFiltersFromPrefilterMin(t *testing.T) {
	values := []float64{
		0, 2, 2,
		2, 0, 2,
		2, 2, 0,
		3, 3, 3,
		1, 1, 1,
	}
	tuning := ndDefaults
	tuning.prefilterMin, tuning.probe, tuning.probeShare = 5, math.MaxInt, 0
	for _, c := range []struct {
		n        int
		filtered bool
		want     []int
	}{
		{5, true, []int{0, 1, 2, 4}},
		{4, false, []int{0, 1, 2}},
	} {
		for _, dims := range []int{3, 4} {
			// Four columns repeat the last, which keeps every dominance.
			v := make([]float64, 0, c.n*dims)
			for r := range c.n {
				v = append(v, values[3*r:3*r+3]...)
				if dims == 4 {
					v = append(v, values[3*r+2])
				}
			}
			_, keep, rows := frontMarks(v, c.n, dims, make([]uint64, dims), tuning, nil)
			if got := rows != nil; got != c.filtered {
				t.Errorf("n=%d dims=%d: pre-filtered %v, want %v (prefilterMin 5)", c.n, dims, got, c.filtered)
			}
			if front := marksFront(keep, rows); !slices.Equal(front, c.want) {
				t.Errorf("n=%d dims=%d: front %v, want %v", c.n, dims, front, c.want)
			}
		}
	}
}

// TestMinKeyRowsAllocatesItsFrontExactly: the one-column front is
// allocated at its size, counted as the best key is found (copies of it
// add one, a better key starts again at one, a worse one adds nothing).
func TestMinKeyRowsAllocatesItsFrontExactly(t *testing.T) {
	for _, tt := range []struct {
		values []float64
		want   []int
	}{
		{[]float64{2, 1, 3, 1}, []int{1, 3}},
		{[]float64{1, 1, 1}, []int{0, 1, 2}},
		{[]float64{3, 3, 2, 5, 2, 2}, []int{2, 4, 5}},
	} {
		got := minKeyRows(tt.values, 0)
		if diff := cmp.Diff(tt.want, got); diff != "" || cap(got) != len(tt.want) {
			t.Errorf("minKeyRows(%v) = %v, cap %d; want %v, cap %d (-want +got):\n%s", tt.values, got, cap(got), tt.want, len(tt.want), diff)
		}
	}
}
