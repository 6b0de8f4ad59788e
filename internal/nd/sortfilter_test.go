package nd

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/spica-search/spica/internal/testkit"
)

// TestSortFilterMatchesOracle forces frontSortFilter, with no sample to
// stand it down, on up to 40 rows of four to seven columns drawn from a
// pool of ties, copies, NaN, infinities and signed zeros, in every mix of
// directions: whenever it answers (it gives up past n/2 window rows) the
// answer is the pairwise oracle's.
func TestSortFilterMatchesOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dims := rapid.IntRange(4, 7).Draw(t, "dims")
		n := rapid.IntRange(1, 40).Draw(t, "n")
		maximize := rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
		pool := rapid.SampledFrom([]float64{0, 1, 2, 3, math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)})
		values := make([]float64, n*dims)
		for i := range values {
			values[i] = pool.Draw(t, "v")
		}
		before := slices.Clone(values)
		got := frontSortFilter(values, n, dims, KeyFlips(maximize), 0)
		if got == nil {
			return
		}
		if want := testkit.Front(values, dims, maximize); !slices.Equal(got, want) {
			t.Fatalf("frontSortFilter = %v, oracle %v", got, want)
		}
		if !testkit.SameBits(values, before) {
			t.Fatalf("values was modified")
		}
	})
}

// TestSortFilterByHand pins what the order alone would get wrong, and when
// the filter gives up.
func TestSortFilterByHand(t *testing.T) {
	nan := math.NaN()
	minimize := []bool{false, false, false, false}
	tests := []struct {
		name   string
		values []float64
		want   []int // nil: the filter gives up
	}{
		// Row 1 dominates row 0 (NaN is worse than any number): the NaN
		// leaves column 0 out of the score, so both score 0, and the
		// dominator, second in the sort of ties, removes row 0.
		{"a NaN row is dominated", []float64{nan, 0, 0, 0, 0, 0, 0, 0}, []int{1}},
		// Row 0 dominates row 1 with -Inf: column 0 is left out again and
		// both score 0, so an infinity must not score above a number.
		{"an infinite row dominates", []float64{math.Inf(-1), 0, 0, 0, 0, 0, 0, 0}, []int{0}},
		{"the same the other way round", []float64{0, 0, 0, 0, math.Inf(-1), 0, 0, 0}, []int{1}},
		// The last column holds +Inf, so its range is infinite and it is
		// left out of the score: rows 0 and 1 both score 0 (the first
		// three columns range over [0, 1]), row 2 scores 3. The sort of so
		// few records keeps ties in row order, so row 0 enters the window
		// first, and row 1, which dominates it in the last column, removes
		// it.
		{"a later row of equal score removes its dominated", []float64{
			0, 0, 0, 5,
			0, 0, 0, 4,
			1, 1, 1, math.Inf(1),
		}, []int{1}},
		// Four rows all on the front: the window passes n/2 = 2 rows.
		{"a front of every row gives up", []float64{
			0, 1, 1, 1,
			1, 0, 1, 1,
			1, 1, 0, 1,
			1, 1, 1, 0,
		}, nil},
		// Three of four rows on the front: the third joins a window of
		// n/2 = 2 rows, which is not past n/2.
		{"a front of n/2 + 1 rows does not give up", []float64{
			0, 1, 1, 1,
			1, 0, 1, 1,
			1, 1, 0, 1,
			2, 2, 2, 2,
		}, []int{0, 1, 2}},
		// Row 0 dominates the three others: the window never holds more
		// than one row.
		{"a small front does not give up", []float64{
			0, 0, 0, 0,
			0, 1, 1, 1,
			1, 0, 1, 1,
			1, 1, 0, 1,
		}, []int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := frontSortFilter(tt.values, len(tt.values)/4, 4, KeyFlips(minimize), 0)
			if !slices.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
				t.Fatalf("frontSortFilter = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestFrontHeavy pins the sample's verdict at its threshold: three
// quarters or more of the sample on the sample's front.
func TestFrontHeavy(t *testing.T) {
	flip := KeyFlips([]bool{false, false, false, false})
	tests := []struct {
		name   string
		values []float64
		sample int
		want   bool
	}{
		{"all four on the front", []float64{0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0}, 4, true},
		{"three of four", []float64{0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1}, 4, true},
		{"two of four", []float64{0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 4, false},
		{"copies do not dominate each other", []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 4, true},
		// Rows 0 and 2 of four: row 0 dominates row 2, so one of two.
		{"every other row", []float64{0, 0, 0, 0, 9, 9, 9, 9, 1, 1, 1, 1, 0, 1, 0, 1}, 2, false},
		{"a sample larger than the matrix", []float64{0, 1, 1, 1}, 4, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := frontHeavy(tt.values, len(tt.values)/4, 4, flip, tt.sample, new(filterScratch)); got != tt.want {
				t.Fatalf("frontHeavy = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestWindowDominates checks every width WindowDominates has a loop for
// (written out for four to six columns, the general loop for the rest) on
// windows of three rows: p = (5, …, 5) is dominated by a row of 4s in any
// of the three places, the last one included; not by a row equal to it,
// by rows that are better in all but one column, or by an empty window;
// and by a row that is equal but for one column.
func TestWindowDominates(t *testing.T) {
	row := func(d int, v uint64, at int, w uint64) []uint64 {
		r := slices.Repeat([]uint64{v}, d)
		if at >= 0 {
			r[at] = w
		}
		return r
	}
	for _, d := range []int{1, 2, 3, 4, 5, 6, 7} {
		p := row(d, 5, -1, 0)
		worse := row(d, 4, d-1, 6) // better but in its last column
		for place := range 3 {
			window := slices.Concat(worse, worse, worse)
			copy(window[place*d:], row(d, 4, -1, 0))
			if !WindowDominates(window, p) {
				t.Errorf("d=%d: a dominating row at place %d of %v not found for %v", d, place, window, p)
			}
			copy(window[place*d:], row(d, 5, 0, 4)) // equal but for column 0
			if !WindowDominates(window, p) {
				t.Errorf("d=%d: a row equal but for one better column at place %d of %v not found for %v", d, place, window, p)
			}
			copy(window[place*d:], p)
			if WindowDominates(window, p) {
				t.Errorf("d=%d: %v dominates %v, want an equal row and rows worse in a column not to", d, window, p)
			}
		}
		if WindowDominates(nil, p) {
			t.Errorf("d=%d: an empty window dominates", d)
		}
		for c := range d {
			if WindowDominates(row(d, 4, c, 6), p) {
				t.Errorf("d=%d: a row worse in column %d dominates", d, c)
			}
		}
	}
}

// TestSortFilterScores: a row's score sums its values signed so that
// smaller is better, each scaled to [0, 1] over its column's range; a
// column with an infinity, a NaN or one value is left out. Worked by hand.
func TestSortFilterScores(t *testing.T) {
	// Column 0 ranges over [0, 4] (scale 1/4); column 1 is maximized,
	// −10, −30, −20 over [−30, −10] (scale 1/20); column 2 holds +Inf,
	// column 3 a NaN, column 4 only 7. Row 0: 0 + 20/20 = 1; row 1:
	// 2/4 + 0 = 0.5; row 2: 4/4 + 10/20 = 1.5.
	values := []float64{
		0, 10, 1, 1, 7,
		2, 30, math.Inf(1), math.NaN(), 7,
		4, 20, 3, 2, 7,
	}
	flip := []uint64{0, 1, 0, 0, 0}
	keys, recs := make([]uint64, 15), make([]Rec, 3)
	sortFilterScores(values, 3, 5, flip, keys, recs, make([]float64, 5), make([]float64, 5))
	for r, want := range []float64{1, 0.5, 1.5} {
		if got := math.Float64frombits(recs[r].Key); got != want || recs[r].Aux != uint64(r) {
			t.Errorf("row %d: score %v, row %d; want %v, %d", r, got, recs[r].Aux, want, r)
		}
	}
	for i, v := range values {
		if keys[i] != FastKey(v, flip[i%5]) {
			t.Errorf("key %d is %#x, want FastKey(%v)", i, keys[i], v)
		}
	}
}
