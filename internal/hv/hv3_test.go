package hv

import (
	"slices"
	"testing"
)

// stairOf is a staircase over the given rank coordinates holding members.
func stairOf(x, y []float64, members ...int) staircase {
	t := staircase{set: newRankSet(len(x)), x: x, y: y}
	for _, r := range members {
		t.set.add(r)
	}
	return t
}

// membersOf lists a staircase's members in rank order.
func membersOf(t staircase) []int {
	var out []int
	for r := t.set.next(-1); r != -1; r = t.set.next(r) {
		out = append(out, r)
	}
	return out
}

func TestStaircaseCovers(t *testing.T) {
	tests := []struct {
		name      string
		x, y      []float64
		members   []int
		r         int
		wantCover int
		want      bool
	}{
		// Ranks 0 and 1 tie in x; rank 0, ranked first, still covers rank 1:
		// 5 ≥ 5 and 4 ≥ 2.
		{"the member before on a tie in x", []float64{5, 5}, []float64{4, 2}, []int{0}, 1, 0, true},
		// The member after, at x 3 ≥ 1, is as high as rank 0: covered.
		{"a member as high", []float64{1, 3}, []float64{2, 2}, []int{1}, 0, 1, true},
		{"a member lower", []float64{1, 3}, []float64{2, 1}, []int{1}, 0, 1, false},
		// Rank 0 is left of rank 1, so it cannot cover it, and there is
		// nothing right of it.
		{"a member before, left of it", []float64{1, 3}, []float64{5, 1}, []int{0}, 1, -1, false},
		{"no members", []float64{1, 3}, []float64{5, 1}, nil, 1, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := stairOf(tt.x, tt.y, tt.members...)
			if got := s.cover(tt.r); got != tt.wantCover {
				t.Errorf("cover(%d) = %d, want %d", tt.r, got, tt.wantCover)
			}
			if got := s.covers(tt.r); got != tt.want {
				t.Errorf("covers(%d) = %v, want %v", tt.r, got, tt.want)
			}
		})
	}
}

// TestStaircaseInsert checks the area each insertion adds and the members
// it evicts, including those it only ties with: a member left in place
// under a tie adds no area, so only the set shows it.
func TestStaircaseInsert(t *testing.T) {
	tests := []struct {
		name        string
		x, y        []float64
		members     []int
		r           int
		xlo, ylo    float64
		wantGain    float64
		wantRemoved []int
		wantSet     []int
	}{
		// Rank 1 ties rank 0 in x and is lower: the union grows from 2·1 to
		// 2·3.
		{"a tie in x after it", []float64{2, 2}, []float64{3, 1}, []int{1}, 0, 0, 0, 4, []int{1}, []int{0}},
		// Rank 0 is as high as rank 1 and left of it: the union grows from
		// 1·2 to 3·2.
		{"a member as high before it", []float64{1, 3}, []float64{2, 2}, []int{0}, 1, 0, 0, 4, []int{0}, []int{1}},
		// Rank 1 (3 by 4) sits between rank 0 (1 by 5), which stays, and
		// rank 2 (4 by 1), which stays too: it adds [1,3]×[1,4], 6.
		{"between two members it leaves", []float64{1, 3, 4}, []float64{5, 4, 1}, []int{0, 2}, 1, 0, 0, 6, nil, []int{0, 1, 2}},
		// Within the quadrant above (2, 2), rank 2 (5 by 5) evicts ranks 0
		// (1 by 4, outside the quadrant) and 1 (3 by 3): it adds [2,5]×[2,5]
		// less [2,3]×[2,3], 9 − 1 = 8.
		{"within a quadrant", []float64{1, 3, 5}, []float64{4, 3, 5}, []int{0, 1}, 2, 2, 2, 8, []int{1, 0}, []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := stairOf(tt.x, tt.y, tt.members...)
			gain, removed := s.insert(tt.r, tt.xlo, tt.ylo, nil)
			if gain != tt.wantGain {
				t.Errorf("gain = %v, want %v", gain, tt.wantGain)
			}
			if !slices.Equal(removed, tt.wantRemoved) {
				t.Errorf("removed %v, want %v", removed, tt.wantRemoved)
			}
			if got := membersOf(s); !slices.Equal(got, tt.wantSet) {
				t.Errorf("members %v, want %v", got, tt.wantSet)
			}
		})
	}
}
