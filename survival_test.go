package spica

import (
	"errors"
	"math"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/spica-search/spica/internal/testkit"
)

func TestSelectNByHand(t *testing.T) {
	// Minimized: layer 0 is rows 0..3, (1,5) (2,3) (3,2) (5,1); layer 1 is
	// (2,4) and (3,3); (4,4) is dominated by (2,4) too, layer 2. Within
	// layer 0 both columns span 4: rows 0 and 3 are ends (+Inf); row 1 gets
	// (3−1)/4 + (5−2)/4 = 1.25 and row 2 gets (5−2)/4 + (3−1)/4 = 1.25, a tie
	// that goes to row 1. Layer 1 has two rows, both +Inf: row 4 first.
	values := []float64{1, 5, 2, 3, 3, 2, 5, 1, 2, 4, 4, 4, 3, 3}
	tests := []struct {
		k    int
		want []int
	}{
		{0, []int{}},
		{2, []int{0, 3}},
		{3, []int{0, 1, 3}},
		{4, []int{0, 1, 2, 3}},
		{5, []int{0, 1, 2, 3, 4}},
		{6, []int{0, 1, 2, 3, 4, 6}},
		{7, []int{0, 1, 2, 3, 4, 5, 6}},
		{100, []int{0, 1, 2, 3, 4, 5, 6}},
	}
	for _, tt := range tests {
		got, err := SelectN(values, 2, []bool{false, false}, tt.k)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("k=%d (-want +got):\n%s", tt.k, diff)
		}
	}
}

func TestSelectNRejectsBadInput(t *testing.T) {
	tests := []struct {
		name     string
		values   []float64
		maximize []bool
		k        int
		path     string
	}{
		{"negative k", []float64{1, 2}, []bool{false, false}, -1, "k"},
		{"ragged matrix", []float64{1, 2, 3}, []bool{false, false}, 1, "values"},
		{"directions of the wrong length", []float64{1, 2}, []bool{false}, 1, "maximize"},
	}
	for _, tt := range tests {
		_, err := SelectN(tt.values, 2, tt.maximize, tt.k)
		var e *Error
		if !errors.Is(err, ErrInvalidMatrix) || !errors.As(err, &e) || e.Path != tt.path {
			t.Errorf("%s: err = %v, want ErrInvalidMatrix at Path %q", tt.name, err, tt.path)
		}
	}
}

// bruteLayers peels brute-force fronts off the matrix.
func bruteLayers(values []float64, dims int, maximize []bool) [][]int {
	n := len(values) / dims
	left := make([]int, n)
	for i := range left {
		left[i] = i
	}
	var layers [][]int
	for len(left) > 0 {
		var sub []float64
		for _, i := range left {
			sub = append(sub, values[i*dims:(i+1)*dims]...)
		}
		var layer, rest []int
		front := testkit.Front(sub, dims, maximize)
		for p, i := range left {
			if slices.Contains(front, p) {
				layer = append(layer, i)
			} else {
				rest = append(rest, i)
			}
		}
		layers = append(layers, layer)
		left = rest
	}
	return layers
}

// TestSelectNMatchesOracle checks SelectN against NSGA-II survival spelled
// out: brute-force layers, whole while they fit, then the largest crowding
// distances of the next layer by a stable sort.
func TestSelectNMatchesOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dims := rapid.IntRange(1, 4).Draw(t, "dims")
		n := rapid.IntRange(0, 25).Draw(t, "n")
		maximize := rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
		pool := []float64{0, 1, 2, 3, 4, 0.5, math.NaN(), math.Inf(1), math.Inf(-1)}
		values := make([]float64, n*dims)
		for i := range values {
			values[i] = rapid.SampledFrom(pool).Draw(t, "v")
		}
		k := rapid.IntRange(0, n+2).Draw(t, "k")
		before := slices.Clone(values)
		got, err := SelectN(values, dims, maximize, k)
		if err != nil {
			t.Fatal(err)
		}
		if !testkit.SameBits(values, before) {
			t.Fatal("values modified")
		}
		want := []int{}
		for _, layer := range bruteLayers(values, dims, maximize) {
			if len(want)+len(layer) <= k {
				want = append(want, layer...)
				continue
			}
			var sub []float64
			for _, i := range layer {
				sub = append(sub, values[i*dims:(i+1)*dims]...)
			}
			dist, err := CrowdingDistance(sub, dims)
			if err != nil {
				t.Fatal(err)
			}
			byDist := slices.Clone(layer)
			pos := map[int]int{}
			for p, i := range layer {
				pos[i] = p
			}
			sort.SliceStable(byDist, func(a, b int) bool { return dist[pos[byDist[a]]] > dist[pos[byDist[b]]] })
			want = append(want, byDist[:k-len(want)]...)
			break
		}
		slices.Sort(want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("SelectN(k=%d) (-want +got):\n%s", k, diff)
		}
	})
}

// BenchmarkSelectN keeps half of 1e5 uniform rows of three columns, where
// the cut layer is a large one, beside the NonDominatedSort it builds on.
func BenchmarkSelectN(b *testing.B) {
	values := testkit.Matrix("uniform", 1e5, 3)
	maximize := make([]bool, 3)
	b.Run("f=SelectN", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := SelectN(values, 3, maximize, 5e4); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("f=NonDominatedSort", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := NonDominatedSort(values, 3, maximize); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestSelectNAllocationsSkipCrowdingOnWholeLayers checks that when whole
// layers fill k exactly (k = 4: layer 0 of TestSelectNByHand's matrix; k
// = 6: layers 0 and 1), SelectN computes no crowding distance: it
// allocates less than for k = 3 and 5, which cut a layer. Taking the
// filling layer as a cut one would give the same rows, so only the work
// can tell.
func TestSelectNAllocationsSkipCrowdingOnWholeLayers(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops what it is given at random; .ci/run runs this without -race")
	}
	values := []float64{1, 5, 2, 3, 3, 2, 5, 1, 2, 4, 4, 4, 3, 3}
	allocs := func(k int) float64 {
		return testing.AllocsPerRun(20, func() { _, _ = SelectN(values, 2, []bool{false, false}, k) })
	}
	for _, whole := range []int{4, 6} {
		if a, cut := allocs(whole), allocs(whole-1); !(a < cut) {
			t.Errorf("k=%d allocates %v times, k=%d (a cut layer) %v: want fewer", whole, a, whole-1, cut)
		}
	}
}
