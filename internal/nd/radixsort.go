package nd

import (
	"cmp"
	"math/bits"
	"slices"
)

// Rec is a sort record: a key and a payload, usually a position. At 16
// bytes, a million records stream through a radix pass a third faster than
// with a second key beside them.
type Rec struct {
	Key, Aux uint64
}

// SortRecs is sortRecs with the default tuning.
func SortRecs(recs, buf []Rec) (sorted, spare []Rec) { return sortRecs(recs, buf, ndDefaults) }

// sortRecs sorts recs by key using buf, of the same length, as scratch. It
// returns the sorted slice, which is recs or buf, and the other one.
// Equal keys may come out in any order.
func sortRecs(recs, buf []Rec, t ndTuning) (sorted, spare []Rec) {
	if len(recs) < max(t.radixMin, 2) {
		slices.SortFunc(recs, func(a, b Rec) int { return cmp.Compare(a.Key, b.Key) })
		return recs, buf
	}
	RadixSort(recs, buf, false)
	return recs, buf
}

// SortStable sorts recs by key, equal keys by payload, which for payloads
// that rise with the input order is a stable sort. The result is in recs;
// buf is scratch, allocated when shorter than recs. Up to stableSmall
// records are sorted by insertion and buf is not used: on the fronts of a
// few rows that most hypervolume calls measure, the scratch and a sort
// that settles ties in a second pass cost more than the rest of the call.
func SortStable(recs, buf []Rec) []Rec {
	if len(recs) <= stableSmall {
		for i := 1; i < len(recs); i++ {
			x := recs[i]
			j := i
			for ; j > 0 && (recs[j-1].Key > x.Key || recs[j-1].Key == x.Key && recs[j-1].Aux > x.Aux); j-- {
				recs[j] = recs[j-1]
			}
			recs[j] = x
		}
		return recs
	}
	if len(buf) < len(recs) {
		buf = make([]Rec, len(recs))
	}
	sorted, _ := sortRecs(recs, buf[:len(recs)], ndDefaults)
	SortTiesByAux(sorted)
	return sorted
}

// stableSmall is the most records SortStable sorts by insertion.
const stableSmall = 32

// KeyRunEnd returns the end of the run of records with the key of
// sorted[i]: sorted[i:KeyRunEnd(sorted, i)] all share it, and the next
// record, if any, does not. Every walk over the runs of a sorted slice
// steps with it.
func KeyRunEnd(sorted []Rec, i int) int {
	j := i + 1
	for j < len(sorted) && sorted[j].Key == sorted[i].Key {
		j++
	}
	return j
}

// SortTiesByAux orders each run of equal keys in sorted by payload, for
// callers whose payload is a row index and who need ties in row order.
func SortTiesByAux(sorted []Rec) {
	sortRuns(sorted, func(a, b Rec) int { return cmp.Compare(a.Aux, b.Aux) })
}

// sortRuns sorts each run of equal keys in sorted by cmp.
func sortRuns(sorted []Rec, cmp func(a, b Rec) int) {
	for i, j := NextTieRun(sorted, 0); i != len(sorted); i, j = NextTieRun(sorted, j) {
		slices.SortFunc(sorted[i:j], cmp)
	}
}

// NextTieRun returns the bounds of the first run of two or more records of
// equal key in sorted that starts at i or later, or len(sorted) twice if
// there is none; a walk over the ties of a sorted slice steps with it from
// 0, each time from the last run's end. A record alone with its key, as
// nearly all are on continuous data, costs one comparison with the next.
func NextTieRun(sorted []Rec, i int) (lo, hi int) {
	for ; i+1 < len(sorted); i++ {
		if sorted[i+1].Key == sorted[i].Key {
			return i, KeyRunEnd(sorted, i)
		}
	}
	return len(sorted), len(sorted)
}

// RadixSort sorts a by key, leaving the result in buf if inBuf and in a
// otherwise; the other slice is scratch. It is stable: records with equal
// keys keep their order.
//
// It is a most-significant-digit radix sort. Keys of floats crowd into few
// exponents, so each call takes its digit just below the prefix its keys all
// share, and sizes the digit to the number of keys: a million keys are
// scattered once out of cache into 2048 buckets of a few hundred, and every
// later level runs in cache. A least-significant-digit sort would stream the
// whole array six times (11-bit digits) and measured about twice as slow here.
// Recursion stops at equal keys or a bucket small enough for insertion sort.
func RadixSort(a, buf []Rec, inBuf bool) {
	n := len(a)
	if n <= 32 {
		for i := 1; i < n; i++ {
			x := a[i]
			j := i
			for ; j > 0 && a[j-1].Key > x.Key; j-- {
				a[j] = a[j-1]
			}
			a[j] = x
		}
		if inBuf {
			copy(buf, a)
		}
		return
	}
	lo, hi := a[0].Key, a[0].Key
	for _, r := range a {
		lo, hi = min(lo, r.Key), max(hi, r.Key)
	}
	if lo == hi {
		if inBuf {
			copy(buf, a)
		}
		return
	}
	const maxDigit = 11
	top := bits.Len64(lo ^ hi) // bits from top up are the same in every key
	shift := max(top-min(maxDigit, bits.Len(uint(n))), 0)
	// Small buckets get a small count array: zeroing 2048 counts for a few
	// hundred keys would cost more than sorting them.
	if width := top - shift; smallDigit(width) {
		var ends [1<<8 + 1]int
		radixScatter(a, buf, inBuf, shift, ends[:1<<width+1])
	} else {
		var ends [1<<maxDigit + 1]int
		radixScatter(a, buf, inBuf, shift, ends[:1<<width+1])
	}
}

// smallDigit reports whether a digit width bits wide takes the small
// count array (2^8+1 counts) rather than the large one.
func smallDigit(width int) bool { return width <= 8 }

// radixScatter is one level of RadixSort: it distributes a into buf by the
// digit at shift, len(ends)-1 values wide, and sorts each bucket.
func radixScatter(a, buf []Rec, inBuf bool, shift int, ends []int) {
	mask := uint64(len(ends) - 2)
	for _, r := range a {
		ends[1+(r.Key>>shift)&mask]++
	}
	for d := 1; d < len(ends); d++ {
		ends[d] += ends[d-1]
	}
	for _, r := range a {
		d := (r.Key >> shift) & mask
		buf[ends[d]] = r
		ends[d]++ // ends up as the end of bucket d
	}
	// The buckets now sit in buf, so their sorted form belongs in a unless
	// the caller wants buf.
	s := 0
	for _, e := range ends[:mask+1] {
		switch e - s {
		case 0:
		case 1:
			if !inBuf {
				a[s] = buf[s]
			}
		default:
			RadixSort(buf[s:e], a[s:e], !inBuf)
		}
		s = e
	}
}
