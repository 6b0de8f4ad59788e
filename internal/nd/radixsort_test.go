package nd

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSortStableKeepsTiesInPayloadOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	// 32 and 33 are each side of the insertion sort, 255 and 256 of the
	// radix sort.
	for _, n := range []int{0, 1, 2, 31, 32, 33, 255, 256, 5000} {
		for _, rising := range []bool{true, false} {
			a := make([]Rec, n)
			for i := range a {
				// Few distinct keys on the small side, so ties are common.
				a[i] = Rec{Key: rng.Uint64() >> (56 + rng.UintN(9)), Aux: uint64(i)}
			}
			if !rising { // payloads that do not follow the input order
				rng.Shuffle(n, func(i, j int) { a[i].Aux, a[j].Aux = a[j].Aux, a[i].Aux })
			}
			want := slices.Clone(a)
			slices.SortFunc(want, func(x, y Rec) int {
				return cmp.Or(cmp.Compare(x.Key, y.Key), cmp.Compare(x.Aux, y.Aux))
			})
			if got := SortStable(slices.Clone(a), nil); !slices.Equal(got, want) {
				t.Errorf("n=%d, rising payloads %v: SortStable differs from a sort by key then payload", n, rising)
			}
		}
	}
}
