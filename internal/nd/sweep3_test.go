package nd

import (
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/spica-search/spica/internal/testkit"
)

// TestByFront3Small: front3 takes up to small3 rows to front3Small.
func TestByFront3Small(t *testing.T) {
	for _, c := range []struct {
		small3, m int
		want      bool
	}{{256, 256, true}, {256, 257, false}, {256, 0, true}, {0, 1, false}} {
		if got := (ndTuning{small3: c.small3}).byFront3Small(c.m); got != c.want {
			t.Errorf("small3 %d: byFront3Small(%d) = %v, want %v", c.small3, c.m, got, c.want)
		}
	}
}

// TestFront3FilterSurvivors works front3Buckets' knee pre-filter by hand.
// A row's score is the sum over the columns of its value over the range of
// the column (over the first 16 rows), or its value where the range is 0;
// the knee is the first row of least score, and the rows that survive are
// those that the knee at their turn did not dominate, less those before
// the last knee that it dominates. Each case holds a row that only the
// right knee dominates, so a wrong score or a wrong knee lets it through;
// it runs as written and with each column negated and maximized (the same
// signed values, the same scores).
func TestFront3FilterSurvivors(t *testing.T) {
	const max = math.MaxFloat64
	tests := []struct {
		name   string
		values []float64 // minimized
		want   []int
	}{
		// The columns span [0, 100], [100, 101] and [100, 101]. Scores:
		// rows 0, 1 and 2 are 0 + 101 + 101, 1 + 101 + 100 and
		// 1 + 100 + 101, all 202; row 3 is 0.4 + 100.4 + 100.4 = 201.2,
		// the knee, which alone dominates row 4 (201.5). Unscaled sums
		// (202, 301, 301, 240.8, 251) leave row 0 the knee; so do scales
		// over hi + lo (1/100, 1/201, 1/201: about 1.005 for row 0 and
		// 1.399 for row 3). Either way row 4 survives.
		{"the knee is the row of least sum over the ranges", []float64{
			0, 101, 101,
			100, 101, 100,
			100, 100, 101,
			40, 100.4, 100.4,
			50, 100.5, 100.5,
		}, []int{0, 1, 2, 3}},
		// The third column is 5 throughout: its range is 0 and it counts
		// as it is, 5 in every score. Scores: 0 + 1 + 5 = 6,
		// 1 + 0 + 5 = 6, 0.4 + 0.4 + 5 = 5.8 (the knee) and 6, row 3,
		// which only row 2 dominates. Over a range of 0 a score would be
		// +Inf for every row, and the first the knee.
		{"a column of one value counts as it is", []float64{
			0, 1, 5,
			100, 0, 5,
			40, 0.4, 5,
			50, 0.5, 5,
		}, []int{0, 1, 2}},
		// The first column spans [0, MaxFloat64], a range that is finite,
		// so it counts over it: scores about 2, 2, 2, 1.2 (row 3, the
		// knee) and 1.5. Unscaled, row 0 (2) stays the knee against rows
		// of 0.4·MaxFloat64 and more, and row 4 survives.
		{"a range of MaxFloat64 still scales", []float64{
			0, 1, 1,
			max, 1, 0,
			max, 0, 1,
			0.4 * max, 0.4, 0.4,
			0.5 * max, 0.5, 0.5,
		}, []int{0, 1, 2, 3}},
		// Every column spans [3, 10]: scores are sums over 7. Rows 0, 1
		// and 2, each 10 in one column and 3 in the others, score 16/7;
		// row 3 (4, 4, 4) scores 12/7, the knee, and row 4 (5, 5, 5) only
		// row 3 dominates. With a column's value divided into its scale,
		// the row of 10 there scores 1/70 + 6/7, about 0.87, against
		// 1/28 + 8/7, about 1.18, for row 3; with a column subtracted, the
		// row of 10 there scores -4/7 against 4/7: either way it is the
		// knee, and row 4 survives.
		{"each column adds its value over its range to the score", []float64{
			10, 3, 3,
			3, 10, 3,
			3, 3, 10,
			4, 4, 4,
			5, 5, 5,
		}, []int{0, 1, 2, 3}},
		// Every column spans [0, 8]. Rows 3 (2, 4, 3) and 4 (4, 2, 3)
		// both score 9/8, the least (the corners score 2): row 3 is the
		// knee, which dominates row 5 (3, 5, 4), not row 6 (5, 3, 4),
		// which only row 4 dominates.
		{"of two knees of equal score the first is kept", []float64{
			0, 8, 8,
			8, 0, 8,
			8, 8, 0,
			2, 4, 3,
			4, 2, 3,
			3, 5, 4,
			5, 3, 4,
		}, []int{0, 1, 2, 3, 4, 6}},
		// The columns span [2, 8], [0, 8] and [0, 8]. Row 0 (4/6 + 4/8 +
		// 4/8, about 1.67) is the knee; row 1 (2/6 + 8/8 + 8/8, about
		// 2.33) is not, nor does it dominate row 2, which row 0 does. Row
		// 3 (8/6, about 1.33) is the last knee and dominates neither row 0
		// nor row 1.
		{"a later candidate of greater score is not the knee", []float64{
			4, 4, 4,
			2, 8, 8,
			5, 5, 5,
			8, 0, 0,
		}, []int{0, 1, 3}},
		// Row 0 passes while it is the knee; row 1, which dominates it,
		// becomes the knee, and the last pass drops row 0. Row 2, a tie
		// with the knee in two columns and worse in the third, is
		// dominated; row 3, equal to it, is not.
		{"a candidate that a later knee dominates is dropped", []float64{
			4, 4, 4,
			0, 0, 0,
			0, 0, 1,
			0, 0, 0,
		}, []int{1, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := len(tt.values) / 3
			for mask := range 8 {
				values := slices.Clone(tt.values)
				maximize := make([]bool, 3)
				for c := range 3 {
					if maximize[c] = mask>>c&1 != 0; maximize[c] {
						for r := range n {
							values[3*r+c] = -values[3*r+c]
						}
					}
				}
				flip := KeyFlips(maximize)
				sign := [3]float64{flipSign(flip[0]), flipSign(flip[1]), flipSign(flip[2])}
				cand, ok := front3Filter(values, n, sign, nil)
				if !ok {
					t.Fatalf("maximize %v: the filter gave up", maximize)
				}
				got := make([]int, len(cand))
				for i, r := range cand {
					got[i] = int(r)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("maximize %v: survivors (-want +got):\n%s", maximize, diff)
				}
				if front := testkit.Front(values, 3, maximize); !isSubset(front, got) {
					t.Errorf("maximize %v: survivors %v lose a row of the front %v", maximize, got, front)
				}
			}
		})
	}
}

// TestFront3BucketsGivesUpOnOpposedInfinities: a row holding +Inf and -Inf
// has a NaN sum, wherever the two sit, and front3Buckets gives up on it
// (front3Filter reports it).
func TestFront3BucketsGivesUpOnOpposedInfinities(t *testing.T) {
	inf := math.Inf(1)
	flip := KeyFlips([]bool{false, false, false})
	for _, row := range [][]float64{{inf, -inf, 0}, {0, -inf, inf}, {-inf, 0, inf}} {
		values := append([]float64{1, 1, 1}, row...)
		if got := front3Buckets(values, 2, flip); got != nil {
			t.Errorf("front3Buckets with row %v = %v, want nil", row, got)
		}
		if _, ok := front3Filter(values, 2, [3]float64{1, 1, 1}, nil); ok {
			t.Errorf("front3Filter with row %v: ok, want not", row)
		}
	}
}

// TestDominates3: a row dominates another no worse in every column and
// better in one; equal rows do not, and a tie in any column with a win in
// another does.
func TestDominates3(t *testing.T) {
	p := [3]float64{1, 1, 1}
	for _, tt := range []struct {
		v    [3]float64
		want bool
	}{
		{[3]float64{1, 1, 1}, false},
		{[3]float64{2, 2, 2}, true},
		{[3]float64{1, 2, 2}, true},
		{[3]float64{2, 1, 2}, true},
		{[3]float64{2, 2, 1}, true},
		{[3]float64{1, 1, 2}, true},
		{[3]float64{0, 2, 2}, false},
		{[3]float64{2, 0, 2}, false},
		{[3]float64{2, 2, 0}, false},
	} {
		if got := dominates3(&p, tt.v[0], tt.v[1], tt.v[2]); got != tt.want {
			t.Errorf("dominates3(%v, %v) = %v, want %v", p, tt.v, got, tt.want)
		}
	}
}

// TestBySortFunc3: sortRows3 sorts more than few rows by slices.SortFunc.
func TestBySortFunc3(t *testing.T) {
	for _, tt := range []struct {
		n, few int
		want   bool
	}{{16, 16, false}, {17, 16, true}, {0, 0, false}, {1, 0, true}} {
		if got := bySortFunc3(tt.n, tt.few); got != tt.want {
			t.Errorf("bySortFunc3(%d, %d) = %v, want %v", tt.n, tt.few, got, tt.want)
		}
	}
}

// TestStairs3CachedStep: a row that ties with the cached step in y or z
// and is no better in the other is covered by the cache alone, even when
// the step has since left the staircase. Steps: (5, 5) is kept; (6, 6) is
// covered by a search, which caches (5, 5); (4, 4) is kept and replaces
// (5, 5). Then (5, 7) and (7, 5) are covered, and the cache still holds
// (5, 5): a search would have cached (4, 4).
func TestStairs3CachedStep(t *testing.T) {
	for _, q := range []step3{{5, 7}, {7, 5}, {5, 5}} {
		var s stairs3
		for _, p := range []struct {
			step3
			want bool
		}{{step3{5, 5}, false}, {step3{6, 6}, true}, {step3{4, 4}, false}, {q, true}} {
			if got := s.covers(p.y, p.z); got != p.want {
				t.Fatalf("covers(%v) = %v, want %v", p.step3, got, p.want)
			}
		}
		if want := (step3{5, 5}); !s.haveCached || s.cached != want {
			t.Errorf("after covers(%v): cached %v, want %v", q, s.cached, want)
		}
		if want := []step3{{4, 4}}; !slices.Equal(s.steps, want) {
			t.Errorf("after covers(%v): steps %v, want %v", q, s.steps, want)
		}
	}
}

// TestFront3BucketsKeptWords: the kept set of front3Buckets on 65 rows is
// (65 + 63) / 64 = 2 words.
func TestFront3BucketsKeptWords(t *testing.T) {
	defer func(old *sync.Pool) { front3Pool = old }(front3Pool)
	sc := new(front3Scratch)
	front3Pool = &sync.Pool{New: func() any { return sc }}
	const n = 65
	values := make([]float64, 3*n)
	for r := range n {
		values[3*r], values[3*r+1], values[3*r+2] = float64(r), float64(n-r), float64(r%2)
	}
	got := front3Buckets(values, n, KeyFlips([]bool{false, false, false}))
	// Row r is (r, 65 - r, r mod 2): no row better in the first column
	// is better in the second, so all are on the front.
	if len(got) != n {
		t.Errorf("front3Buckets: %d rows, want %d", len(got), n)
	}
	if len(sc.kept) != 2 || cap(sc.kept) != 2 {
		t.Errorf("kept: len %d, cap %d, want 2 and 2", len(sc.kept), cap(sc.kept))
	}
}
