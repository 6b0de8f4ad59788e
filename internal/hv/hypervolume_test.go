package hv

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/spica-search/spica/internal/testkit"
)

// gridOracle measures by coordinate compression, with no reference to the
// package's extents: per column the reference value and every distinct value
// a row reaches on the good side of it cut the axis into intervals, and a
// cell of the grid is covered by a row when the row reaches past it in
// every column. It returns the volume covered by any row and, per row, the
// volume covered by that row alone.
func gridOracle(values []float64, dims int, maximize []bool, ref []float64) (float64, []float64) {
	n := len(values) / dims
	inside := func(i int) bool {
		for j := range dims {
			v := values[i*dims+j]
			if math.IsNaN(v) || (maximize[j] && v <= ref[j]) || (!maximize[j] && v >= ref[j]) {
				return false
			}
		}
		return true
	}
	var rows []int
	for i := range n {
		if inside(i) {
			rows = append(rows, i)
		}
	}
	// edges[j] runs from ref[j] away from it; reach[r][j] is the index of
	// row r's value in it.
	edges := make([][]float64, dims)
	for j := range dims {
		e := []float64{ref[j]}
		for _, i := range rows {
			e = append(e, values[i*dims+j])
		}
		sort.Float64s(e)
		e = slices.Compact(e)
		if !maximize[j] {
			slices.Reverse(e)
		}
		edges[j] = e
	}
	reach := make([][]int, len(rows))
	for r, i := range rows {
		reach[r] = make([]int, dims)
		for j := range dims {
			reach[r][j] = slices.Index(edges[j], values[i*dims+j])
		}
	}
	total, excl := 0.0, make([]float64, n)
	cell := make([]int, dims)
	for {
		covering, who := 0, -1
		for r := range rows {
			in := true
			for j := range dims {
				if cell[j] >= reach[r][j] {
					in = false
					break
				}
			}
			if in {
				covering++
				who = rows[r]
			}
		}
		if covering > 0 {
			vol := 1.0
			for j := range dims {
				vol *= math.Abs(edges[j][cell[j]+1] - edges[j][cell[j]])
			}
			total += vol
			if covering == 1 {
				excl[who] += vol
			}
		}
		j := 0
		for ; j < dims; j++ {
			cell[j]++
			if cell[j] < len(edges[j])-1 {
				break
			}
			cell[j] = 0
		}
		if j == dims {
			return total, excl
		}
	}
}

func oracleHV(values []float64, dims int, maximize []bool, ref []float64) float64 {
	v, _ := gridOracle(values, dims, maximize, ref)
	return v
}

// oracleOfExtents is oracleHV of rows given as positive extents, the
// kernels' input: as values minimized against a reference of 0, each
// extent is −value.
func oracleOfExtents(pts []float64, dims int) float64 {
	values := make([]float64, len(pts))
	for i, e := range pts {
		values[i] = -e
	}
	return oracleHV(values, dims, make([]bool, dims), make([]float64, dims))
}

// oracleContributions is HV(all) − HV(all but the row), by the grid oracle.
func oracleContributions(values []float64, dims int, maximize []bool, ref []float64) []float64 {
	total := oracleHV(values, dims, maximize, ref)
	n := len(values) / dims
	out := make([]float64, n)
	for i := range n {
		rest := slices.Delete(slices.Clone(values), i*dims, (i+1)*dims)
		out[i] = total - oracleHV(rest, dims, maximize, ref)
	}
	return out
}

func approxEqual(a, b float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsNaN(a) || math.IsNaN(b) {
		return a == b
	}
	return math.Abs(a-b) <= 1e-9*max(1, math.Abs(a), math.Abs(b))
}

var approx = cmp.Comparer(approxEqual)

func TestHypervolumeByHand(t *testing.T) {
	tests := []struct {
		name     string
		values   []float64
		dims     int
		maximize []bool
		ref      []float64
		want     float64
		contrib  []float64
	}{
		{
			// Sweeping by x: (1,3) owns [1,4]×[3,4] = 3, (2,2) adds
			// [2,4]×[2,3] = 2, (3,1) adds [3,4]×[1,2] = 1; total 6. Each
			// row alone covers the unit square between its neighbours.
			name:     "three minimized points on a line share six",
			values:   []float64{1, 3, 2, 2, 3, 1},
			dims:     2,
			maximize: []bool{false, false},
			ref:      []float64{4, 4},
			want:     6,
			contrib:  []float64{1, 1, 1},
		},
		{
			// Mirror image of the case above in the maximized column.
			name:     "a maximized column mirrors the box",
			values:   []float64{-1, 3, -2, 2, -3, 1},
			dims:     2,
			maximize: []bool{true, false},
			ref:      []float64{-4, 4},
			want:     6,
			contrib:  []float64{1, 1, 1},
		},
		{
			// (2,2) alone covers [0,2]×[0,2] = 4, (1,1) is inside it; removing
			// (2,2) leaves (1,1)'s unit square, so (2,2) contributes 3.
			name:     "removing a row uncovers the row it dominates",
			values:   []float64{1, 1, 2, 2},
			dims:     2,
			maximize: []bool{true, true},
			ref:      []float64{0, 0},
			want:     4,
			contrib:  []float64{0, 3},
		},
		{
			name:     "rows on or beyond the reference add nothing",
			values:   []float64{4, 0, 0, 4, 5, 5, math.NaN(), 0, 2, 2},
			dims:     2,
			maximize: []bool{false, false},
			ref:      []float64{4, 4},
			want:     4,
			contrib:  []float64{0, 0, 0, 0, 4},
		},
		{
			name:     "duplicates contribute nothing but count once",
			values:   []float64{1, 1, 1, 1},
			dims:     2,
			maximize: []bool{false, false},
			ref:      []float64{2, 3},
			want:     2,
			contrib:  []float64{0, 0},
		},
		{
			// A 2×3×4 box, and a point inside it on every axis.
			name:     "one three-column row is its box",
			values:   []float64{0, 0, 0, 1, 1, 1},
			dims:     3,
			maximize: []bool{false, false, false},
			ref:      []float64{2, 3, 4},
			want:     24,
			contrib:  []float64{24 - 6, 0},
		},
		{
			// Boxes 3×1×1 and 1×3×1 overlap in a unit cube: 3+3−1.
			name:     "two three-column rows overlap in a cube",
			values:   []float64{3, 1, 1, 1, 3, 1},
			dims:     3,
			maximize: []bool{true, true, true},
			ref:      []float64{0, 0, 0},
			want:     5,
			contrib:  []float64{2, 2},
		},
		{
			// Boxes 2×1×1×1 and 1×2×1×1 overlap in a unit hypercube.
			name:     "two four-column rows overlap in a unit hypercube",
			values:   []float64{2, 1, 1, 1, 1, 2, 1, 1},
			dims:     4,
			maximize: []bool{true, true, true, true},
			ref:      []float64{0, 0, 0, 0},
			want:     3,
			contrib:  []float64{1, 1},
		},
		{
			name:     "one column is the best distance",
			values:   []float64{3, 1, 7, 7},
			dims:     1,
			maximize: []bool{false},
			ref:      []float64{10},
			want:     9,
			contrib:  []float64{0, 2, 0, 0},
		},
		{
			name:     "an empty matrix has no volume",
			values:   []float64{},
			dims:     3,
			maximize: []bool{false, false, false},
			ref:      []float64{1, 1, 1},
			want:     0,
			contrib:  []float64{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := volumeOf(tt.values, tt.dims, tt.maximize, tt.ref)
			if got != tt.want {
				t.Errorf("Hypervolume = %v; want %v", got, tt.want)
			}
			c := sharesOf(tt.values, tt.dims, tt.maximize, tt.ref)
			if c == nil {
				t.Fatalf("HypervolumeContributions = %v", c)
			}
			if diff := cmp.Diff(tt.contrib, c, approx); diff != "" {
				t.Errorf("HypervolumeContributions (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHypervolumeInfinity(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name    string
		values  []float64 // minimized, reference 2 in every column
		dims    int
		want    float64
		contrib []float64
	}{
		{"a row reaching -Inf makes the volume infinite and owns it", []float64{math.Inf(-1), 1}, 2, inf, []float64{inf}},
		{"an infinity on the bad side leaves the row outside", []float64{inf, 1, 1, 1}, 2, 1, []float64{0, 1}},
		{
			// Extents (Inf,1) and (2,2): the second alone owns (0,2]×(1,2].
			"a finite row beside an infinite one keeps its finite share",
			[]float64{math.Inf(-1), 1, 0, 0}, 2, inf, []float64{inf, 2},
		},
		{"two rows infinite in different columns each own infinity", []float64{math.Inf(-1), 1, 1, math.Inf(-1)}, 2, inf, []float64{inf, inf}},
		{"an infinite row hiding a lesser one owns infinity alone", []float64{math.Inf(-1), 0, math.Inf(-1), 1}, 2, inf, []float64{inf, 0}},
		{"duplicated infinite rows own nothing", []float64{math.Inf(-1), 0, math.Inf(-1), 0}, 2, inf, []float64{0, 0}},
		{
			"three columns: a finite row beside an infinite one",
			[]float64{math.Inf(-1), 1, 1, 0, 0, 0}, 3, inf, []float64{inf, 8 - 2},
		},
		{
			"four columns: a finite row beside an infinite one",
			[]float64{math.Inf(-1), 1, 1, 1, 0, 0, 0, 0}, 4, inf, []float64{inf, 16 - 2},
		},
		{
			// The last row's 2⁴ box loses the 2×1×1×1 and 1×2×1×1 boxes
			// the others cut from it, which overlap in a unit hypercube.
			"four columns: rows infinite in different columns",
			[]float64{math.Inf(-1), 1, 1, 1, 1, math.Inf(-1), 1, 1, 0, 0, 0, 0}, 4, inf, []float64{inf, inf, 16 - 3},
		},
		{
			// Both reach infinity in the first column, but there the second
			// covers the first, so the first's share is finite.
			"four columns: an infinite row whose infinite part is covered",
			[]float64{math.Inf(-1), 0, 1, 1, math.Inf(-1), 1, 1, 1, 0, 1, 0, 0}, 4, inf, nil,
		},
		{"five columns: duplicated infinite rows own nothing", []float64{math.Inf(-1), 0, 0, 0, 0, math.Inf(-1), 0, 0, 0, 0}, 5, inf, []float64{0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			maximize := make([]bool, tt.dims)
			ref := slices.Repeat([]float64{2}, tt.dims)
			got := volumeOf(tt.values, tt.dims, maximize, ref)
			if got != tt.want {
				t.Errorf("Hypervolume = %v; want %v", got, tt.want)
			}
			c := sharesOf(tt.values, tt.dims, maximize, ref)
			want := tt.contrib
			if want == nil {
				_, want = gridOracle(tt.values, tt.dims, maximize, ref)
			}
			if diff := cmp.Diff(want, c, approx); diff != "" {
				t.Errorf("HypervolumeContributions (-want +got):\n%s", diff)
			}
		})
	}
}

// hvInput draws a small matrix whose coordinates come from a handful of
// integers, so ties, duplicates and rows outside the box are common, with
// an occasional NaN or infinity when special is set.
func hvInput(t *rapid.T, maxDims, maxRows int, special bool) ([]float64, int, []bool, []float64) {
	dims := rapid.IntRange(1, maxDims).Draw(t, "dims")
	n := rapid.IntRange(0, maxRows).Draw(t, "n")
	maximize := rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
	ref := make([]float64, dims)
	for j := range ref {
		// Mostly beyond the pool on the bad side, so most rows count.
		if maximize[j] {
			ref[j] = float64(rapid.IntRange(-2, 1).Draw(t, "ref"))
		} else {
			ref[j] = float64(rapid.IntRange(3, 5).Draw(t, "ref"))
		}
	}
	pool := []float64{0, 1, 2, 3, 4, 0.5, -1}
	if special {
		pool = append(pool, math.NaN(), math.Inf(1), math.Inf(-1))
	}
	values := make([]float64, n*dims)
	for i := range values {
		values[i] = rapid.SampledFrom(pool).Draw(t, "v")
	}
	return values, dims, maximize, ref
}

func TestHypervolumeMatchesGridOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		values, dims, maximize, ref := hvInput(t, 5, 7, false)
		want := oracleHV(values, dims, maximize, ref)
		got := volumeOf(values, dims, maximize, ref)
		if !approxEqual(got, want) {
			t.Fatalf("Hypervolume = %v; oracle %v", got, want)
		}
		c := sharesOf(values, dims, maximize, ref)
		if diff := cmp.Diff(oracleContributions(values, dims, maximize, ref), c, approx); diff != "" {
			t.Fatalf("contributions (-oracle +got):\n%s", diff)
		}
	})
}

func TestHypervolumeWithInfinitiesMatchesGridOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		values, dims, maximize, ref := hvInput(t, 5, 6, true)
		want, excl := gridOracle(values, dims, maximize, ref)
		got := volumeOf(values, dims, maximize, ref)
		if !approxEqual(got, want) {
			t.Fatalf("Hypervolume = %v; oracle %v", got, want)
		}
		c := sharesOf(values, dims, maximize, ref)
		if diff := cmp.Diff(excl, c, approx); diff != "" {
			t.Fatalf("contributions (-oracle exclusive volume +got):\n%s", diff)
		}
	})
}

func TestHypervolumeIgnoresRowOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		values, dims, maximize, ref := hvInput(t, 5, 8, true)
		n := len(values) / dims
		perm := rapid.Permutation(seq(n)).Draw(t, "perm")
		shuffled := make([]float64, 0, len(values))
		for _, i := range perm {
			shuffled = append(shuffled, values[i*dims:(i+1)*dims]...)
		}
		a := volumeOf(values, dims, maximize, ref)
		b := volumeOf(shuffled, dims, maximize, ref)
		if a != b {
			t.Fatalf("volume %v became %v after permuting rows", a, b)
		}
		ca := sharesOf(values, dims, maximize, ref)
		cb := sharesOf(shuffled, dims, maximize, ref)
		for k, i := range perm {
			if !approxEqual(ca[i], cb[k]) {
				t.Fatalf("row %d: contribution %v became %v after permuting rows", i, ca[i], cb[k])
			}
		}
	})
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func TestHypervolumeNeverShrinksWhenARowIsAdded(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		values, dims, maximize, ref := hvInput(t, 5, 8, true)
		extra := make([]float64, dims)
		for j := range extra {
			extra[j] = rapid.Float64Range(-2, 6).Draw(t, "extra")
		}
		before := volumeOf(values, dims, maximize, ref)
		after := volumeOf(append(slices.Clone(values), extra...), dims, maximize, ref)
		if after < before*(1-1e-12) {
			t.Fatalf("adding %v shrank the volume from %v to %v", extra, before, after)
		}
	})
}

func TestHypervolumeDoesNotModifyItsInput(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		values, dims, maximize, ref := hvInput(t, 5, 8, true)
		v, m, r := slices.Clone(values), slices.Clone(maximize), slices.Clone(ref)
		_ = volumeOf(values, dims, maximize, ref)
		_ = sharesOf(values, dims, maximize, ref)
		if !testkit.SameBits(v, values) ||
			!slices.Equal(m, maximize) || !slices.Equal(r, ref) {
			t.Fatal("input modified")
		}
	})
}

// TestHypervolumeLargeSets reaches the radix sort and deep bit trees, with
// coordinates from a small range so the grid oracle stays cheap and ties
// abound.
func TestHypervolumeLargeSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct{ dims, n, levels int }{
		{2, 3000, 40}, {2, 600, 1000}, {3, 800, 12}, {3, 1500, 6}, {4, 300, 6}, {5, 120, 4},
	} {
		t.Run(fmt.Sprintf("d=%d/n=%d/levels=%d", tc.dims, tc.n, tc.levels), func(t *testing.T) {
			maximize := make([]bool, tc.dims)
			ref := make([]float64, tc.dims)
			for j := range maximize {
				maximize[j] = j%2 == 1
				if maximize[j] {
					ref[j] = -1
				} else {
					ref[j] = float64(tc.levels)
				}
			}
			values := make([]float64, tc.n*tc.dims)
			for i := range values {
				values[i] = float64(rng.IntN(tc.levels+1)) / 2
			}
			total, excl := gridOracle(values, tc.dims, maximize, ref)
			got := volumeOf(values, tc.dims, maximize, ref)
			if !approxEqual(got, total) {
				t.Fatalf("Hypervolume = %v; oracle %v", got, total)
			}
			c := sharesOf(values, tc.dims, maximize, ref)
			if diff := cmp.Diff(excl, c, approx); diff != "" {
				t.Fatalf("contributions (-oracle +got):\n%s", diff)
			}
		})
	}
}

// TestHypervolumeOfFronts takes fronts too large for the grid oracle, where
// every row has a positive share, and checks a sample of shares against
// HV(all) − HV(all but the row).
func TestHypervolumeOfFronts(t *testing.T) {
	for _, dims := range []int{2, 3, 4} {
		n := map[int]int{2: 2000, 3: 1000, 4: 60}[dims]
		values := testkit.Matrix("sphere", n, dims)
		maximize := make([]bool, dims)
		ref := slices.Repeat([]float64{1.1}, dims)
		c := sharesOf(values, dims, maximize, ref)
		all := volumeOf(values, dims, maximize, ref)
		for _, i := range []int{0, n / 3, n - 1} {
			rest := slices.Delete(slices.Clone(values), i*dims, (i+1)*dims)
			without := volumeOf(rest, dims, maximize, ref)
			if d := all - without; math.Abs(d-c[i]) > 1e-9*max(1, all) || c[i] <= 0 {
				t.Errorf("d=%d row %d: contribution %v, HV difference %v", dims, i, c[i], d)
			}
		}
	}
}

// TestHypervolumeManySmallSets complements the rapid properties, whose draws
// favour tiny matrices, with many fuller ones for every column count.
func TestHypervolumeManySmallSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	pool := []float64{0, 1, 2, 3, 0.5, 2.5, 4, math.NaN(), math.Inf(-1), math.Inf(1)}
	for dims := 1; dims <= 5; dims++ {
		for iter := range 400 {
			n := 3 + rng.IntN(7)
			maximize := make([]bool, dims)
			ref := make([]float64, dims)
			for j := range dims {
				maximize[j] = rng.IntN(2) == 0
				ref[j] = 3.5
				if maximize[j] {
					ref[j] = -0.5
				}
			}
			values := make([]float64, n*dims)
			special := iter%4 == 0 // infinities and NaN in a quarter of the sets
			for i := range values {
				values[i] = pool[rng.IntN(len(pool)-3)]
				if special && rng.IntN(6) == 0 {
					values[i] = pool[len(pool)-3+rng.IntN(3)]
				}
				if maximize[i%dims] && values[i] == values[i] {
					values[i] = 3 - values[i]
				}
			}
			total, excl := gridOracle(values, dims, maximize, ref)
			got := volumeOf(values, dims, maximize, ref)
			if !approxEqual(got, total) {
				t.Fatalf("d=%d %v: Hypervolume = %v; oracle %v", dims, values, got, total)
			}
			c := sharesOf(values, dims, maximize, ref)
			want := excl
			if !special {
				want = oracleContributions(values, dims, maximize, ref)
			}
			if diff := cmp.Diff(want, c, approx); diff != "" {
				t.Fatalf("d=%d %v max %v: contributions (-oracle +got):\n%s", dims, values, maximize, diff)
			}
		}
	}
}

// TestHypervolumeIsNeverNaN feeds extreme finite values, infinities, NaN,
// subnormals and signed zeros: nothing panics, no result is NaN or
// negative, and no share exceeds the whole.
func TestHypervolumeIsNeverNaN(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dims := rapid.IntRange(1, 5).Draw(t, "dims")
		n := rapid.IntRange(0, 8).Draw(t, "n")
		maximize := rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
		special := rapid.SampledFrom([]float64{
			math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64,
			math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, math.Copysign(0, -1), 0, 1e300, -1e300,
		})
		value := rapid.OneOf(rapid.Float64(), special)
		values := rapid.SliceOfN(value, n*dims, n*dims).Draw(t, "values")
		ref := rapid.SliceOfN(rapid.OneOf(rapid.Float64Range(-1e300, 1e300), rapid.SampledFrom([]float64{0, 1, -1, math.MaxFloat64})), dims, dims).Draw(t, "ref")
		hv := volumeOf(values, dims, maximize, ref)
		if math.IsNaN(hv) || hv < 0 {
			t.Fatalf("Hypervolume = %v", hv)
		}
		c := sharesOf(values, dims, maximize, ref)
		if len(c) != n {
			t.Fatalf("HypervolumeContributions = %v", c)
		}
		for i, v := range c {
			if math.IsNaN(v) || v < 0 || v > hv*(1+1e-9) {
				t.Fatalf("row %d: contribution %v with volume %v", i, v, hv)
			}
		}
	})
}

// TestHypervolumeContributionsOfAHidingRow builds the case that makes a
// naive three-column sweep quadratic: one row hides a long staircase of
// rows, and a stream of lower rows beside it keeps raising the bottom of
// its rectangle. Its share must still equal HV(all) − HV(all but it).
func TestHypervolumeContributionsOfAHidingRow(t *testing.T) {
	const hidden, beside = 20000, 20000
	values := []float64{10, 10, 100}
	for k := 1; k <= hidden; k++ {
		x := 10 * float64(k) / (hidden + 1)
		values = append(values, x, 10-x, 99)
	}
	for j := 1; j <= beside; j++ {
		values = append(values, 11, 5*float64(j)/(beside+1), 98-10*float64(j)/beside)
	}
	maximize, ref := []bool{true, true, true}, []float64{0, 0, 0}
	c := sharesOf(values, 3, maximize, ref)
	all := volumeOf(values, 3, maximize, ref)
	for _, i := range []int{0, 1, hidden / 2, hidden + 1, hidden + beside} {
		rest := slices.Delete(slices.Clone(values), 3*i, 3*i+3)
		without := volumeOf(rest, 3, maximize, ref)
		if d := all - without; math.Abs(d-c[i]) > 1e-9*all {
			t.Errorf("row %d: contribution %v, HV difference %v", i, c[i], d)
		}
	}
}

// TestHypervolumeManyColumns passes ten columns, more than extents keeps
// its signs and offsets on the stack for, with every other column
// maximized: the box of extents 1,2,3,1,2,3,1,2,3,1 is 216, and a row
// inside it (every extent halved) and one outside the reference box add
// nothing.
func TestHypervolumeManyColumns(t *testing.T) {
	const dims = 10
	maximize, ref := make([]bool, dims), make([]float64, dims)
	var box, inner, outside []float64
	for j := range dims {
		e := float64(j%3 + 1)
		if maximize[j] = j%2 == 1; maximize[j] {
			ref[j] = -5
			box, inner, outside = append(box, -5+e), append(inner, -5+e/2), append(outside, -6)
		} else {
			ref[j] = 10
			box, inner, outside = append(box, 10-e), append(inner, 10-e/2), append(outside, 9)
		}
	}
	values := slices.Concat(inner, box, outside)
	got := volumeOf(values, dims, maximize, ref)
	if got != 216 {
		t.Errorf("Hypervolume = %v, want 216", got)
	}
}

// TestHypervolumePoolsOnlySmallMatrices checks what a warm call allocates:
// nothing on two columns while the records fit on the stack
// (hv2StackRows); nothing on three, four or five columns while the extents
// (hvPoolValues values) and the sweep are pooled, and the extents and rows
// (2) besides a whole sweep (5) one row above.
func TestHypervolumePoolsOnlySmallMatrices(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, c := range []struct {
		dims, n int
		want    float64
	}{
		{2, hv2StackRows, 0},
		{2, hv2StackRows + 1, 2}, // the records, and SortStable's scratch past 32
		{3, 100, 0},
		{3, hv3SmallMax, 0},
		{3, hv3SmallMax + 1, 0},
		{3, hvPoolValues / 3, 0},
		{4, 100, 0},
		{4, hvPoolValues / 4, 0},
		{4, hvPoolValues/4 + 1, 7},
		{5, 1000, 0},
	} {
		values := shapedExtents(rng, "uniform", c.n, c.dims)
		ref, maximize := make([]float64, c.dims), slices.Repeat([]bool{true}, c.dims)
		checkWarmAllocs(t, fmt.Sprintf("Hypervolume, %d rows of %d columns", c.n, c.dims), c.want, func() {
			_ = volumeOf(values, c.dims, maximize, ref)
		})
	}
}

// TestHypervolumeConcurrentCalls runs Hypervolume from several goroutines
// at once on matrices of three to five columns and of alternating sizes,
// so that pooled buffers pass between calls of every shape: each result
// must equal the one computed alone beforehand.
func TestHypervolumeConcurrentCalls(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	type input struct {
		values, ref []float64
		dims        int
		maximize    []bool
	}
	var inputs []input
	for k, n := range []int{300, 2, 90, 1, 40, 700, 5} {
		dims := 3 + k%3
		inputs = append(inputs, input{shapedExtents(rng, []string{"uniform", "sphere", "grid"}[k%3], n, dims), make([]float64, dims), dims, slices.Repeat([]bool{true}, dims)})
	}
	want := make([]float64, len(inputs))
	for i, in := range inputs {
		want[i] = volumeOf(in.values, in.dims, in.maximize, in.ref)
	}
	concurrently(4, 3*len(inputs), func(g, r int) {
		i := (r + 2*g) % len(inputs)
		in := inputs[i]
		if got := volumeOf(in.values, in.dims, in.maximize, in.ref); got != want[i] {
			t.Errorf("goroutine %d, input %d: Hypervolume = %v; alone %v", g, i, got, want[i])
		}
	})
}

// TestExtentsOnTheBoundary: a row whose value in any one column lies on
// the reference (an extent of 0), beyond it or is NaN is outside the box,
// for each column of the unrolled three- and four-column loops and of the
// general one; a row with every extent positive is in, with its extents.
func TestExtentsOnTheBoundary(t *testing.T) {
	for _, dims := range []int{2, 3, 4, 5} {
		for j := range dims {
			ref, maximize := make([]float64, dims), slices.Repeat([]bool{true}, dims)
			maximize[0] = false // column 0 is minimized: extent ref − v
			ref[0] = 3          // so 1 in column 0 is an extent of 2
			var values []float64
			for k, v := range []float64{0, 2, math.NaN(), -1} {
				row := slices.Repeat([]float64{2}, dims)
				row[0] = 1
				if k != 1 {
					row[j] = v
					if j == 0 {
						row[j] = ref[0] - v // the same extent v
					}
				}
				values = append(values, row...)
			}
			pts, rows := extents(values, 4, dims, maximize, ref)
			if want := slices.Repeat([]float64{2}, dims); !slices.Equal(rows, []int{1}) || !slices.Equal(pts, want) {
				t.Errorf("%d columns, column %d: rows %v extents %v, want [1] and %v", dims, j, rows, pts, want)
			}
		}
	}
}

// TestVolumeRescaledLeavesOutRowsOnTheReference: both columns minimized,
// reference (1e308, 1). Row (−1e308, 0.5) has extents 2e308, which
// overflows and sends Volume to its rescaled path, and 0.5: a volume of
// exactly 1e308 (the halves 5e307 + 5e307 are exact, and so is every
// power of two after). Row (1e308, −Inf) lies on the reference in column
// 0, outside the box, so its infinite extent in column 1 must not make the
// volume infinite.
func TestVolumeRescaledLeavesOutRowsOnTheReference(t *testing.T) {
	values := []float64{-1e308, 0.5, 1e308, math.Inf(-1)}
	if got := volumeOf(values, 2, []bool{false, false}, []float64{1e308, 1}); got != 1e308 {
		t.Errorf("Volume = %v, want 1e308", got)
	}
}

// TestExtentExponent checks the exponent that sets a column's scale in
// hvRescaled and historyRescaled, k with 2^(k-1) ≤ extent < 2^k, where an
// extent marked twice is held as its half.
func TestExtentExponent(t *testing.T) {
	tests := []struct {
		e     float64
		twice bool
		want  int
	}{
		{0.75, false, 0},                // 0.75 in [1/2, 1)
		{0.75, true, 1},                 // 1.5 in [1, 2)
		{1, false, 1},                   // 1 in [1, 2)
		{1, true, 2},                    // 2 in [2, 4)
		{math.MaxFloat64, true, 1025},   // 2·MaxFloat64, just under 2^1025
		{math.MaxFloat64, false, 1024},  // just under 2^1024
		{0x1p-1074, false, -1073},       // the least subnormal, 2^-1074
		{math.Nextafter(2, 0), true, 2}, // twice just under 2: just under 4
	}
	for _, tt := range tests {
		if got := extentExponent(tt.e, tt.twice); got != tt.want {
			t.Errorf("extentExponent(%v, %v) = %d, want %d", tt.e, tt.twice, got, tt.want)
		}
	}
}
