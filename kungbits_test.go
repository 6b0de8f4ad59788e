package spica

import (
	"cmp"
	"math/bits"
	"slices"
	"testing"

	"pgregory.net/rapid"
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
