package spica

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// front2 is the two-column front, the planar case of Kung, Luccio and
// Preparata (JACM 1975): one sweep after the sort. Within a run of equal
// first keys only the rows holding the run's least second key can survive;
// they do when that key beats every second key of a strictly better first
// key.
//
// A record's payload packs the row into its low bits and as much of the
// second key as fits above them, so the sweep reads the records in order and
// looks a second key up in values only when two prefixes tie, which on
// continuous data with a million rows (44 bits of prefix) is rare.
//
// The front comes back in the sweep's order, first key ascending, as records
// of the first key and the row, written over the sorted records.
func front2(values []float64, n int, flip []uint64, t ndTuning) []ndRec {
	f0, f1 := flip[0], flip[1]
	rowBits := uint(bits.Len(uint(n - 1)))
	rowMask := uint64(1)<<rowBits - 1
	pack := func(k1 uint64, r int) uint64 { return k1&^rowMask | uint64(r) }
	var recs []ndRec
	filtered := n >= t.prefilterMin
	if filtered {
		// The pivot loop of pivotFilter, unrolled for two columns since it is
		// most of the cost when little survives.
		p := newPivotSet(values, n, 2, flip)
		pk := p.keys
		lo0, lo1, sc0, sc1 := p.lo[0], p.lo[1], p.scale[0], p.scale[1]
		if f0 != 0 {
			sc0 = -sc0 // score -v as (v - -lo)·-scale
			lo0 = -lo0
		}
		if f1 != 0 {
			sc1 = -sc1
			lo1 = -lo1
		}
		// Room for the sort's scratch comes with the survivors' records.
		recs = make([]ndRec, 0, 2*min(n, 4096))
		stale := 0
		probe := t.probeAt(n)
		for r := 0; r < n; r++ {
			if r == probe && 2*len(recs) > r { // as in pivotFilter
				filtered = false
				break
			}
			v0, v1 := values[2*r], values[2*r+1]
			k0, k1 := fastKey(v0, f0), fastKey(v1, f1)
			dominated := false
			for i := 0; i < len(pk) && !dominated; i += 2 {
				p0, p1 := pk[i], pk[i+1]
				dominated = p0 <= k0 && p1 <= k1 && (p0 < k0 || p1 < k1)
			}
			if dominated {
				continue
			}
			if 2*len(recs) == cap(recs) {
				recs = append(make([]ndRec, 0, 2*growCap(len(recs), n)), recs...)
			}
			recs = append(recs, ndRec{k0, pack(k1, r)})
			changed := false
			if s := unitClamp((v0-lo0)*sc0) + unitClamp((v1-lo1)*sc1); s < p.kneeScore {
				p.kneeScore, pk[0], pk[1], changed = s, k0, k1, true
			}
			// A column's lexicographic best is on the front.
			if k0 < pk[2] || k0 == pk[2] && k1 < pk[3] {
				pk[2], pk[3], changed = k0, k1, true
			}
			if k1 < pk[5] || k1 == pk[5] && k0 < pk[4] {
				pk[4], pk[5], changed = k0, k1, true
			}
			if changed {
				stale = len(recs)
			}
		}
		f := 0
		for j, rec := range recs {
			k1 := fastKey(values[2*(rec.aux&rowMask)+1], f1)
			if j >= stale || !p.dominated([]uint64{rec.key, k1}) {
				recs[f] = rec
				f++
			}
		}
		recs = recs[:f]
	}
	if !filtered {
		// A pre-filter that stood down leaves its buffer, big enough for
		// the records and the sort's scratch when n is small.
		if cap(recs) >= 2*n {
			recs = recs[:n]
		} else {
			recs = make([]ndRec, n, 2*n)
		}
		for r := range recs {
			recs[r] = ndRec{fastKey(values[2*r], f0), pack(fastKey(values[2*r+1], f1), r)}
		}
	}
	m := len(recs)
	var buf []ndRec
	if cap(recs) >= 2*m {
		buf = recs[m : 2*m]
	} else {
		buf = make([]ndRec, m)
	}
	sorted, _ := sortRecs(recs, buf, t)
	exact := func(aux uint64) uint64 { return fastKey(values[2*(aux&rowMask)+1], f1) }
	// less reports whether the second key of payload a is below that of b.
	less := func(a, b uint64) bool {
		if a>>rowBits != b>>rowBits {
			return a>>rowBits < b>>rowBits
		}
		return exact(a) < exact(b)
	}
	var best uint64 // the payload of a row with the best second key so far
	seen := false
	// The front overwrites the records already read: count never passes i.
	count := 0
	keep := func(k0, aux uint64) {
		sorted[count] = ndRec{k0, aux & rowMask}
		count++
	}
	for i := 0; i < m; {
		k0 := sorted[i].key
		j := keyRunEnd(sorted, i)
		if j == i+1 { // the common case: no tie in the first key
			if a := sorted[i].aux; !seen || less(a, best) {
				keep(k0, a)
				best, seen = a, true
			}
			i = j
			continue
		}
		run := sorted[i:j]
		runMin := run[0].aux
		for _, s := range run[1:] {
			if less(s.aux, runMin) {
				runMin = s.aux
			}
		}
		if !seen || less(runMin, best) {
			for _, s := range run {
				if !less(runMin, s.aux) {
					keep(k0, s.aux)
				}
			}
			best, seen = runMin, true
		}
		i = j
	}
	return sorted[:count]
}

// lexSort sorts the key rows lexicographically: a radix sort on the first
// column, then a comparison sort inside each run of equal first keys, which
// is short unless the data is degenerate.
func lexSort(keys []uint64, dims, m int, t ndTuning) (sorted, spare []ndRec) {
	recs := make([]ndRec, 2*m)
	for j := range m {
		recs[j] = ndRec{keys[dims*j], uint64(j)}
	}
	sorted, spare = sortRecs(recs[:m], recs[m:], t)
	for i := 0; i < m; {
		j := keyRunEnd(sorted, i)
		if j-i > 1 {
			slices.SortFunc(sorted[i:j], func(a, b ndRec) int {
				x, y := int(a.aux), int(b.aux)
				return slices.Compare(keys[x*dims+1:(x+1)*dims], keys[y*dims+1:(y+1)*dims])
			})
		}
		i = j
	}
	return sorted, spare
}

// front3 is the three-column maxima algorithm of H. T. Kung, F. Luccio and
// F. P. Preparata ("On finding the maxima of a set of vectors", JACM 22(4),
// 1975), O(n log n): a sweep in lexicographic order. Everything swept
// before a row is lexicographically smaller, so an earlier distinct row
// with second and third keys no worse dominates it. The staircase of those
// pairs is a Fenwick tree over the dense ranks of the second key holding
// prefix minima of the third: O(log n) to ask and to insert, with no
// rebalancing.
//
// It returns the key rows in lexicographic order (see lexSort) and keep,
// which marks, by key row, the rows on the front.
func front3(keys []uint64, m int, t ndTuning) (lex []ndRec, keep []bool) {
	if m <= t.small3 {
		return front3Small(keys, m)
	}
	lex, spare := lexSort(keys, 3, m, t)
	// One gather into lexicographic order, after which the sweep reads
	// sequentially: equal second keys have equal ranks, so a duplicate row
	// is an equal first key, rank and third key.
	byK1 := make([]ndRec, m)
	k2 := make([]uint64, m)
	for i, s := range lex {
		byK1[i] = ndRec{keys[3*s.aux+1], uint64(i)}
		k2[i] = keys[3*s.aux+2]
	}
	byK1, _ = sortRecs(byK1, spare, t)
	rank := make([]int, m)
	ranks := 0
	for i, s := range byK1 {
		if i > 0 && s.key != byK1[i-1].key {
			ranks++
		}
		rank[s.aux] = ranks
	}
	ranks++
	tree := make([]uint64, ranks+1)
	for i := range tree {
		tree[i] = math.MaxUint64
	}
	// MaxUint64 is also the key of NaN, so emptiness is tracked apart: a
	// prefix holds a row iff it reaches the least rank inserted.
	lowest := ranks
	keep = make([]bool, m)
	for i := 0; i < m; {
		r, z := rank[i], k2[i]
		j := i + 1
		for j < m && lex[j].key == lex[i].key && rank[j] == r && k2[j] == z {
			j++
		}
		dominated := false
		if lowest <= r {
			best := uint64(math.MaxUint64)
			for x := r + 1; x > 0; x -= x & -x {
				best = min(best, tree[x])
			}
			dominated = best <= z
		}
		if !dominated {
			for _, s := range lex[i:j] {
				keep[s.aux] = true
			}
			for x := r + 1; x <= ranks; x += x & -x {
				tree[x] = min(tree[x], z)
			}
			lowest = min(lowest, r)
		}
		i = j
	}
	return lex, keep
}

// front3Small is front3 for the few hundred rows a small pool leaves after
// the pre-filter, where the set-up of the Fenwick tree (a second sort, the
// ranks, five buffers) costs more than the sweep: one comparison sort into
// lexicographic order, and the staircase of the last two keys as a sorted
// slice, searched by bisection and edited in place, O(n log n + n·s) for a
// staircase of s steps.
func front3Small(keys []uint64, m int) (lex []ndRec, keep []bool) {
	lex = make([]ndRec, m)
	for j := range lex {
		lex[j] = ndRec{keys[3*j], uint64(j)}
	}
	slices.SortFunc(lex, func(a, b ndRec) int {
		if a.key != b.key {
			return cmp.Compare(a.key, b.key)
		}
		x, y := keys[3*a.aux+1:3*a.aux+3], keys[3*b.aux+1:3*b.aux+3]
		if x[0] != y[0] {
			return cmp.Compare(x[0], y[0])
		}
		return cmp.Compare(x[1], y[1])
	})
	keep = make([]bool, m)
	// The steps (second key, third key) of the rows kept so far that no
	// other kept row beats in both: second keys ascending, third keys
	// descending. Every kept row is lexicographically earlier than the
	// row asked about, so a step no worse in both keys dominates it.
	type step struct{ y, z uint64 }
	stairs := make([]step, 0, 16)
	for i := 0; i < m; {
		r := 3 * lex[i].aux
		y, z := keys[r+1], keys[r+2]
		j := i + 1
		for j < m && lex[j].key == lex[i].key && keys[3*lex[j].aux+1] == y && keys[3*lex[j].aux+2] == z {
			j++
		}
		// Of the steps with second key ≤ y, the last has the least third.
		p, _ := slices.BinarySearchFunc(stairs, y, func(s step, y uint64) int {
			if s.y <= y {
				return -1
			}
			return 1
		})
		if p > 0 && stairs[p-1].z <= z {
			i = j
			continue
		}
		for _, s := range lex[i:j] {
			keep[s.aux] = true
		}
		// The steps after p have greater second keys; those with third
		// keys no better than z are beaten in both and go. (A step with
		// second key y just before p stays: redundant, never wrong.)
		q := p
		for q < len(stairs) && stairs[q].z >= z {
			q++
		}
		stairs = slices.Replace(stairs, p, q, step{y, z})
		i = j
	}
	return lex, keep
}
