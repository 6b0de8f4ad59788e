package nd

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPreFilterGrowsItsBuffers builds the input that makes the pre-filter
// grow its survivor buffers twice (to an eighth of n, then to n): the first
// 30,000 rows are dominated by row 0, so few survive the probe and the
// filter stays on, and the last 10,000 lie on the plane x+y+z = 1, none
// dominating another, all dominating row 0. The front is exactly the
// plane's rows.
func TestPreFilterGrowsItsBuffers(t *testing.T) {
	const junk, plane = 30000, 10000
	rng := rand.New(rand.NewPCG(3, 4))
	values := make([]float64, 0, 3*(junk+plane))
	values = append(values, 5, 5, 5)
	for range junk - 1 {
		values = append(values, 5+rng.Float64(), 5+rng.Float64(), 5+rng.Float64())
	}
	want := make([]int, plane)
	for i := range plane {
		want[i] = junk + i
		// On the plane, a row with a smaller x has a larger y + z, so it
		// is worse in y or z: no row dominates another (the gaps in x,
		// 1e-4, dwarf the rounding of z).
		x := float64(i+1) / (plane + 1)
		y := (1 - x) * rng.Float64()
		values = append(values, x, y, 1-x-y)
	}
	got := frontOf(values, 3, []bool{false, false, false})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("front (-want +got):\n%s", diff)
	}
	// The two-column engine has its own copy of the loop: the first two
	// columns of the plane rows with x rising and y falling.
	two := make([]float64, 0, 2*(junk+plane))
	two = append(two, 5, 5)
	for range junk - 1 {
		two = append(two, 5+rng.Float64(), 5+rng.Float64())
	}
	for i := range plane {
		x := float64(i+1) / (plane + 1)
		two = append(two, x, 1-x)
	}
	got = frontOf(two, 2, []bool{false, false})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("two-column front (-want +got):\n%s", diff)
	}
	if got := growCap(4096, junk+plane); got != (junk+plane)/8 {
		t.Errorf("growCap(4096, %d) = %d, want an eighth", junk+plane, got)
	}
	if got := growCap((junk+plane)/8, junk+plane); got != junk+plane {
		t.Errorf("growCap(n/8, n) = %d, want n", got)
	}
}
