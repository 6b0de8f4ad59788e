package nd

import "math/bits"

// maximaBits is maxima by bit sets, for a list of at most 1<<16 distinct
// rows: for each row, the set of rows that could dominate it starts as the
// rows before it in s (lexicographically smaller) and is intersected, one
// column at a time, with the rows no worse in that column; the row is
// dominated iff a row is left. Walking the rows in the order of a column
// builds that column's sets one row at a time, so a row's set is cut by a
// word-wise AND with the set built so far when the walk reaches it.
//
// These are the dominance sets, kept as bits, of the merge non-dominated
// sorting (MNDS) of J. Moreno, D. Rodriguez, A. J. Nebro and J. A. Lozano
// ("Merge nondominated sorting algorithm for many-objective optimization",
// IEEE Trans. Cybernetics 51(12), 2021), reduced to finding the front:
// O(m² (d−1) / w) word operations for m rows of d columns and words of w
// bits, against the O(m log^(d−2) m) of the divide and conquer, whose
// constants grow with d. On fronts of four to six columns, where nearly
// every row survives and the boxes of the divide and conquer prune little,
// the words win up to some thousands of rows.
//
// The sets are kept for a chunk of rows at a time, so that their memory
// stays within a cache of the processor; each chunk walks every column's
// order again, which costs a bit set and a test per row.
//
// It marks the dominated rows dead and returns what maxima returns: the
// survivors, compacted to the front of s, keyed by and sorted on column 1.
func (k *kung) maximaBits(s []kRec) []kRec {
	m := len(s)
	d := k.dims
	words := (m + 63) / 64
	chunk := min(m, max(1, k.t.bitsWords/words))
	// order[(c-1)*m:] lists s's places by their rank in column c, as keys
	// rank<<16 | place, and order[(d-1)*m:] is the sort's scratch; sets
	// holds the chunk's sets, and seen, the last words, the set the walk
	// builds.
	u64 := Grow(&k.bits64, d*m+chunk*words+words)
	order, sets, seen := u64[:d*m], u64[d*m:len(u64)-words], u64[len(u64)-words:]
	for c := 1; c < d; c++ {
		o := order[(c-1)*m : c*m]
		top := int32(0)
		for i, r := range s {
			rank := k.col(r.id, c)
			top = max(top, rank)
			o[i] = uint64(rank)<<16 | uint64(i)
		}
		sortRankKeys(o, order[(d-1)*m:], bits.Len32(uint32(top)))
	}
	// The sets' non-zero words are [lo, hi), empty for an empty set. list
	// holds the chunk's rows in the order of the column at hand, as their
	// index in that order; ids keeps s's rows, which the result overwrites.
	i32 := Grow(&k.bits32, 2*chunk+2*m)
	lo, hi, list, ids := i32[:chunk], i32[chunk:2*chunk], i32[2*chunk:2*chunk+m], i32[2*chunk+m:]
	for i, r := range s {
		ids[i] = int32(r.id)
	}
	// c1 is clamped to m, so the chunks end exactly at m.
	for c0, c1 := 0, 0; c0 != m; c0 = c1 {
		c1 = min(c0+chunk, m)
		for c := 1; c != d; c++ {
			o := order[(c-1)*m : c*m]
			// Which rows fall in the chunk is a coin toss: no branch.
			n := 0
			for g, key := range o {
				list[n] = int32(g)
				n += OneIf(uint(int(key&0xffff)-c0) < uint(c1-c0))
			}
			clear(seen)
			joined := 0 // o[:joined] are in seen
			for _, g := range list[:n] {
				// A row's set is cut once the rows up to it in this
				// column's order have joined. Rows that tie with it in the
				// column and come later are later in s too, as the sort
				// keeps the order of ties, so they cannot dominate it.
				for ; joined <= int(g); joined++ {
					p := o[joined] & 0xffff
					seen[p>>6] |= 1 << (p & 63)
				}
				p := int(o[g] & 0xffff)
				j := p - c0
				set := sets[j*words : j*words+words]
				if c == 1 {
					// Only the rows before p can dominate it; bits of rows
					// after it are never looked at again.
					top := p >> 6
					copy(set[:top], seen[:top])
					set[top] = seen[top] & (1<<(p&63) - 1)
					lo[j], hi[j] = 0, int32(top+1)
				}
				l, h := int(lo[j]), int(hi[j])
				if l == h {
					continue // nothing before p is no worse so far
				}
				cut, by := set[l:h], seen[l:h]
				if c == d-1 {
					var any uint64
					for w := range cut {
						any |= cut[w] & by[w]
					}
					if any != 0 {
						k.kill(uint32(ids[p]))
					}
					continue
				}
				for w := range cut {
					cut[w] &= by[w]
				}
				for l < h && set[l] == 0 {
					l++
				}
				if l < h {
					// set[l] is not zero, and stops the walk down.
					for set[h-1] == 0 {
						h--
					}
				}
				lo[j], hi[j] = int32(l), int32(h)
			}
		}
	}
	// The survivors, sorted by column 1 as maxima returns them.
	f := 0
	for _, key := range order[:m] {
		id := uint32(ids[key&0xffff])
		if !k.dead(id) {
			s[f] = kRec{uint32(key >> 16), id}
			f++
		}
	}
	return s[:f]
}

// sortRankKeys sorts keys rank<<16 | place, ranks of at most rankBits
// bits, by rank, keeping the order of equal ranks, through buf (as long):
// a least significant digit radix sort of one to three passes.
func sortRankKeys(keys, buf []uint64, rankBits int) {
	passes, digit := rankPasses(rankBits)
	if digit == 0 || len(keys) == 0 {
		return
	}
	var count [1 << 11]int32
	src, dst := keys, buf
	shift := 16
	for range passes {
		mask := uint64(1)<<digit - 1
		clear(count[:1<<digit])
		for _, k := range src {
			count[k>>shift&mask]++
		}
		sum := int32(0)
		for i, c := range count[:1<<digit] {
			count[i] = sum
			sum += c
		}
		for _, k := range src {
			b := k >> shift & mask
			dst[count[b]] = k
			count[b]++
		}
		src, dst = dst, src
		shift += digit
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
}

// rankPasses returns how many passes sortRankKeys makes over ranks of
// rankBits bits, and the bits of their digits: the fewest passes of
// digits of at most 11 bits (a table of 8 KiB of counts), the bits shared
// out as evenly as they go, so that each pass clears and sums as few
// counts as it can.
func rankPasses(rankBits int) (passes, digit int) {
	passes = max(1, (rankBits+10)/11)
	return passes, (rankBits + passes - 1) / passes
}

// Grow returns (*buf)[:n], reallocating it when it is shorter; the
// contents are not kept.
func Grow[E any](buf *[]E, n int) []E {
	if cap(*buf) < n {
		*buf = make([]E, n)
	}
	return (*buf)[:n]
}
