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

// TestRadixSortIsStable: records with equal keys keep their input order
// (their Aux here), into a or into buf, each side of the insertion sort's
// 32 records and through a few levels of buckets.
func TestRadixSortIsStable(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{2, 32, 33, 300, 5000} {
		for _, inBuf := range []bool{false, true} {
			a := make([]Rec, n)
			for i := range a {
				a[i] = Rec{Key: rng.Uint64N(uint64(1 + n/4)), Aux: uint64(i)}
			}
			want := slices.Clone(a)
			slices.SortStableFunc(want, func(x, y Rec) int { return cmp.Compare(x.Key, y.Key) })
			got, buf := slices.Clone(a), make([]Rec, n)
			RadixSort(got, buf, inBuf)
			if inBuf {
				got = buf
			}
			if !slices.Equal(got, want) {
				t.Errorf("n=%d, inBuf %v: RadixSort differs from a stable sort by key", n, inBuf)
			}
		}
	}
}

// TestSortTiesByAuxRuns: runs of equal keys at the start, side by side, of
// one record between longer ones, and at the end, each sorted by payload
// and nothing moved across runs.
func TestSortTiesByAuxRuns(t *testing.T) {
	for _, c := range []struct {
		name      string
		keys, aux []uint64
		want      []uint64 // aux after
	}{
		{"empty", nil, nil, nil},
		{"one record", []uint64{1}, []uint64{4}, []uint64{4}},
		{"two runs side by side", []uint64{1, 1, 2, 2}, []uint64{9, 3, 8, 2}, []uint64{3, 9, 2, 8}},
		{"a lone record between runs", []uint64{1, 1, 2, 3, 3, 3}, []uint64{5, 4, 7, 9, 1, 6}, []uint64{4, 5, 7, 1, 6, 9}},
		{"a run at the end", []uint64{1, 2, 2}, []uint64{6, 5, 0}, []uint64{6, 0, 5}},
		{"no ties", []uint64{1, 2, 3}, []uint64{3, 2, 1}, []uint64{3, 2, 1}},
	} {
		recs := make([]Rec, len(c.keys))
		for i := range recs {
			recs[i] = Rec{Key: c.keys[i], Aux: c.aux[i]}
		}
		SortTiesByAux(recs)
		var got []uint64
		for i, r := range recs {
			if r.Key != c.keys[i] {
				t.Errorf("%s: key %d moved to %d", c.name, r.Key, i)
			}
			got = append(got, r.Aux)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: payloads %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSmallDigit: RadixSort's two count arrays give the same buckets, so
// only the choice shows where the small one ends: 2^8 buckets.
func TestSmallDigit(t *testing.T) {
	for _, c := range []struct {
		width int
		want  bool
	}{{1, true}, {8, true}, {9, false}, {11, false}} {
		if got := smallDigit(c.width); got != c.want {
			t.Errorf("smallDigit(%d) = %v, want %v", c.width, got, c.want)
		}
	}
}

// TestNextTieRun: on keys 1 1 2 3 3 3 4 5 5 the runs of two or more are
// [0,2), [3,6) and [7,9); from 2 the next is [3,6), from 6 it is [7,9),
// and from 9, past the last, there is none.
func TestNextTieRun(t *testing.T) {
	var sorted []Rec
	for _, k := range []uint64{1, 1, 2, 3, 3, 3, 4, 5, 5} {
		sorted = append(sorted, Rec{Key: k})
	}
	for _, c := range []struct{ from, lo, hi int }{
		{0, 0, 2}, {1, 3, 6}, {2, 3, 6}, {6, 7, 9}, {8, 9, 9}, {9, 9, 9},
	} {
		if lo, hi := NextTieRun(sorted, c.from); lo != c.lo || hi != c.hi {
			t.Errorf("NextTieRun from %d = [%d,%d), want [%d,%d)", c.from, lo, hi, c.lo, c.hi)
		}
	}
	if lo, hi := NextTieRun(nil, 0); lo != 0 || hi != 0 {
		t.Errorf("NextTieRun(nil) = [%d,%d), want [0,0)", lo, hi)
	}
}
