package nd

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPreFilterGrowsItsBuffers builds the input that makes the pre-filter
// grow its survivor buffers twice (to an eighth of n, then to n): the first
// 30,000 rows are dominated by row 0, so few survive the probe and the
// filter stays on, and the last 10,000 lie on the plane x+y+z = 1, none
// dominating another, all dominating row 0. The front is exactly the
// plane's rows.
func TestPreFilterGrowsItsBuffers(t *testing.T) {
	const junk, plane = 30000, 10000
	rng := rand.New(rand.NewPCG(3, 4))
	values := make([]float64, 0, 3*(junk+plane))
	values = append(values, 5, 5, 5)
	for range junk - 1 {
		values = append(values, 5+rng.Float64(), 5+rng.Float64(), 5+rng.Float64())
	}
	want := make([]int, plane)
	for i := range plane {
		want[i] = junk + i
		// On the plane, a row with a smaller x has a larger y + z, so it
		// is worse in y or z: no row dominates another (the gaps in x,
		// 1e-4, dwarf the rounding of z).
		x := float64(i+1) / (plane + 1)
		y := (1 - x) * rng.Float64()
		values = append(values, x, y, 1-x-y)
	}
	got := frontOf(values, 3, []bool{false, false, false})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("front (-want +got):\n%s", diff)
	}
	// The two-column engine has its own copy of the loop: the first two
	// columns of the plane rows with x rising and y falling.
	two := make([]float64, 0, 2*(junk+plane))
	two = append(two, 5, 5)
	for range junk - 1 {
		two = append(two, 5+rng.Float64(), 5+rng.Float64())
	}
	for i := range plane {
		x := float64(i+1) / (plane + 1)
		two = append(two, x, 1-x)
	}
	got = frontOf(two, 2, []bool{false, false})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("two-column front (-want +got):\n%s", diff)
	}
	if got := growCap(4096, junk+plane); got != (junk+plane)/8 {
		t.Errorf("growCap(4096, %d) = %d, want an eighth", junk+plane, got)
	}
	if got := growCap((junk+plane)/8, junk+plane); got != junk+plane {
		t.Errorf("growCap(n/8, n) = %d, want n", got)
	}
}

// TestWeightedKnees: weighted knees join from four columns on.
func TestWeightedKnees(t *testing.T) {
	for dims, want := range map[int]int{1: 0, 2: 0, 3: 0, 4: 32, 5: 32, 6: 32} {
		if got := weightedKnees(dims); got != want {
			t.Errorf("weightedKnees(%d) = %d, want %d", dims, got, want)
		}
	}
}

// TestNewPivotSetNormalizes: the range of each column comes from the first
// quarter of the pool (at least 256 rows, at most 1024), flipped columns
// negated and infinities left out; every piece of the pivot set has its own
// memory, of its own length, with a scratch or without.
func TestNewPivotSetNormalizes(t *testing.T) {
	// 2000 rows: the sample is the first 500. Column 0 is 0.5 but for 0 at
	// row 1, 1 at row 2, −1 at row 300 (in the sample, past row 256) and 3
	// at row 600 (past the sample): lo −1, scale 1/(1 − −1) = 1/2. Column 1
	// is maximized: 0 but for 2 at row 5, −2 at row 6 and +Inf at row 7,
	// negated: lo −2, scale 1/(2 − −2) = 1/4.
	const n = 2000
	values := make([]float64, 2*n)
	for r := range n {
		values[2*r] = 0.5
	}
	values[2*1], values[2*2], values[2*300], values[2*600] = 0, 1, -1, 3
	values[2*5+1], values[2*6+1], values[2*7+1] = 2, -2, math.Inf(1)
	flip := []uint64{0, 1}
	for _, sc := range []*marksScratch{nil, new(marksScratch)} {
		p := newPivotSet(values, n, 2, flip, sc)
		if !slices.Equal(p.lo, []float64{-1, -2}) || !slices.Equal(p.scale, []float64{0.5, 0.25}) {
			t.Errorf("lo %v, scale %v; want [-1 -2], [0.5 0.25]", p.lo, p.scale)
		}
		// Row 0 (0.5, −0) is the first knee: (0.5 − −1)/2 + (0 − −2)/4 = 1.25.
		if p.kneeScore != 1.25 || !slices.Equal(p.norm, []float64{0.75, 0.5}) {
			t.Errorf("knee score %v, norm %v; want 1.25, [0.75 0.5]", p.kneeScore, p.norm)
		}
	}
	// A flat column, or one with NaN in the sample, keeps lo and scale 0:
	// it does not steer the knee.
	for _, col := range [][]float64{{7, 7, 7}, {1, math.NaN(), 3}} {
		for _, sc := range []*marksScratch{nil, new(marksScratch)} {
			if sc != nil {
				sc.f = []float64{5, 5, 5, 5, 5} // left by an earlier call
			}
			p := newPivotSet(col, 3, 1, []uint64{0}, sc)
			if p.lo[0] != 0 || p.scale[0] != 0 {
				t.Errorf("column %v: lo %v, scale %v; want 0, 0", col, p.lo, p.scale)
			}
		}
	}
	// The weighted knees' weights are −log of a number in (0, 1]: positive,
	// and at most 53·log 2 < 37.
	p := newPivotSet(make([]float64, 4), 1, 4, make([]uint64, 4), nil)
	for i, w := range p.weights {
		if !(w > 0 && w < 37) {
			t.Errorf("weight %d is %v", i, w)
		}
	}
	for dims := 1; dims <= 6; dims++ {
		values := make([]float64, 300*dims)
		wk := weightedKnees(dims)
		for _, sc := range []*marksScratch{nil, new(marksScratch)} {
			p := newPivotSet(values, 300, dims, make([]uint64, dims), sc)
			pieces := [][]float64{p.lo, p.scale, p.norm, p.weights, p.scores}
			for i, want := range []int{dims, dims, dims, wk * dims, wk} {
				if len(pieces[i]) != want {
					t.Errorf("dims %d: piece %d of %d values, want %d", dims, i, len(pieces[i]), want)
				}
			}
			if len(p.keys) != (dims+1+wk)*dims || len(p.flip) != dims || len(p.scores) != wk {
				t.Errorf("dims %d: %d keys, %d flips", dims, len(p.keys), len(p.flip))
			}
			// Each piece ends where the next begins, so none overlaps.
			for i := 1; i < len(pieces); i++ {
				prev := pieces[i-1]
				if cap(prev) != len(prev)+cap(pieces[i]) {
					t.Errorf("dims %d: piece %d overlaps piece %d or leaves a gap", dims, i-1, i)
				}
			}
			if cap(p.keys) != len(p.keys)+len(p.flip) {
				t.Errorf("dims %d: keys and flip overlap", dims)
			}
		}
	}
}

// TestPivotScoreAndWeighted: a row's score sums its values normalized by
// the sample's range, flipped columns negated; a weighted knee's score is
// its weights times the last row's normalized values.
func TestPivotScoreAndWeighted(t *testing.T) {
	p := &pivotSet{dims: 2, lo: []float64{-1, -2}, scale: []float64{0.5, 0.25}, flip: []uint64{0, 1}, norm: make([]float64, 2)}
	// (1 − −1)·0.5 = 1 and, flipped, (1 − −2)·0.25 = 0.75.
	if s := p.score([]float64{1, -1}); s != 1.75 || !slices.Equal(p.norm, []float64{1, 0.75}) {
		t.Errorf("score %v, norm %v; want 1.75, [1 0.75]", s, p.norm)
	}
	// Beyond the range clamps to 1, below it to 0, NaN to 1.
	if s := p.score([]float64{5, math.NaN()}); s != 2 {
		t.Errorf("score %v, want 2", s)
	}
	if s := p.score([]float64{-3, 4}); s != 0 {
		t.Errorf("score %v, want 0", s)
	}
	q := &pivotSet{dims: 4, norm: []float64{0.5, 0.25, 1, 0}, weights: []float64{9, 9, 9, 9, 2, 4, 1, 3}}
	if s := q.weighted(1); s != 3 { // 2·0.5 + 4·0.25 + 1·1 + 3·0
		t.Errorf("weighted(1) = %v, want 3", s)
	}
}

// TestPivotDominated: a row is dominated when some pivot, the last
// included, is no worse in every column and better in one; an equal
// pivot is not enough. Three columns take the unrolled test.
func TestPivotDominated(t *testing.T) {
	for dims := 2; dims <= 4; dims++ {
		// Two pivots that dominate nothing here, then the pivot 1, 1, ….
		keys := make([]uint64, 3*dims)
		for i := range keys {
			keys[i] = 9
		}
		keys[0] = 0 // the first pivot: 0, 9, 9, …
		for c := range dims {
			keys[2*dims+c] = 1
		}
		p := &pivotSet{dims: dims, keys: keys}
		row := func(first, rest uint64) []uint64 {
			r := make([]uint64, dims)
			for c := range r {
				r[c] = rest
			}
			r[0] = first
			return r
		}
		for _, tt := range []struct {
			first, rest uint64
			want        bool
		}{
			{1, 1, false}, // equal to the last pivot
			{1, 2, true},  // equal in column 0, worse in the others
			{2, 1, true},  // worse in column 0 only
			{0, 5, false}, // better than every pivot but the first in column 0, which is worse in the others
			{2, 2, true},
			{0, 0, false},
		} {
			if got := p.dominated(row(tt.first, tt.rest)); got != tt.want {
				t.Errorf("dims %d: row %d, %d…: dominated = %v, want %v", dims, tt.first, tt.rest, got, tt.want)
			}
		}
		// Worse in the last column only.
		r := row(1, 1)
		r[dims-1] = 2
		if !p.dominated(r) {
			t.Errorf("dims %d: %v not dominated", dims, r)
		}
	}
}

// TestPivotOffer: an offered row takes the knee when its score is lower,
// a column's best when it is lower in that column or dominates the best,
// and a weighted knee when its weighted score is lower; a tie takes
// nothing. Worked by hand.
func TestPivotOffer(t *testing.T) {
	// Rows (5, 5), (1, 9), (9, 1): every pivot starts at row 0, the range
	// is [1, 9] in both columns (scale 1/8), the knee's score (4+4)/8 = 1.
	values := []float64{5, 5, 1, 9, 9, 1}
	p := newPivotSet(values, 3, 2, []uint64{0, 0}, nil)
	k := func(a, b float64) []uint64 { return []uint64{FastKey(a, 0), FastKey(b, 0)} }
	pivots := func() [][]uint64 { return [][]uint64{p.keys[0:2], p.keys[2:4], p.keys[4:6]} }
	check := func(name string, changed, wantChanged bool, want ...[]uint64) {
		t.Helper()
		if changed != wantChanged || !cmp.Equal(pivots(), want) {
			t.Errorf("%s: changed %v, pivots %v; want %v, %v", name, changed, pivots(), wantChanged, want)
		}
	}
	check("start", false, false, k(5, 5), k(5, 5), k(5, 5))
	check("an equal row", p.offer([]float64{5, 5}, k(5, 5)), false, k(5, 5), k(5, 5), k(5, 5))
	// (5, 4): score (4+3)/8 < 1; it dominates column 0's best and is lower
	// in column 1.
	check("(5, 4)", p.offer([]float64{5, 4}, k(5, 4)), true, k(5, 4), k(5, 4), k(5, 4))
	// (5, 9): score 12/8; equal in column 0, worse in column 1.
	check("(5, 9)", p.offer([]float64{5, 9}, k(5, 9)), false, k(5, 4), k(5, 4), k(5, 4))
	// (1, 9): score 1 > 7/8, lower in column 0.
	check("(1, 9)", p.offer([]float64{1, 9}, k(1, 9)), true, k(5, 4), k(1, 9), k(5, 4))

	// Four columns: weighted knee 0 weighs column 1, knee 1 column 0, the
	// others all four. Rows (½, ½, ½, ½), (0, 0, 0, 0), (1, 1, 1, 1): range
	// [0, 1], every pivot at row 0, weighted scores ½, ½ and 2.
	values = []float64{0.5, 0.5, 0.5, 0.5, 0, 0, 0, 0, 1, 1, 1, 1}
	p = newPivotSet(values, 3, 4, make([]uint64, 4), nil)
	for i := range p.scores {
		w := p.weights[4*i : 4*i+4]
		switch i {
		case 0:
			copy(w, []float64{0, 1, 0, 0})
		case 1:
			copy(w, []float64{1, 0, 0, 0})
		default:
			copy(w, []float64{1, 1, 1, 1})
		}
		p.score(values[:4])
		p.scores[i] = p.weighted(i)
	}
	half := []uint64{FastKey(0.5, 0), FastKey(0.5, 0), FastKey(0.5, 0), FastKey(0.5, 0)}
	// (½, ½, ½, ½) again: every score ties.
	if p.offer(values[:4], half) {
		t.Errorf("a row equal to every pivot changed one")
	}
	// (0, 1, 1, 1): score 3 > 2; lower in column 0; knee 1 scores 0 < ½,
	// knee 0 1 > ½, the others 3 > 2.
	row := []uint64{FastKey(0, 0), FastKey(1, 0), FastKey(1, 0), FastKey(1, 0)}
	if !p.offer([]float64{0, 1, 1, 1}, row) {
		t.Errorf("(0, 1, 1, 1) changed no pivot")
	}
	for i := range len(p.keys) / 4 {
		want := half
		if i == 1 || i == 4+1+1 { // column 0's best, weighted knee 1
			want = row
		}
		if got := p.keys[4*i : 4*i+4]; !slices.Equal(got, want) {
			t.Errorf("pivot %d is %v, want %v", i, got, want)
		}
	}
}

// TestPivotFilterByHand: the survivors are the rows no final pivot
// dominates, in row order, and the filter stands down at the probe when
// more than half the rows so far survive. Rows 0 … 7: (5, 5), (6, 6),
// (1, 9), (9, 1), (4, 4), (4.5, 4.5), (3, 7), (7, 3), then 992 rows
// (8, 8). The pivots start at (5, 5) (range [1, 9], scale 1/8, knee
// score 1): row 1 falls to it; row 2 becomes column 0's best, row 3
// column 1's; row 4 (score 6/8) the knee, which takes row 5 and the
// rows (8, 8); rows 6 and 7 (scores 1) change nothing. Of the rows kept
// before the last change, row 0 falls to the knee (4, 4).
func TestPivotFilterByHand(t *testing.T) {
	const n = 1000
	values := make([]float64, 0, 2*n)
	values = append(values, 5, 5, 6, 6, 1, 9, 9, 1, 4, 4, 4.5, 4.5, 3, 7, 7, 3)
	for len(values) < 2*n {
		values = append(values, 8, 8)
	}
	flip := []uint64{0, 0}
	wantRows := []int{2, 3, 4, 6, 7}
	var wantKeys []uint64
	for _, r := range wantRows {
		wantKeys = append(wantKeys, FastKey(values[2*r], 0), FastKey(values[2*r+1], 0))
	}
	for _, sc := range []*marksScratch{nil, new(marksScratch)} {
		// The probe at row 2 (one survivor, 2·1 ≤ 2) and past the end: the
		// filter goes on.
		for _, probe := range []int{2, n} {
			keys, rows := pivotFilter(values, n, 2, flip, probe, sc)
			if !slices.Equal(rows, wantRows) || !slices.Equal(keys, wantKeys) {
				t.Errorf("probe %d: rows %v keys %v; want %v %v", probe, rows, keys, wantRows, wantKeys)
			}
			if sc == nil && (cap(rows) != 250 || cap(keys) != 500) {
				// A quarter of the pool, 250 rows, is room for the survivors.
				t.Errorf("probe %d: capacity %d rows, %d keys; want 250, 500", probe, cap(rows), cap(keys))
			}
		}
		// At row 4 three rows (0, 2, 3) survive: 2·3 > 4 stands it down.
		keys, rows := pivotFilter(values, n, 2, flip, 4, sc)
		if rows != nil || !slices.Equal(keys, KeyMatrix(values, 2, flip)) {
			t.Errorf("probe 4: rows %v, %d keys; want nil and every key row", rows, len(keys))
		}
	}
	// Every row of a line survives: the buffers grow from 250 rows to an
	// eighth of the pool if that were more, then to all of it.
	line := make([]float64, 2*n)
	for r := range n {
		line[2*r], line[2*r+1] = float64(r), float64(n-r)
	}
	keys, rows := pivotFilter(line, n, 2, flip, n, nil)
	if len(rows) != n || cap(rows) != n || cap(keys) != 2*n {
		t.Errorf("line: %d rows, capacity %d rows, %d keys; want %d, %d, %d", len(rows), cap(rows), cap(keys), n, n, 2*n)
	}
}
