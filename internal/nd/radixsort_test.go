package nd

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSortStableKeepsTiesInPayloadOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 255, 256, 5000} {
		a := make([]Rec, n)
		for i := range a {
			// Few distinct keys on the small side, so ties are common.
			a[i] = Rec{Key: rng.Uint64() >> (56 + rng.UintN(9)), Aux: uint64(i)}
		}
		want := slices.Clone(a)
		slices.SortStableFunc(want, func(x, y Rec) int { return cmp.Compare(x.Key, y.Key) })
		if got := SortStable(slices.Clone(a), nil); !slices.Equal(got, want) {
			t.Errorf("n=%d: SortStable differs from a stable sort", n)
		}
	}
}
