package hv

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
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

// TestHV3SmallStaircase checks the last staircase as well as the volume: a
// step that another covers, on a tie in x or y, adds no area, so only the
// steps show whether it was left in.
func TestHV3SmallStaircase(t *testing.T) {
	tests := []struct {
		name  string
		pts   []float64 // extents x, y, z
		want  float64
		stair []hv3Step
	}{
		// The second row ties the first in x and is lower: covered.
		{"covered on a tie in x", []float64{2, 3, 2, 2, 1, 1}, 12, []hv3Step{{2, 3}}},
		// The second row is as high as the first and left of it: covered.
		{"covered by a step as high", []float64{3, 2, 2, 1, 2, 1}, 12, []hv3Step{{3, 2}}},
		// The second row is as high as the first and right of it: it
		// replaces it. 1·2·2 + 3·2·1 less their overlap 1·2·1 is 8.
		{"covering a step as high", []float64{1, 2, 2, 3, 2, 1}, 8, []hv3Step{{3, 2}}},
		// The second row is higher than the first on a tie in x: it
		// replaces it. 2·1·2 + 2·3·1 less 2·1·1 is 8.
		{"covering a step on a tie in x", []float64{2, 1, 2, 2, 3, 1}, 8, []hv3Step{{2, 3}}},
		// Three rows leaving three steps: 1·3·3 + 2·2·2 + 3·1·1, less the
		// overlaps 1·2·2 + 2·1·1 + 1·1·1, plus 1·1·1 where all three
		// meet: 20 − 7 + 1 = 14.
		{"three steps", []float64{1, 3, 3, 2, 2, 2, 3, 1, 1}, 14, []hv3Step{{1, 3}, {2, 2}, {3, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := new(hv3SmallScratch)
			if got := sc.volume(tt.pts); got != tt.want {
				t.Errorf("volume = %v, want %v", got, tt.want)
			}
			if !slices.Equal(sc.stair, tt.stair) {
				t.Errorf("staircase %v, want %v", sc.stair, tt.stair)
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

// TestByHV3Small: hv3Small takes up to hv3SmallMax rows of three values.
func TestByHV3Small(t *testing.T) {
	for _, c := range []struct {
		values int
		want   bool
	}{{3, true}, {3 * hv3SmallMax, true}, {3*hv3SmallMax + 3, false}} {
		if got := byHV3Small(c.values); got != c.want {
			t.Errorf("byHV3Small(%d) = %v, want %v", c.values, got, c.want)
		}
	}
}
