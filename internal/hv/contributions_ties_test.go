package hv

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestContributions3TiesByHand holds both three-column paths to shares
// worked out exactly on rows that tie in a coordinate with a front row, a
// rectangle's side or its bottom, where keeping a row that adds no area
// would split a product into two that round apart. Maximized, reference
// (0, 0, 0); e is 2^-51, the ulp of numbers in [2, 4).
func TestContributions3TiesByHand(t *testing.T) {
	const e = 0x1p-51
	tests := []struct {
		name   string
		values []float64
		want   []float64
	}{
		// L = (3, 3+e, 1), Q = (0.5, 2, 1) and R = (4, 2, 1) at one height
		// (the slices take them in row order). R raises L's bottom to 2,
		// Q's height: Q leaves L's rectangle, whose area is one product,
		// 3·(1+e) = 3 + 3e, exact. Kept, Q would split it into 0.5·(1+e)
		// = 0.5 + e/2 and 2.5·(1+e) = 2.5 + 2.5e, which rounds to even at
		// 2.5 + 2e; their sum 3 + 2.5e rounds to even at 3 + 2e. R keeps 8
		// less the 3×2×1 under L: 2. Q is inside L.
		{"a back row at the height of the new bottom", []float64{3, 3 + e, 1, 0.5, 2, 1, 4, 2, 1}, []float64{3 + 3*e, 0, 2}},
		// L = (1, 2, 3), then R = (2, 2, 2) at L's height: L leaves the
		// front, into R's rectangle, and keeps 1×2×1 above R. R keeps its
		// 2×2 less L's 1×2 down to T = (6, 3+2e, 1), which covers both and
		// measures 4×(3+2e) right of R, 12+8e, and 2×(1+2e) above R and L,
		// one product: 14 + 12e, exact in ulps of 4e. With L left on the
		// front as a step of no height, T would measure the strip above
		// them as 1×(1+2e) twice: 12+8e + 1+2e = 13+10e rounds to even at
		// 13+8e, and again 14+10e to 14+8e.
		{"a front row at the height of the row that takes it", []float64{1, 2, 3, 2, 2, 2, 6, 3 + 2*e, 1}, []float64{2, 2, 14 + 12*e}},
	}
	for _, p := range contributions3Paths {
		for _, tt := range tests {
			t.Run(p.name+"/"+tt.name, func(t *testing.T) {
				useContributions3Path(t, p.limit)
				got := sharesOf(tt.values, 3, []bool{true, true, true}, []float64{0, 0, 0})
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("shares (-want +got):\n%s", diff)
				}
			})
		}
	}
}
