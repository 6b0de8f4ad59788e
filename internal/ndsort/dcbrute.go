package ndsort

import (
	"math/bits"
	"slices"
)

// bruteB is helperB by comparing pairs: each row of H with the rows of L
// up to the last whose key 0 is no larger (about half of L on data with
// few dominations). The keys and layers of L are first copied into one run
// of memory, so that the inner loop reads in sequence, with the common
// widths unrolled.
func (s *dcSorter) bruteB(L, H []int32, k int) {
	w := k // keys 1..k; key 0 only bounds the prefix, kept apart in lead
	keys, ranks, lead := s.bruteKeys[:0], s.bruteRanks[:0], s.bruteLead[:0]
	for _, l := range L {
		lk := s.row(l, k)
		lead = append(lead, lk[0])
		keys = append(keys, lk[1:]...)
		ranks = append(ranks, s.rank[l])
	}
	s.bruteKeys, s.bruteRanks, s.bruteLead = keys, ranks, lead
	// A key of L above the key of h borrows in h − l; the borrows of all
	// keys are or-ed rather than tested one by one, because on data where
	// few pairs dominate every test is a coin toss the branch predictor
	// loses, while the or-ed result is nearly always the same.
	// L and H ascend, so key 0 does too: only the rows of L up to the
	// last with key 0 no larger than h's can dominate h, and that prefix
	// grows with h, and key 0 needs no test within it.
	n := 0
	for _, h := range H {
		hk := s.row(h, k)
		for n < len(lead) && lead[n] <= hk[0] {
			n++
		}
		best := s.rank[h]
		switch pk, pr, hk := slices.Clip(keys[:n*w]), ranks[:n], hk[1:]; w {
		case 1:
			best = bruteRow1(pk, pr, hk[0], best)
		case 2:
			best = bruteRow2(pk, pr, hk, best)
		case 3:
			best = bruteRow3(pk, pr, hk, best)
		case 4:
			best = bruteRow4(pk, pr, hk, best)
		case 5:
			best = bruteRow5(pk, pr, hk, best)
		default:
			best = bruteRow(pk, pr, hk, best)
		}
		s.rank[h] = best
	}
}

// bruteRow gives the bound of a row with keys hk and bound best after the
// rows with the given keys (packed, len(hk) each) and layers: one more than
// the largest layer, at least best, of a row no larger in every key.
// bruteRow1 to bruteRow5 are the same for one to five keys, each a small
// function so that its loop keeps everything in registers.
func bruteRow(keys []uint64, ranks []int, hk []uint64, best int) int {
	w := len(hk)
	for j, r := range ranks {
		p := keys[j*w : j*w+w : j*w+w]
		var borrow uint64
		for c, v := range hk {
			_, b := bits.Sub64(v, p[c], 0)
			borrow |= b
		}
		if borrow == 0 && r >= best {
			best = r + 1
		}
	}
	return best
}

func bruteRow1(keys []uint64, ranks []int, h0 uint64, best int) int {
	keys = keys[:len(ranks)]
	for j, r := range ranks {
		if _, b0 := bits.Sub64(h0, keys[j], 0); b0 == 0 && r >= best {
			best = r + 1
		}
	}
	return best
}

func bruteRow2(keys []uint64, ranks []int, hk []uint64, best int) int {
	h0, h1 := hk[0], hk[1]
	for j, r := range ranks {
		p := keys[2*j : 2*j+2 : 2*j+2]
		_, b0 := bits.Sub64(h0, p[0], 0)
		_, b1 := bits.Sub64(h1, p[1], 0)
		if b0|b1 == 0 && r >= best {
			best = r + 1
		}
	}
	return best
}

func bruteRow3(keys []uint64, ranks []int, hk []uint64, best int) int {
	h0, h1, h2 := hk[0], hk[1], hk[2]
	for j, r := range ranks {
		p := keys[3*j : 3*j+3 : 3*j+3]
		_, b0 := bits.Sub64(h0, p[0], 0)
		_, b1 := bits.Sub64(h1, p[1], 0)
		_, b2 := bits.Sub64(h2, p[2], 0)
		if b0|b1|b2 == 0 && r >= best {
			best = r + 1
		}
	}
	return best
}

func bruteRow4(keys []uint64, ranks []int, hk []uint64, best int) int {
	h0, h1, h2, h3 := hk[0], hk[1], hk[2], hk[3]
	for j, r := range ranks {
		p := keys[4*j : 4*j+4 : 4*j+4]
		_, b0 := bits.Sub64(h0, p[0], 0)
		_, b1 := bits.Sub64(h1, p[1], 0)
		_, b2 := bits.Sub64(h2, p[2], 0)
		_, b3 := bits.Sub64(h3, p[3], 0)
		if b0|b1|b2|b3 == 0 && r >= best {
			best = r + 1
		}
	}
	return best
}

func bruteRow5(keys []uint64, ranks []int, hk []uint64, best int) int {
	h0, h1, h2, h3, h4 := hk[0], hk[1], hk[2], hk[3], hk[4]
	for j, r := range ranks {
		p := keys[5*j : 5*j+5 : 5*j+5]
		_, b0 := bits.Sub64(h0, p[0], 0)
		_, b1 := bits.Sub64(h1, p[1], 0)
		_, b2 := bits.Sub64(h2, p[2], 0)
		_, b3 := bits.Sub64(h3, p[3], 0)
		_, b4 := bits.Sub64(h4, p[4], 0)
		if b0|b1|b2|b3|b4 == 0 && r >= best {
			best = r + 1
		}
	}
	return best
}
