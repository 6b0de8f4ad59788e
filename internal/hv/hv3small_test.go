package hv

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

func TestHV3SmallByHand(t *testing.T) {
	tests := []struct {
		name string
		pts  []float64 // extents
		want float64
	}{
		{"one row is its box", []float64{1, 2, 3}, 6},
		// 3·1·1 + 1·3·1 − 1 (the unit cube both hold).
		{"two rows overlap in a unit cube", []float64{3, 1, 1, 1, 3, 1}, 5},
		// The third row, 2·2·2, holds the unit cube of the first two's
		// overlap and one more unit of each: 5 + 8 − 3.
		{"a row covering parts of two others", []float64{3, 1, 1, 1, 3, 1, 2, 2, 2}, 10},
		{"a row inside another adds nothing", []float64{2, 2, 2, 1, 1, 1}, 8},
		{"a tie in x replaces the lower step", []float64{2, 1, 1, 2, 3, 1}, 6},
		{"no rows", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hv3Small(tt.pts); got != tt.want {
				t.Errorf("hv3Small = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestHV3SmallMatchesGridOracle draws extents from a handful of values, so
// ties in every column and duplicates are common.
func TestHV3SmallMatchesGridOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 12).Draw(t, "n")
		pts := make([]float64, 3*n)
		for i := range pts {
			pts[i] = rapid.SampledFrom([]float64{0.5, 1, 2, 3, 4}).Draw(t, "e")
		}
		want := oracleOfExtents(pts, 3)
		if got := hv3Small(pts); !approxEqual(got, want) {
			t.Fatalf("hv3Small = %v, oracle %v", got, want)
		}
	})
}

// TestHV3SmallMatchesHV3 compares the two sweeps on larger random and
// gridded sets, and Hypervolume with the threshold forcing each.
func TestHV3SmallMatchesHV3(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 400).Draw(t, "n")
		grid := rapid.Bool().Draw(t, "grid")
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 3))
		pts := make([]float64, 3*n)
		for i := range pts {
			if grid {
				pts[i] = float64(1 + rng.IntN(5))
			} else {
				pts[i] = 1 - rng.Float64()
			}
		}
		want, got := hv3(pts), hv3Small(pts)
		if math.Abs(got-want) > 1e-12*max(1, want) {
			t.Fatalf("hv3Small = %v, hv3 %v", got, want)
		}
	})
}

func TestHypervolumeThreeColumnPaths(t *testing.T) {
	for _, limit := range []int{0, 1 << 30} {
		t.Run(fmt.Sprintf("hv3SmallMax=%d", limit), func(t *testing.T) {
			useHV3Path(t, limit)
			rapid.Check(t, func(t *rapid.T) {
				values, dims, maximize, ref := hvInput(t, 3, 8, false)
				want := oracleHV(values, dims, maximize, ref)
				if got := volumeOf(values, dims, maximize, ref); !approxEqual(got, want) {
					t.Fatalf("Hypervolume = %v; oracle %v", got, want)
				}
			})
		})
	}
}
