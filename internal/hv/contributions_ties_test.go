package hv

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestContributions3TiesByHand holds both three-column paths to shares
// worked out exactly on rows that tie in a coordinate with a front row, a
// rectangle's side or its bottom, where keeping a row that adds no area
// would split a product into two that round apart. Maximized, reference
// (0, 0, 0); e is 2^-51, the ulp of numbers in [2, 4). Rows with equal x
// are ranked by the sweep in row order, and rows of equal height enter it
// right to left.
func TestContributions3TiesByHand(t *testing.T) {
	const e = 0x1p-51
	tests := []shares3Case{
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
		// In the next two the front row F = (4, 4−2e, 6) keeps 4×(4−2e)
		// less 4×(2+4e) over height 6: its area a = 4·(2−6e) = 8 − 24e is
		// exact, and so is 6a = 48 − 144e (ulps of 16e). The last row is
		// covered by a back row at x = 4, so no area changes at its height;
		// were F's volume settled there too, at z = 5+4e, it would be
		// a·(1−4e) = 8 − 56e + 96e², which rounds to 8 − 56e (ulps of 2e),
		// plus a·(5+4e) = 40 − 88e − 96e², which rounds to 40 − 96e (ulps
		// of 16e), and their sum 48 − 152e rounds to even at 48 − 160e.
		//
		// B = (4, 2+4e, 6), entering before F, lies on the front under F
		// with F's x, and F takes it off; C = (4, 1, 5+4e), ranked after F,
		// is covered by B. A tie in x with F must not put C on the front,
		// where it would settle F's volume at its height.
		{"a row on a front row's side, under a back row", []float64{4, 4 - 2*e, 6, 4, 2 + 4*e, 6, 4, 1, 5 + 4*e}, []float64{48 - 144*e, 0, 0}},
		// A = (4, 2+4e, 6) and C = (4, 1−2e, 6) enter the sweep first,
		// C ranked last: F takes both off the front, A as a tie in x.
		// Left on the front as a step of no width, C would be the row
		// ranked before D = (4, 2+4e, 5+4e), which would join the front
		// beside it, settling F at D's height, instead of being covered by
		// A.
		{"a tie in x left under the front", []float64{4, 2 + 4*e, 6, 4, 4 - 2*e, 6, 4, 1 - 2*e, 6, 4, 2 + 4*e, 5 + 4*e}, []float64{0, 48 - 144*e, 0, 0}},
		// A = (0.5, 5−4e, 3) and C = (5, 1, 3) enter first: A's rectangle
		// is 0.5 × (4−4e) above C, a = 2 − 2e, and its share 3a = 6 − 6e,
		// exact in ulps of 2e. B = (4, 1, 0.5), level with C and left of
		// it, is covered by C and goes to the back: C keeps its 5×1×3 less
		// A's 0.5×1×3 and B's 4×1×0.5 outside A, 15 − 1.5 − 1.75 = 11.75.
		// Were B put on the front as a step of no height, A would be
		// settled at B's height: a·2.5 = 5 − 5e rounds to even at 5 − 4e,
		// and with a·0.5 = 1 − e the sum 6 − 5e rounds to even at 6 − 4e.
		{"a row level with the front row that covers it", []float64{0.5, 5 - 4*e, 3, 4, 1, 0.5, 5, 1, 3}, []float64{6 - 6*e, 0, 11.75}},
		// A = (1, 1.5−e, 3) alone down to B = (1.5, 1, 1.5): 1.5·(1.5−e)
		// = 2.25 − 1.5e rounds to even at 2.25 − 2e. B raises A's bottom
		// to 1, leaving a = 0.5 − e. C = (2, 1, 1), level with B and right
		// of it, takes B off the front, and A, now C's left neighbour, is
		// settled at C's height: a·0.5 = 0.25 − 0.5e, and the sum 2.5 −
		// 2.5e rounds to even at 2.5 − 2e, the two roundings cancelling;
		// a·1 = 0.5 − e makes A's share 3 − 3e, exact (A's 4.5 − 3e less
		// B's 1×1×1.5). Left on the front as a step of no height, B would
		// keep A from being settled there: a·1.5 = 0.75 − 1.5e and 2.25 −
		// 2e make 3 − 3.5e, which rounds to even at 3 − 4e. B keeps 2.25
		// less 1.5 under A and 1.5 under C, which share 1: 0.25; C keeps
		// 2 less B's 1.5.
		{"a front row level with the new row right of it", []float64{1.5, 1, 1.5, 1, 1.5 - e, 3, 2, 1, 1}, []float64{0.25, 3 - 3*e, 0.5}},
		// H = (5, 5.5−4e, 1), then Q = (0.5, 3, 1) under it: H's box
		// 27.5 − 20e rounds to even at 27.5 − 16e (ulps of 8e), and less
		// Q's 1.5 leaves 26 − 16e, 4e above the true area; down to S =
		// (6.5, 3, 0.75) that is 6.5 − 4e. S, level with Q, raises H's
		// bottom to 3, past half the area, which is measured again: Q, at
		// the bottom, covers none of it, so it is one product, 5·(2.5−4e)
		// = 12.5 − 20e, exact. Down to 0, 9.375 − 15e rounds to 9.375 −
		// 16e (ulps of 4e), and the share 15.875 − 20e is exact, the two
		// roundings cancelling: H's 27.5 − 20e less 1.5 under Q and 11.25
		// under S, which share 1.125. Split at Q's x, the area would be
		// 1.25 − 2e and 11.25 − 18e, which rounds to even at 11.25 − 16e,
		// their sum 12.5 − 18e rounds to even at 12.5 − 16e, and the share
		// would come to 15.875 − 16e. S keeps 14.625 less H's 11.25.
		{"a back row at the bottom of a rectangle measured again", []float64{5, 5.5 - 4*e, 1, 0.5, 3, 1, 6.5, 3, 0.75}, []float64{15.875 - 20*e, 0, 3.375}},
		// H = (1.75, 8, 7.5), then Q = (1, 0.5+2e, 7.5) under it: H's
		// area 14 − (0.5+2e) rounds to even at 13.5, 47.25 down to 4.
		// There S = (7.25, 0.5+2e, 4) raises H's bottom to Q's height,
		// leaving 13.5 − (0.375+1.5e), which rounds to 13.125; Q stays on
		// the back, level with the bottom. R = (5.75, 3.75−e, 4) raises
		// it again, by d = 3.25 − 3e, a strip that Q splits: 0.75d =
		// 2.4375 − 2.25e rounds to 2.4375 − 2e and with 1d = 3.25 − 3e
		// the sum 5.6875 − 5e rounds to even at 5.6875 − 4e. H keeps
		// 7.4375 + 4e, 29.75 + 16e down to 0, and 77 + 16e rounds to even
		// at 77, exact: H's 105 less 28 under Q and R. Had Q left the back
		// when the bottom reached it, the strip would be one product,
		// 1.75d = 5.6875 − 5.25e, which rounds to 5.6875 − 6e, H would
		// keep 7.4375 + 6e, and its share would come to 77 + 32e. S keeps
		// its 1.5 × (0.5+2e) × 4 right of R, 3 + 12e; R keeps 86.25 − 23e
		// less H's 26.25 − 7e and S's 8 + 32e.
		{"a back row level with a bottom that rises again", []float64{1.75, 8, 7.5, 1, 0.5 + 2*e, 7.5, 7.25, 0.5 + 2*e, 4, 5.75, 3.75 - e, 4}, []float64{77, 0, 3 + 12*e, 52 - 48*e}},
	}
	checkShares3(t, tests)
}

// shares3Case is three-column rows, maximized from the origin, with their
// shares worked out by hand.
type shares3Case struct {
	name         string
	values, want []float64
}

// checkShares3 holds both three-column paths to each case's shares, bit
// for bit.
func checkShares3(t *testing.T, tests []shares3Case) {
	t.Helper()
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

// TestContributions3SweepHalfByHand holds the sweep over bit trees to
// shares worked out exactly on a strip that takes exactly half a front
// row's area, which the sweep takes off by a difference, exact there,
// rather than measuring the area again. Maximized, reference (0, 0, 0);
// e is 2^-51, the ulp of numbers in [2, 4).
//
// Q = (1, 2.5, 4) enters first, and H = (4, 2.875+3e, 3) pushes it off the
// front: H's area is 1·(0.375+3e) above Q plus 3·(2.875+3e) = 8.625 + 9e,
// which rounds to 8.625 + 8e (ulps of 4e), and their sum 9 + 11e rounds to
// 9 + 12e, the exact area. S = (5, 1.5+2e, 2) raises H's bottom to 1.5+2e:
// the strip right of Q is 3·(1.5+2e) = 4.5 + 6e, half the area, and the
// difference 4.5 + 6e is exact, so is H's share 9 + 12e + 2·(4.5+6e) =
// 18 + 24e: its 34.5 + 36e less 7.5 under Q and 12 + 16e under S, which
// share 3 + 4e. Measured again, the area would be 0.375 + 3e above Q plus
// 3·(1.375+e) = 4.125 + 3e, which rounds to even at 4.125 + 4e, and their
// sum 4.5 + 7e rounds to even at 4.5 + 8e: the share would come to 18 +
// 28e, which rounds to even at 18 + 32e. contributions3Small measures every
// area that changes again and comes to that here, so the case holds the
// sweep alone. Q keeps 2.5 above H, S its 1 × (1.5+2e) × 2 right of H.
func TestContributions3SweepHalfByHand(t *testing.T) {
	const e = 0x1p-51
	useContributions3Path(t, 0)
	values := []float64{4, 2.875 + 3*e, 3, 1, 2.5, 4, 5, 1.5 + 2*e, 2}
	want := []float64{18 + 24*e, 2.5, 3 + 4*e}
	got := sharesOf(values, 3, []bool{true, true, true}, []float64{0, 0, 0})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("shares (-want +got):\n%s", diff)
	}
}
