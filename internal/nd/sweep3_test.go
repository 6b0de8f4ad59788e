package nd

import "testing"

// TestByFront3Small: front3 takes up to small3 rows to front3Small.
func TestByFront3Small(t *testing.T) {
	for _, c := range []struct {
		small3, m int
		want      bool
	}{{256, 256, true}, {256, 257, false}, {256, 0, true}, {0, 1, false}} {
		if got := (ndTuning{small3: c.small3}).byFront3Small(c.m); got != c.want {
			t.Errorf("small3 %d: byFront3Small(%d) = %v, want %v", c.small3, c.m, got, c.want)
		}
	}
}
