//go:build !race

package nd

import (
	"runtime"
	"slices"
	"testing"

	"github.com/spica-search/spica/internal/testkit"
)

// TestFrontAllocatesItsResultOnly holds a warm Front call that runs the
// general engine on a pool of at most marksPoolRows rows to one
// allocation, its result: six uniform columns of 1000 rows on which the
// sort-filter gives up (stream 9 of the benchmarks' generator), and of
// 4096 rows, past what the sort-filter takes. (The race detector's
// sync.Pool drops some of what it is given, hence the build tag.)
func TestFrontAllocatesItsResultOnly(t *testing.T) {
	for _, tt := range []struct {
		n      int
		stream uint64
	}{{1000, 9}, {marksPoolRows, 0}} {
		values := testkit.Stream("uniform", tt.n, 6, tt.stream)
		maximize := make([]bool, 6)
		call := func() { _ = Front(values, tt.n, 6, maximize) }
		call()
		if got := testing.AllocsPerRun(5, call); got != 1 {
			t.Errorf("n=%d stream %d: %v allocations a call, want 1", tt.n, tt.stream, got)
		}
	}
}

// TestFrontHeavy2AllocatesOneSample checks that frontHeavy2 allocates its
// sample once, at its full size of 2s values, beside what front2Small
// allocates (its result): with s = n = 16 the sample is the whole matrix.
func TestFrontHeavy2AllocatesOneSample(t *testing.T) {
	const n = 16
	values := testkit.Matrix("line", n, 2)
	flip := KeyFlips([]bool{false, false})
	base := testing.AllocsPerRun(5, func() { _ = front2Small(values, n, flip, n) })
	if got := testing.AllocsPerRun(5, func() { _ = frontHeavy2(values, n, flip, n) }); got != base+1 {
		t.Errorf("frontHeavy2 allocates %v times a call, want %v (front2Small's %v and the sample)", got, base+1, base)
	}
}

// TestAscendingRowsAllocatesABitARow checks that the bitmap of
// ascendingRows holds one bit a row: over n = 2¹⁶ rows, 1024 words or
// 8 KiB, and 24 bytes of rows, so a call allocates well under 16 KiB.
func TestAscendingRowsAllocatesABitARow(t *testing.T) {
	const n = 1 << 16
	front := []Rec{{Aux: 5}, {Aux: n - 1}, {Aux: 64}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rows := ascendingRows(front, n)
	runtime.ReadMemStats(&after)
	if want := []int{5, 64, n - 1}; !slices.Equal(rows, want) {
		t.Errorf("ascendingRows = %v, want %v", rows, want)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got >= 16<<10 {
		t.Errorf("ascendingRows over %d rows allocated %d bytes, want under 16 KiB", n, got)
	}
}

// TestFrontKungAllocatesNothingWarm checks that frontKung, with its
// scratch warm, allocates nothing: its lists and the rows it gathers for
// comparing all pairs fit the room layout made for them. The tunings run
// the divide and conquer to single rows with marriages of one pair
// compared pairwise (room for one gathered row), and with leaves and
// marriages of up to eight rows or pairs, on rows of a sphere (nearly all
// survive) and uniform ones, in five and six columns.
func TestFrontKungAllocatesNothingWarm(t *testing.T) {
	tunings := []ndTuning{
		{radixMin: 2, leaf: 1, brutePairs: 1},
		{radixMin: 2, leaf: 8, brutePairs: 8},
	}
	for _, shape := range []string{"sphere", "uniform"} {
		for _, dims := range []int{5, 6} {
			const n = 300
			keys := KeyMatrix(testkit.Matrix(shape, n, dims), dims, make([]uint64, dims))
			for _, tuning := range tunings {
				msc := new(marksScratch)
				call := func() { _, _ = frontKung(keys, dims, n, tuning, msc) }
				call()
				if got := testing.AllocsPerRun(5, call); got != 0 {
					t.Errorf("%s d=%d leaf %d brutePairs %d: %v allocations a call, want 0", shape, dims, tuning.leaf, tuning.brutePairs, got)
				}
			}
		}
	}
}

// TestSortStableScratch: SortStable inserts up to stableSmall = 32
// records, with no scratch; past that it allocates one when the caller's
// is shorter than the records, and uses one as long.
func TestSortStableScratch(t *testing.T) {
	for _, tt := range []struct {
		n, buf int
		allocs float64
	}{{32, 0, 0}, {33, 0, 1}, {33, 32, 1}, {33, 33, 0}, {100, 100, 0}} {
		a, buf := make([]Rec, tt.n), make([]Rec, tt.buf)
		if allocs := testing.AllocsPerRun(10, func() {
			for i := range a {
				a[i] = Rec{Key: uint64(len(a) - i), Aux: uint64(i)}
			}
			SortStable(a, buf)
		}); allocs != tt.allocs {
			t.Errorf("SortStable of %d records, scratch of %d: %v allocations, want %v", tt.n, tt.buf, allocs, tt.allocs)
		}
	}
}
