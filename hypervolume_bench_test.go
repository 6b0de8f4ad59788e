package spica

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// lineFront draws n minimized points on x+y = 1 in (0,1)², all on the front
// of the reference point (1,1).
func lineFront(rng *rand.Rand, n int) []float64 {
	values := make([]float64, 0, 2*n)
	for range n {
		x := rng.Float64()
		values = append(values, x, 1-x)
	}
	return values
}

// benchFronts runs f on every front, nesting the sub-benchmarks by shape,
// dims and size so that a -bench pattern can select each level, as in
// -bench 'Hypervolume$/shape=line/d=2/n=1e6'. Minimized fronts of mutually
// non-dominated rows, generated before the timer, with reference 1 in every
// column.
func benchFronts(b *testing.B, shapes map[string]map[int][]int, f func(b *testing.B, values []float64, dims int, maximize []bool, ref []float64)) {
	for _, shape := range []string{"line", "sphere"} {
		b.Run("shape="+shape, func(b *testing.B) {
			for _, dims := range []int{2, 3, 4} {
				sizes := shapes[shape][dims]
				if len(sizes) == 0 {
					continue
				}
				b.Run(fmt.Sprintf("d=%d", dims), func(b *testing.B) {
					for _, n := range sizes {
						rng := rand.New(rand.NewPCG(42, uint64(n*10+dims)))
						var values []float64
						if shape == "line" {
							values = lineFront(rng, n)
						} else {
							values = sphereFront(rng, n, dims)
						}
						maximize, ref := make([]bool, dims), slices.Repeat([]float64{1}, dims)
						b.Run(fmt.Sprintf("n=1e%d", int(math.Round(math.Log10(float64(n))))), func(b *testing.B) {
							b.ReportAllocs()
							f(b, values, dims, maximize, ref)
						})
					}
				})
			}
		})
	}
}

func BenchmarkHypervolume(b *testing.B) {
	shapes := map[string]map[int][]int{
		"line":   {2: {1e3, 1e5, 1e6}},
		"sphere": {3: {1e3, 1e4, 1e5}, 4: {1e3, 1e4}},
	}
	benchFronts(b, shapes, func(b *testing.B, values []float64, dims int, maximize []bool, ref []float64) {
		for b.Loop() {
			if _, err := Hypervolume(values, dims, maximize, ref); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkHypervolumeContributions(b *testing.B) {
	shapes := map[string]map[int][]int{
		"line":   {2: {1e5}},
		"sphere": {3: {1e4, 1e5}, 4: {1e3}},
	}
	benchFronts(b, shapes, func(b *testing.B, values []float64, dims int, maximize []bool, ref []float64) {
		for b.Loop() {
			if _, err := HypervolumeContributions(values, dims, maximize, ref); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSortFloat64HV is the baseline the hypervolume targets are stated
// against: slices.Sort of a fresh copy of n random float64.
func BenchmarkSortFloat64HV(b *testing.B) {
	for _, n := range []int{1e5, 1e6} {
		rng := rand.New(rand.NewPCG(42, uint64(n)))
		src := make([]float64, n)
		for i := range src {
			src[i] = rng.Float64()
		}
		work := make([]float64, n)
		b.Run(fmt.Sprintf("n=1e%d", int(math.Log10(float64(n)))), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				copy(work, src)
				slices.Sort(work)
			}
		})
	}
}
