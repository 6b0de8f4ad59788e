package spica

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// uniformMatrix is n rows of dims values uniform in [0, 1), the same for
// every run so that timings compare across runs and commits.
func uniformMatrix(n, dims int) []float64 {
	r := rand.New(rand.NewPCG(1, uint64(n*dims)))
	values := make([]float64, n*dims)
	for i := range values {
		values[i] = r.Float64()
	}
	return values
}

var benchSizes = []struct {
	name string
	n    int
}{{"1e3", 1e3}, {"1e4", 1e4}, {"1e5", 1e5}}

func BenchmarkNonDominatedSort(b *testing.B) {
	for _, dims := range []int{2, 3} {
		maximize := make([]bool, dims)
		for _, size := range benchSizes {
			values := uniformMatrix(size.n, dims)
			b.Run(fmt.Sprintf("shape=uniform/d=%d/n=%s", dims, size.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := NonDominatedSort(values, dims, maximize); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkCrowdingDistance(b *testing.B) {
	const dims = 2
	for _, size := range benchSizes[1:] {
		values := uniformMatrix(size.n, dims)
		b.Run(fmt.Sprintf("n=%s/d=%d", size.name, dims), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := CrowdingDistance(values, dims); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
