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

type hvBench struct {
	shape   string
	dims, n int
}

// run nests the sub-benchmarks by shape, dims and size, so that a -bench
// pattern can select each level, as in
// -bench 'Hypervolume$/shape=line/d=2/n=1e6'.
func (c hvBench) run(b *testing.B, f func(b *testing.B, values []float64, maximize []bool, ref []float64)) {
	values, maximize, ref := c.data()
	b.Run("shape="+c.shape, func(b *testing.B) {
		b.Run(fmt.Sprintf("d=%d", c.dims), func(b *testing.B) {
			b.Run(fmt.Sprintf("n=1e%d", int(math.Round(math.Log10(float64(c.n))))), func(b *testing.B) {
				b.ReportAllocs()
				f(b, values, maximize, ref)
			})
		})
	})
}

func (c hvBench) data() ([]float64, []bool, []float64) {
	rng := rand.New(rand.NewPCG(42, uint64(c.n*10+c.dims)))
	var values []float64
	if c.shape == "line" {
		values = lineFront(rng, c.n)
	} else {
		values = sphereFront(rng, c.n, c.dims)
	}
	return values, make([]bool, c.dims), slices.Repeat([]float64{1}, c.dims)
}

func BenchmarkHypervolume(b *testing.B) {
	for _, c := range []hvBench{
		{"line", 2, 1e3}, {"line", 2, 1e5}, {"line", 2, 1e6},
		{"sphere", 3, 1e3}, {"sphere", 3, 1e4}, {"sphere", 3, 1e5},
		{"sphere", 4, 1e3}, {"sphere", 4, 1e4},
	} {
		c.run(b, func(b *testing.B, values []float64, maximize []bool, ref []float64) {
			for b.Loop() {
				if _, err := Hypervolume(values, c.dims, maximize, ref); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkHypervolumeContributions(b *testing.B) {
	for _, c := range []hvBench{
		{"line", 2, 1e5}, {"sphere", 3, 1e4}, {"sphere", 3, 1e5}, {"sphere", 4, 1e3},
	} {
		c.run(b, func(b *testing.B, values []float64, maximize []bool, ref []float64) {
			for b.Loop() {
				if _, err := HypervolumeContributions(values, c.dims, maximize, ref); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
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
