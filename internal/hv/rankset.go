package hv

import (
	"math/bits"

	"github.com/spica-search/spica/internal/nd"
)

// rankSet is an ordered set of the integers [0, n): a 64-ary tree of bit
// words where a bit is set when its word on the level below is non-zero, so
// insertion, deletion, successor and predecessor cost O(log₆₄ n) word
// operations.
type rankSet struct{ levels [][]uint64 }

func newRankSet(n int) rankSet {
	return new(sweepScratch).rankSet(n)
}

// rankSet is newRankSet on the scratch's memory, valid until its next use.
func (sc *sweepScratch) rankSet(n int) rankSet {
	total := 0
	for w := n; ; {
		w = (w + 63) / 64
		total += max(w, 1)
		if w <= 1 {
			break
		}
	}
	words := nd.Grow(&sc.words, total)
	clear(words)
	s := rankSet{levels: sc.levels[:0]}
	for {
		w := max((n+63)/64, 1)
		s.levels = append(s.levels, words[:w:w])
		words = words[w:]
		if w <= 1 {
			sc.levels = s.levels
			return s
		}
		n = w
	}
}

func (s rankSet) add(i int) {
	for _, lv := range s.levels {
		w := i >> 6
		was := lv[w]
		lv[w] |= 1 << (i & 63)
		if was != 0 {
			return
		}
		i = w
	}
}

func (s rankSet) remove(i int) {
	for _, lv := range s.levels {
		w := i >> 6
		lv[w] &^= 1 << (i & 63)
		if lv[w] != 0 {
			return
		}
		i = w
	}
}

// next returns the smallest member greater than i (i may be -1), or -1.
func (s rankSet) next(i int) int {
	i++
	l := 0
	for ; l != len(s.levels); l++ {
		lv := s.levels[l]
		w := i >> 6
		if w >= len(lv) {
			return -1
		}
		if m := lv[w] >> (i & 63) << (i & 63); m != 0 {
			i = w<<6 + bits.TrailingZeros64(m)
			break
		}
		i = w + 1
	}
	if l == len(s.levels) {
		return -1
	}
	for l--; l >= 0; l-- {
		i = i<<6 + bits.TrailingZeros64(s.levels[l][i])
	}
	return i
}

// prev returns the largest member smaller than i, or -1.
func (s rankSet) prev(i int) int {
	i--
	l := 0
	for ; l != len(s.levels); l++ {
		if i < 0 {
			return -1
		}
		w, b := i>>6, 63-i&63
		if m := s.levels[l][w] << b >> b; m != 0 {
			i = w<<6 + 63 - bits.LeadingZeros64(m)
			break
		}
		i = w - 1
	}
	if l == len(s.levels) {
		return -1
	}
	for l--; l >= 0; l-- {
		i = i<<6 + 63 - bits.LeadingZeros64(s.levels[l][i])
	}
	return i
}
