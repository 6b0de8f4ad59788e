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

// TestSortsUseScratchPastTheirInsertionSizes: the insertion sorts work in
// place, so the scratch is untouched up to their sizes and written past
// them (by the radix sort's scatter, on distinct keys): RadixSort inserts
// up to 32 records, and sortRecs sorts by comparison below radixMin (256
// by default).
func TestSortsUseScratchPastTheirInsertionSizes(t *testing.T) {
	const sentinel = 1<<64 - 1
	for _, tt := range []struct {
		name    string
		n       int
		scratch bool // whether buf is written
		sort    func(a, buf []Rec)
	}{
		{"RadixSort", 32, false, func(a, buf []Rec) { RadixSort(a, buf, false) }},
		{"RadixSort", 33, true, func(a, buf []Rec) { RadixSort(a, buf, false) }},
		{"sortRecs", 255, false, func(a, buf []Rec) { sortRecs(a, buf, ndDefaults) }},
		{"sortRecs", 256, true, func(a, buf []Rec) { sortRecs(a, buf, ndDefaults) }},
	} {
		a, buf := make([]Rec, tt.n), make([]Rec, tt.n)
		for i := range a {
			a[i] = Rec{Key: uint64(tt.n - i), Aux: uint64(i)} // descending
			buf[i] = Rec{Key: sentinel, Aux: sentinel}
		}
		tt.sort(a, buf)
		written := slices.ContainsFunc(buf, func(r Rec) bool { return r.Key != sentinel })
		if written != tt.scratch {
			t.Errorf("%s of %d records: scratch written %v, want %v", tt.name, tt.n, written, tt.scratch)
		}
		if !slices.IsSortedFunc(a, func(x, y Rec) int { return cmp.Compare(x.Key, y.Key) }) {
			t.Errorf("%s of %d records: not sorted in a", tt.name, tt.n)
		}
	}
}
