package nd

import (
	"fmt"
	"slices"
	"testing"
)

// TestCoveredIn checks coveredIn on every width it unrolls (2 to 5) and on
// the general loop (1 and 6): x = 1 in every column against rows equal to
// it, better in every column, and worse by one in a single column.
func TestCoveredIn(t *testing.T) {
	for w := 1; w <= 6; w++ {
		x := make([]int32, w)
		for c := range x {
			x[c] = 1
		}
		equal := slices.Clone(x)
		better := make([]int32, w) // 0 < 1 in every column
		worse := func(c int) []int32 {
			y := slices.Clone(x)
			y[c] = 2 // 1 − 2 < 0: y is worse than x in column c
			return y
		}
		t.Run(fmt.Sprintf("width %d", w), func(t *testing.T) {
			tests := []struct {
				name string
				blk  []int32
				want bool
			}{
				{"no rows cover nothing", nil, false},
				{"an equal row covers", equal, true},
				{"a better row covers", better, true},
			}
			for c := range w {
				tests = append(tests,
					struct {
						name string
						blk  []int32
						want bool
					}{fmt.Sprintf("a row worse in column %d does not cover", c), worse(c), false},
					struct {
						name string
						blk  []int32
						want bool
					}{fmt.Sprintf("an equal row after one worse in column %d covers", c), slices.Concat(worse(c), equal), true})
			}
			for _, tt := range tests {
				if got := coveredIn(tt.blk, x); got != tt.want {
					t.Errorf("%s: coveredIn(%v, %v) = %v, want %v", tt.name, tt.blk, x, got, tt.want)
				}
			}
		})
	}
}
