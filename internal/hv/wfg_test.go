package hv

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// lattice returns every vector of dims non-negative integers summing to k,
// each followed by the columns of tail.
func lattice(dims, k int, tail ...float64) []float64 {
	var out []float64
	var rec func(prefix []float64, left int)
	rec = func(prefix []float64, left int) {
		if len(prefix) == dims-1 {
			out = append(out, prefix...)
			out = append(out, float64(left))
			out = append(out, tail...)
			return
		}
		for v := 0; v <= left; v++ {
			rec(append(prefix, float64(v)), left-v)
		}
	}
	rec(nil, k)
	return out
}

// TestHypervolumeOfALatticeFront takes the 84 vectors of four non-negative
// integers summing to 6, maximized over the reference point (-1, -1, -1, -1),
// and the 56 summing to 5, which they dominate. A unit cell with upper
// corner c+1 (c ≥ 0 integer) is covered iff some row is ≥ c, that is iff
// c sums to at most 6, so the volume is the number of such c: C(10, 4) =
// 210, and each row of sum 6 alone covers its own cell, a share of 1.
//
// A row (6, 6, 6, 6) on top dominates them all, so its limited set is the
// 84 rows plus the 56 they cover: more than WFG's filter keeps, which is
// the path through weaklyNonDominated. Its share is 7^4 − 210 = 2191.
// With a fifth column, 1 for the lattice and 0 for the top row, the volume
// is 7^4 for the top row's box plus the lattice's 210 over the slab from
// 1 to 2: 2611.
func TestHypervolumeOfALatticeFront(t *testing.T) {
	top, dominated := lattice(4, 6), lattice(4, 5)
	rows := append(slices.Clone(top), dominated...)
	up := []bool{true, true, true, true, true}
	ref := []float64{-1, -1, -1, -1, -1}
	n6, n5 := len(top)/4, len(dominated)/4
	if n6 != 84 || n5 != 56 {
		t.Fatalf("lattice sizes %d, %d; want 84, 56", n6, n5)
	}

	wantShares := make([]float64, n6+n5)
	for i := range n6 {
		wantShares[i] = 1
	}
	for _, tc := range []struct {
		name   string
		values []float64
		dims   int
		volume float64
		shares []float64
	}{
		{"the lattice", rows, 4, 210, wantShares},
		{"the lattice under one row", append([]float64{6, 6, 6, 6}, rows...), 4, 2401, append([]float64{2191}, make([]float64, n6+n5)...)},
		{"five columns", append([]float64{6, 6, 6, 6, 0}, append(lattice(4, 6, 1), lattice(4, 5, 1)...)...), 5, 2611, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := volumeOf(tc.values, tc.dims, up[:tc.dims], ref[:tc.dims])
			if got != tc.volume {
				t.Errorf("Hypervolume = %v; want %v", got, tc.volume)
			}
			if tc.shares == nil {
				return
			}
			shares := sharesOf(tc.values, tc.dims, up[:tc.dims], ref[:tc.dims])
			if diff := cmp.Diff(tc.shares, shares); diff != "" {
				t.Errorf("shares (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWeaklyNonDominated checks the filter on rows whose answer is known by
// hand: copies keep one, covered rows go, incomparable rows stay.
func TestWeaklyNonDominated(t *testing.T) {
	for _, tc := range []struct {
		pts, want []float64
	}{
		{nil, []float64{}},
		{[]float64{1, 2, 3, 4}, []float64{1, 2, 3, 4}},
		{[]float64{1, 2, 3, 4, 1, 2, 3, 4}, []float64{1, 2, 3, 4}},
		{[]float64{1, 1, 1, 1, 2, 2, 2, 2, 1, 2, 1, 2}, []float64{2, 2, 2, 2}},
		{[]float64{4, 1, 1, 1, 1, 4, 1, 1, 1, 1, 4, 1, 1, 1, 1, 4, 1, 1, 1, 1}, []float64{4, 1, 1, 1, 1, 4, 1, 1, 1, 1, 4, 1, 1, 1, 1, 4}},
	} {
		t.Run(fmt.Sprint(tc.pts), func(t *testing.T) {
			got := weaklyNonDominated(tc.pts, 4)
			// The order is by decreasing sum, ties unspecified: compare as
			// sets of rows.
			if diff := cmp.Diff(rowSet(tc.want, 4), rowSet(got, 4)); diff != "" {
				t.Errorf("weaklyNonDominated(%v) (-want +got):\n%s", tc.pts, diff)
			}
		})
	}
}

func rowSet(pts []float64, d int) [][]float64 {
	rows := [][]float64{}
	for i := 0; i < len(pts); i += d {
		rows = append(rows, pts[i:i+d])
	}
	slices.SortFunc(rows, slices.Compare)
	return rows
}

// TestLimit checks limit's rows and covered flag on inputs small enough to
// clip and filter by hand; p is larger than every row in the cases that
// build a set, so each clipped row is the row itself.
func TestLimit(t *testing.T) {
	for _, tc := range []struct {
		name    string
		p, pts  []float64
		rows    []int
		skip    int
		want    []float64
		covered bool
	}{
		// A row equal to p, or equal in one column and above in the rest,
		// is ≥ p everywhere: nothing of p is exclusive.
		{"a copy of p", []float64{2, 3, 4}, []float64{2, 3, 4}, []int{0}, -1, nil, true},
		{"equal in one column, above in the rest", []float64{2, 3, 4}, []float64{2, 5, 9}, []int{0}, -1, nil, true},
		// The row at 1 is skipped, so nothing covers p and the copy of
		// (1, 5, 1) clipped to p is all that is left.
		{"the skipped row is not seen", []float64{10, 10, 10}, []float64{1, 5, 1, 10, 10, 10}, []int{0, 1}, 1, []float64{1, 5, 1}, false},
		// (4, 1, 1) is covered by (5, 1, 1), the first kept row: it goes,
		// and the order stays.
		{"the first row covers a clipped row", []float64{10, 10, 10}, []float64{5, 1, 1, 1, 5, 1, 4, 1, 1}, []int{0, 1, 2}, -1, []float64{5, 1, 1, 1, 5, 1}, false},
		// (1, 4, 1) is covered by (1, 5, 1) alone, the second kept row:
		// it goes, and (1, 5, 1) moves to the front.
		{"the covering row moves to the front", []float64{10, 10, 10}, []float64{5, 1, 1, 1, 5, 1, 1, 4, 1}, []int{0, 1, 2}, -1, []float64{1, 5, 1, 5, 1, 1}, false},
		// Clipping to p = (3, 3, 3): (5, 1, 1) becomes (3, 1, 1), and
		// (4, 2, 1) becomes (3, 2, 1), which covers it.
		{"rows are clipped before the check", []float64{3, 3, 3}, []float64{5, 1, 1, 4, 2, 1}, []int{0, 1}, -1, []float64{3, 2, 1}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l limiter
			got, covered := l.limit(tc.p, tc.pts, len(tc.p), tc.rows, tc.skip)
			if covered != tc.covered {
				t.Errorf("covered = %v; want %v", covered, tc.covered)
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("limited (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLimitFilterCap puts n mutually incomparable rows (1+i, 64−i, 1, …)
// under p = (100, …), then the row (1, …, 1) that each of them covers. The
// filter runs while fewer than filterCap rows are kept: with n =
// filterCap−1 it sees the last row and drops it; with n = filterCap it is
// off, and the last row stays in three columns, where the sweep copes with
// it, and is dropped by weaklyNonDominated in four.
func TestLimitFilterCap(t *testing.T) {
	for _, tc := range []struct {
		d, n int
		kept bool
	}{
		{3, filterCap - 1, false},
		{3, filterCap, true},
		{4, filterCap - 1, false},
		{4, filterCap, false},
	} {
		t.Run(fmt.Sprint(tc.d, "×", tc.n), func(t *testing.T) {
			var pts, want []float64
			for i := range tc.n {
				pts = append(pts, float64(1+i), float64(64-i))
				for range tc.d - 2 {
					pts = append(pts, 1)
				}
			}
			want = slices.Clone(pts)
			for range tc.d {
				pts = append(pts, 1)
			}
			if tc.kept {
				want = pts
			}
			p := make([]float64, tc.d)
			for c := range p {
				p[c] = 100
			}
			var l limiter
			got, covered := l.limit(p, pts, tc.d, indices(tc.n+1), -1)
			if covered {
				t.Fatal("covered = true; want false")
			}
			// Only weaklyNonDominated reorders, by sum, and every row here
			// but the last sums to 65 + (d−2): compare in order in three
			// columns, as sets in four.
			if tc.d == 3 {
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("limited (-want +got):\n%s", diff)
				}
				return
			}
			if diff := cmp.Diff(rowSet(want, tc.d), rowSet(got, tc.d)); diff != "" {
				t.Errorf("limited (-want +got):\n%s", diff)
			}
		})
	}
}
