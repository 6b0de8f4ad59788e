package hv

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func TestRankSetMatchesSortedSlice(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 70000).Draw(t, "n")
		s := newRankSet(n)
		var ref []int
		for range rapid.IntRange(0, 200).Draw(t, "ops") {
			i := rapid.IntRange(0, n-1).Draw(t, "i")
			k, found := slices.BinarySearch(ref, i)
			if rapid.Bool().Draw(t, "add") {
				if !found {
					s.add(i)
					ref = slices.Insert(ref, k, i)
				}
			} else if found {
				s.remove(i)
				ref = slices.Delete(ref, k, k+1)
			}
			q := rapid.IntRange(-1, n).Draw(t, "q")
			wantNext, wantPrev := -1, -1
			for _, v := range ref {
				if v > q && wantNext < 0 {
					wantNext = v
				}
				if v < q {
					wantPrev = v
				}
			}
			if got := s.next(q); got != wantNext {
				t.Fatalf("next(%d) = %d, want %d (set %v)", q, got, wantNext, ref)
			}
			if got := s.prev(q); got != wantPrev {
				t.Fatalf("prev(%d) = %d, want %d (set %v)", q, got, wantPrev, ref)
			}
		}
	})
}

// TestRankSetEdges: next and prev at the ends of the set's words and of
// its capacity, where a search walks off a level.
func TestRankSetEdges(t *testing.T) {
	for _, n := range []int{64, 128, 64 * 64, 64*64 + 1} {
		s := newRankSet(n)
		s.add(0)
		s.add(n - 1)
		for _, c := range []struct {
			op      string
			i, want int
		}{
			{"next", -1, 0}, {"next", 0, n - 1}, {"next", n - 2, n - 1}, {"next", n - 1, -1},
			{"prev", n, n - 1}, {"prev", n - 1, 0}, {"prev", 1, 0}, {"prev", 0, -1},
		} {
			got := s.next(c.i)
			if c.op == "prev" {
				got = s.prev(c.i)
			}
			if got != c.want {
				t.Errorf("n=%d: %s(%d) = %d, want %d", n, c.op, c.i, got, c.want)
			}
		}
	}
}
