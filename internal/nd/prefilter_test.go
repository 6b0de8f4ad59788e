package nd

import (
	"math"
	"math/rand/v2"
	"slices"
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

// TestWeightedKnees: weighted knees join from four columns on.
func TestWeightedKnees(t *testing.T) {
	for dims, want := range map[int]int{1: 0, 2: 0, 3: 0, 4: 32, 5: 32, 6: 32} {
		if got := weightedKnees(dims); got != want {
			t.Errorf("weightedKnees(%d) = %d, want %d", dims, got, want)
		}
	}
}

// TestNewPivotSetNormalizes: the range of each column comes from the first
// quarter of the pool (at least 256 rows, at most 1024), flipped columns
// negated and infinities left out; every piece of the pivot set has its own
// memory, of its own length, with a scratch or without.
func TestNewPivotSetNormalizes(t *testing.T) {
	// 2000 rows: the sample is the first 500. Column 0 is 0.5 but for 0 at
	// row 1, 1 at row 2, −1 at row 300 (in the sample, past row 256) and 3
	// at row 600 (past the sample): lo −1, scale 1/(1 − −1) = 1/2. Column 1
	// is maximized: 0 but for 2 at row 5, −2 at row 6 and +Inf at row 7,
	// negated: lo −2, scale 1/(2 − −2) = 1/4.
	const n = 2000
	values := make([]float64, 2*n)
	for r := range n {
		values[2*r] = 0.5
	}
	values[2*1], values[2*2], values[2*300], values[2*600] = 0, 1, -1, 3
	values[2*5+1], values[2*6+1], values[2*7+1] = 2, -2, math.Inf(1)
	flip := []uint64{0, 1}
	for _, sc := range []*marksScratch{nil, new(marksScratch)} {
		p := newPivotSet(values, n, 2, flip, sc)
		if !slices.Equal(p.lo, []float64{-1, -2}) || !slices.Equal(p.scale, []float64{0.5, 0.25}) {
			t.Errorf("lo %v, scale %v; want [-1 -2], [0.5 0.25]", p.lo, p.scale)
		}
		// Row 0 (0.5, −0) is the first knee: (0.5 − −1)/2 + (0 − −2)/4 = 1.25.
		if p.kneeScore != 1.25 || !slices.Equal(p.norm, []float64{0.75, 0.5}) {
			t.Errorf("knee score %v, norm %v; want 1.25, [0.75 0.5]", p.kneeScore, p.norm)
		}
	}
	for dims := 1; dims <= 6; dims++ {
		values := make([]float64, 300*dims)
		wk := weightedKnees(dims)
		for _, sc := range []*marksScratch{nil, new(marksScratch)} {
			p := newPivotSet(values, 300, dims, make([]uint64, dims), sc)
			pieces := [][]float64{p.lo, p.scale, p.norm, p.weights, p.scores}
			for i, want := range []int{dims, dims, dims, wk * dims, wk} {
				if len(pieces[i]) != want {
					t.Errorf("dims %d: piece %d of %d values, want %d", dims, i, len(pieces[i]), want)
				}
			}
			if len(p.keys) != (dims+1+wk)*dims || len(p.flip) != dims || len(p.scores) != wk {
				t.Errorf("dims %d: %d keys, %d flips", dims, len(p.keys), len(p.flip))
			}
			// Each piece ends where the next begins, so none overlaps.
			for i := 1; i < len(pieces); i++ {
				prev := pieces[i-1]
				if cap(prev) != len(prev)+cap(pieces[i]) {
					t.Errorf("dims %d: piece %d overlaps piece %d or leaves a gap", dims, i-1, i)
				}
			}
			if cap(p.keys) != len(p.keys)+len(p.flip) {
				t.Errorf("dims %d: keys and flip overlap", dims)
			}
		}
	}
}
