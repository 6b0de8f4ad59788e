package nd

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/spica-search/spica/internal/testkit"
)

// filterOn runs the two-column pre-filter on every row to the end.
var filterOn = ndTuning{prefilterMin: 1, probe: math.MaxInt}

// filterRows is the rows front2Filter keeps, in its order, and whether it
// ran to the end, after checking that each record is its row's first key
// and its row under the second key's prefix, as front2 packs them.
func filterRows(t interface{ Fatalf(string, ...any) }, values []float64, maximize []bool, tuning ndTuning) (rows []int, filtered bool) {
	n := len(values) / 2
	flip := KeyFlips(maximize)
	rowMask := uint64(1)<<payloadRowBits(n) - 1
	recs, filtered := front2Filter(values, n, flip, rowMask, tuning)
	if !filtered {
		return nil, false
	}
	rows = []int{}
	for _, rec := range recs {
		r := int(rec.Aux & rowMask)
		if r >= n {
			t.Fatalf("record %#x names row %d of %d", rec.Aux, r, n)
		}
		k0, k1 := FastKey(values[2*r], flip[0]), FastKey(values[2*r+1], flip[1])
		if rec.Key != k0 || rec.Aux&^rowMask != k1&^rowMask {
			t.Fatalf("row %d has record %#x/%#x, want %#x/%#x", r, rec.Key, rec.Aux&^rowMask, k0, k1&^rowMask)
		}
		rows = append(rows, r)
	}
	return rows, true
}

// TestPayloadRowBits checks that front2's payloads give the row as few
// bits as hold the last row, n-1, leaving the rest to the second key.
func TestPayloadRowBits(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want uint
	}{{1, 0}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {1 << 20, 20}, {1<<20 + 1, 21}} {
		if got := payloadRowBits(tt.n); got != tt.want {
			t.Errorf("payloadRowBits(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
}

// TestFront2FilterSurvivors works the two-column pre-filter by hand. Its
// pivots are the knee, the first row of least score (each column's value
// less its least, over its range, summed over the columns, a maximized
// column's values negated first), and each column's lexicographic best;
// once the filter has run, the rows that survive are exactly those that
// none of the final pivots dominates. Each case holds rows that only one
// pivot dominates, so a wrong pivot lets one through; it runs as written,
// with a column or both negated and maximized (the same keys, the same
// scores), and with the columns swapped (the same pivots, column for
// column).
func TestFront2FilterSurvivors(t *testing.T) {
	tests := []struct {
		name   string
		values []float64 // minimized
		want   []int
	}{
		// The columns span [10, 20] and [100, 110]. Scores: row 0 is
		// 0 + 1 = 1, row 1 is 1 + 0 = 1, row 2 is 0.4 + 0.4 = 0.8, the
		// knee; row 3 (0.5 + 0.5) is dominated by the knee only. A score
		// that loses a column (a wrong lo, scale or sign, or both
		// clamped to 0 or 1) picks a column's best as the knee, and row
		// 3 survives.
		{"the knee drops a row the columns' bests leave", []float64{
			10, 110,
			20, 100,
			14, 104,
			15, 105,
		}, []int{0, 1, 2}},
		// Both columns span [0, 8]. Rows 2 and 3 score 2/8 + 4/8 and
		// 4/8 + 2/8, both 0.75, the least: row 2 is the knee, which
		// dominates row 4 and not row 5; only row 3 would dominate row 5.
		{"of two knees of equal score the first is kept", []float64{
			0, 8,
			8, 0,
			2, 4,
			4, 2,
			3, 5,
			5, 3,
		}, []int{0, 1, 2, 3, 5}},
		// Rows 0 and 3 share the least first value; row 3, second
		// value 6 against 7, is the column's best and dominates row 0
		// and row 4 (1, 6.5), which neither row 0 nor the knee, row 2 at
		// 2/8 + 2/7, nor column 1's best, row 1, dominates.
		{"a column's best on a tie in it is the better in the other", []float64{
			0, 7,
			8, 0,
			2, 2,
			0, 6,
			1, 6.5,
		}, []int{1, 2, 3}},
		// Row 0 is column 0's best from the start; rows 1 and 2, worse in
		// column 0 and better in column 1, do not displace it, and it
		// alone dominates row 3.
		{"a column's best stays against rows better in the other column", []float64{
			0, 6,
			8, 0,
			2, 2,
			1, 6.5,
		}, []int{0, 1, 2}},
		// Row 3 beats row 0, column 0's best so far, in that column and
		// ties in the other: it is the new best, which dominates row 0
		// and alone row 4, not the knee, row 2 at 3/8 + 2/6.5.
		{"a column's best gives way to a row better there and equal in the other", []float64{
			1, 6,
			8, 0,
			3, 2,
			0, 6,
			0.5, 6.5,
		}, []int{1, 2, 3}},
		// Row 0 is every pivot; rows 1 and 2 tie with it in one column
		// and are worse in the other, row 3 is worse in both.
		{"a tie with a pivot in one column and a loss in the other is dominated", []float64{
			0, 0,
			0, 1,
			1, 0,
			1, 1,
		}, []int{0}},
		// Row 0 passes while it is every pivot; row 1, which dominates
		// it, becomes every pivot, and the last pass drops row 0.
		{"a survivor that a later pivot dominates is dropped", []float64{
			4, 4,
			0, 0,
		}, []int{1}},
	}
	for _, tt := range tests {
		n := len(tt.values) / 2
		for _, swap := range []bool{false, true} {
			for _, maximize := range [][]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
				values := slices.Clone(tt.values)
				for r := range n {
					if swap {
						values[2*r], values[2*r+1] = values[2*r+1], values[2*r]
					}
					for c, m := range maximize {
						if m {
							values[2*r+c] = -values[2*r+c]
						}
					}
				}
				got, filtered := filterRows(t, values, maximize, filterOn)
				if !filtered {
					t.Fatalf("%s (swapped %v, maximize %v): the filter stood down", tt.name, swap, maximize)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("%s (swapped %v, maximize %v): survivors (-want +got):\n%s", tt.name, swap, maximize, diff)
				}
				if front := testkit.Front(values, 2, maximize); !isSubset(front, got) {
					t.Errorf("%s (swapped %v, maximize %v): survivors %v lose a row of the front %v", tt.name, swap, maximize, got, front)
				}
			}
		}
	}
}

// isSubset reports whether every element of a, ascending, is in b,
// ascending.
func isSubset(a, b []int) bool {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			return false
		}
	}
	return true
}

// TestFront2FilterStandsDown pins when the filter runs: from
// prefilterMin rows, and to the end unless, at the probe row, more than
// half of the rows before it survived.
func TestFront2FilterStandsDown(t *testing.T) {
	line := []float64{0, 3, 1, 2, 2, 1, 3, 0} // every row on the front
	// Rows 1 and 3 are dominated by rows 0 and 2, the best of each
	// column, and row 4 by none.
	half := []float64{0, 4, 1, 5, 4, 0, 5, 1, 2, 2}
	tests := []struct {
		name   string
		values []float64
		tuning ndTuning
		want   []int // nil: it stands down
	}{
		{"at prefilterMin rows it runs", line, ndTuning{prefilterMin: 4, probe: math.MaxInt}, []int{0, 1, 2, 3}},
		{"below prefilterMin rows it does not", line, ndTuning{prefilterMin: 5, probe: math.MaxInt}, nil},
		{"two of two rows surviving at the probe stand it down", line, ndTuning{prefilterMin: 1, probe: 2}, nil},
		{"a probe past the last row never comes", line, ndTuning{prefilterMin: 1, probe: 4}, []int{0, 1, 2, 3}},
		{"two of four surviving at the probe, half, keep it on", half, ndTuning{prefilterMin: 1, probe: 4}, []int{0, 2, 4}},
		{"two of three surviving at the probe stand it down", half, ndTuning{prefilterMin: 1, probe: 3}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, filtered := filterRows(t, tt.values, []bool{false, false}, tt.tuning)
			if filtered != (tt.want != nil) {
				t.Fatalf("filtered = %v, want %v", filtered, tt.want != nil)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("survivors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFront2FilterKeepsTheFront checks on arbitrary matrices that the
// filter keeps every row of the front, each once and in row order, and, as
// its pivots include each column's lexicographic best, drops every row
// that one of those dominates.
func TestFront2FilterKeepsTheFront(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 40).Draw(t, "n")
		maximize := []bool{rapid.Bool().Draw(t, "max0"), rapid.Bool().Draw(t, "max1")}
		values := rapid.SliceOfN(rapid.OneOf(rapid.SampledFrom(specials), rapid.Float64Range(-3, 3), rapid.SampledFrom([]float64{0, 1, 2})), 2*n, 2*n).Draw(t, "values")
		got, _ := filterRows(t, values, maximize, filterOn)
		if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Fatalf("survivors %v are not ascending rows", got)
		}
		if front := testkit.Front(values, 2, maximize); !isSubset(front, got) {
			t.Fatalf("survivors %v lose a row of the front %v", got, front)
		}
		flip := KeyFlips(maximize)
		key := func(r int) [2]uint64 {
			return [2]uint64{FastKey(values[2*r], flip[0]), FastKey(values[2*r+1], flip[1])}
		}
		best := [2]int{}
		for r := range n {
			for c := range 2 {
				k, b := key(r), key(best[c])
				if k[c] < b[c] || k[c] == b[c] && k[1-c] < b[1-c] {
					best[c] = r
				}
			}
		}
		for _, r := range got {
			for _, b := range best {
				if kb, kr := key(b), key(r); KeysDominate(kb[:], kr[:]) {
					t.Fatalf("row %d survives, but column best %d dominates it", r, b)
				}
			}
		}
	})
}

// TestFront2FilterBuffer pins the survivors' buffer: allocated once at
// 2·min(n, 4096) records, room for the survivors and the sort's scratch,
// and, when 4096 rows survive of more, grown once to 2·growCap(4096, n).
func TestFront2FilterBuffer(t *testing.T) {
	diagonal := func(n int) []float64 { // row 0 dominates every other row
		values := make([]float64, 2*n)
		for r := range n {
			values[2*r], values[2*r+1] = float64(r), float64(r)
		}
		return values
	}
	line := func(n int) []float64 { // every row on the front
		values := make([]float64, 2*n)
		for r := range n {
			values[2*r], values[2*r+1] = float64(r), float64(n-1-r)
		}
		return values
	}
	tests := []struct {
		name    string
		values  []float64
		survive int
		cap     int
	}{
		{"one survivor of 16 rows in 2·16 records", diagonal(16), 1, 32},
		{"one survivor of 5000 rows in 2·4096 records", diagonal(5000), 1, 8192},
		// 4096 ≥ 5000/8, so growCap(4096, 5000) is 5000.
		{"5000 survivors of 5000 rows in 2·5000 records", line(5000), 5000, 10000},
	}
	for _, tt := range tests {
		n := len(tt.values) / 2
		recs, filtered := front2Filter(tt.values, n, KeyFlips([]bool{false, false}), uint64(1)<<payloadRowBits(n)-1, filterOn)
		if !filtered || len(recs) != tt.survive || cap(recs) != tt.cap {
			t.Errorf("%s: %d survivors in a buffer of %d (filtered %v), want %d in %d", tt.name, len(recs), cap(recs), filtered, tt.survive, tt.cap)
		}
	}
}

// TestFront2NoRows gives the two-column engines an empty pool, which
// their callers answer before calling them: each returns an empty front,
// and front2Small's is not nil, which would mean it gave up.
func TestFront2NoRows(t *testing.T) {
	flip := KeyFlips([]bool{false, true})
	if got := front2(nil, 0, flip, ndDefaults); len(got) != 0 {
		t.Errorf("front2 of no rows = %v, want none", got)
	}
	if got := front2Small(nil, 0, flip, ndDefaults.crowd); got == nil || len(got) != 0 {
		t.Errorf("front2Small of no rows = %#v, want an empty front", got)
	}
}

// TestRangeCut works buckets by hand: [10, 20] in 5 buckets is a scale of
// 5/10 = 0.5, so v goes to bucket ⌊(v − 10)·0.5⌋, the top value and NaN to
// the last, 4.
func TestRangeCut(t *testing.T) {
	cut, ok := cutRange(10, 20, 5)
	if !ok {
		t.Fatalf("cutRange(10, 20, 5) reports an overflow")
	}
	for _, tt := range []struct {
		v    float64
		want int
	}{
		{10, 0}, {11.9, 0}, {12, 1}, {15, 2}, {17.9, 3}, {18, 4}, {19.99, 4}, {20, 4}, {math.NaN(), 4},
	} {
		if got := cut.bucket(tt.v); got != tt.want {
			t.Errorf("bucket(%v) = %d, want %d", tt.v, got, tt.want)
		}
	}
	// A span of 0 scales by +Inf, and 0·Inf is NaN: the last bucket.
	flat, ok := cutRange(3, 3, 4)
	if got := flat.bucket(3); !ok || got != 3 {
		t.Errorf("cutRange(3, 3, 4) = _, %v; bucket(3) = %d, want 3", ok, got)
	}
	for _, hi := range []float64{math.Inf(1), math.MaxFloat64} {
		if _, ok := cutRange(-math.MaxFloat64, hi, 4); ok {
			t.Errorf("cutRange(-Max, %v, 4) reports no overflow", hi)
		}
	}
	// A span of exactly MaxFloat64 fits: 4/Max is a scale, and Max goes to
	// the last bucket.
	if wide, ok := cutRange(0, math.MaxFloat64, 4); !ok || wide.bucket(math.MaxFloat64) != 3 || wide.bucket(0) != 0 {
		t.Errorf("cutRange(0, Max, 4) = _, %v; bucket(Max) = %d, want 3; bucket(0) = %d, want 0", ok, wide.bucket(math.MaxFloat64), wide.bucket(0))
	}
}

// TestRadixOrderKeys checks radixOrder's keys by hand: three rows take
// w = 6 bits a digit, 2^12 = 4096 buckets over [0, 2], a scale of 2048, so
// first values 2, 1 and 0 key 4095 (the top goes to the last bucket),
// 2048 and 0. Distinct keys leave no tie for the values to settle.
func TestRadixOrderKeys(t *testing.T) {
	sv := [][2]float64{{2, 0}, {1, 1}, {0, 2}}
	order := make([]uint16, 3)
	sc := new(radixScratch)
	sc.radixOrder(sv, order, 0, 2, ndDefaults.crowd)
	if diff := cmp.Diff([]uint16{2, 1, 0}, order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	want := []uint32{0<<radixRowBits | 2, 2048<<radixRowBits | 1, 4095 << radixRowBits} // rows 2, 1, 0
	if diff := cmp.Diff(want, sc.recs[:3]); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

// TestLexOrderBoundary checks that lexOrder orders up to lexRadixMax rows
// by radixOrder and more by bucketOrder: a fresh scratch shows which ran,
// radixOrder's memory or bucketOrder's.
func TestLexOrderBoundary(t *testing.T) {
	defer func(old int) { lexRadixMax = old }(lexRadixMax)
	lexRadixMax = 4
	values := []float64{3, 0, 1, 1, 2, 2, 0, 3, 1, 0}
	for _, tt := range []struct {
		n     int
		radix bool
		want  []uint16
	}{{4, true, []uint16{3, 1, 2, 0}}, {5, false, []uint16{3, 4, 1, 2, 0}}} {
		sc := new(front2Scratch)
		_, order, _, ok := sc.lexOrder(values[:2*tt.n], tt.n, 1, 1, ndDefaults.crowd)
		if !ok || (sc.radix != nil) != tt.radix || (sc.of != nil) == tt.radix {
			t.Errorf("%d rows: ok %v, radixOrder ran %v, bucketOrder ran %v; want radixOrder %v", tt.n, ok, sc.radix != nil, sc.of != nil, tt.radix)
		}
		if diff := cmp.Diff(tt.want, order); diff != "" {
			t.Errorf("%d rows: order (-want +got):\n%s", tt.n, diff)
		}
	}
}
