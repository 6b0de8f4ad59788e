package nd

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/spica-search/spica/internal/testkit"
)

// TestSortRankKeys checks the radix sort of maximaBits against a stable
// comparison sort by rank, on ranks of every width from 0 to 31 bits, so
// that it runs one, two and three passes.
func TestSortRankKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		width := rapid.IntRange(0, 31).Draw(t, "width")
		n := rapid.IntRange(0, 300).Draw(t, "n")
		ranks := rapid.SliceOfN(rapid.Uint32Range(0, uint32(1)<<width-1), n, n).Draw(t, "ranks")
		keys := make([]uint64, n)
		top := uint32(0)
		for i, r := range ranks {
			keys[i] = uint64(r)<<16 | uint64(i)
			top = max(top, r)
		}
		want := slices.Clone(keys)
		slices.SortStableFunc(want, func(a, b uint64) int { return cmp.Compare(a>>16, b>>16) })
		sortRankKeys(keys, make([]uint64, n), bits.Len32(top))
		if !slices.Equal(keys, want) {
			t.Fatalf("sorted %v, want %v", keys, want)
		}
	})
}

// TestMaximaBitsAtScale runs the engine at its default sizes on fronts of
// tens of thousands of rows, where halves of 8192 rows go to maximaBits in
// chunks of a few thousand rows and the divide and conquer marries them
// above, against the divide and conquer alone (bits off): on points of a
// sphere and of a simplex, all on the front; on the same with every third
// row moved half its length away from the origin, so that rows nearby
// dominate it; and on a sphere rounded to 1/32, so that ranks tie and rows
// repeat.
func TestMaximaBitsAtScale(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 9000
	}
	kungOnly := ndDefaults
	kungOnly.bits = 0
	for d := 4; d <= 6; d++ {
		for _, shape := range []string{"sphere", "line", "sphere-pushed", "line-pushed", "sphere-rounded"} {
			t.Run(fmt.Sprintf("d=%d/%s", d, shape), func(t *testing.T) {
				base, _, _ := strings.Cut(shape, "-")
				values := testkit.Matrix(base, n, d)
				for r := range n {
					row := values[r*d : (r+1)*d]
					switch {
					case strings.HasSuffix(shape, "pushed") && r%3 == 0:
						for c := range row {
							row[c] *= 1.5
						}
					case strings.HasSuffix(shape, "rounded"):
						for c := range row {
							row[c] = math.Round(row[c]*32) / 32
						}
					}
				}
				maximize := make([]bool, d)
				want := nonDominatedTuned(values, n, d, maximize, kungOnly)
				got := nonDominatedTuned(values, n, d, maximize, ndDefaults)
				if diff := gocmp.Diff(want, got); diff != "" {
					t.Fatalf("front with bit sets differs from the divide and conquer's (-want +got):\n%s", diff)
				}
				if len(want) < n/100 || len(want) == n && shape != "sphere" && shape != "line" {
					t.Fatalf("front of %d rows out of %d: the data does not test what it should", len(want), n)
				}
			})
		}
	}
}
