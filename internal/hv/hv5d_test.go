package hv

import (
	"fmt"
	"slices"
	"testing"
)

func TestHV5DByHand(t *testing.T) {
	tests := []struct {
		name string
		pts  []float64 // extents
		want float64
	}{
		{"one row is its box", []float64{1, 2, 3, 4, 5}, 120},
		// 2 + 2 − 1 (the unit hypercube both hold).
		{"two rows overlap in a unit hypercube", []float64{2, 1, 1, 1, 1, 1, 2, 1, 1, 1}, 3},
		// Unit boxes stretched to 2 along each axis in turn share the unit
		// hypercube: 5·2 − 4·1.
		{"five rows long on one axis each", []float64{
			2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 2,
		}, 6},
		{"a row inside another adds nothing", []float64{1, 1, 1, 1, 1, 2, 2, 2, 2, 2}, 32},
		{"a duplicate counts once", []float64{1, 2, 3, 4, 5, 1, 2, 3, 4, 5}, 120},
		// 3·3·1·1·1 + 1·1·3·3·3 − 1 (the unit hypercube both hold).
		{"rows crossing in two and three axes", []float64{3, 3, 1, 1, 1, 1, 1, 3, 3, 3}, 9 + 27 - 1},
		// The second row is ≥ the first in the first four columns and lower
		// in the fifth: 2·2·2·2·1 + 1·1·1·1·(3 − 1).
		{"a row dominated in four columns", []float64{1, 1, 1, 1, 3, 2, 2, 2, 2, 1}, 16 + 2},
		{"no rows", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hv5d(tt.pts); got != tt.want {
				t.Errorf("hv5d = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestHV5DMatchesGridOracle draws coordinates from a handful of values, so
// that ties in every column, duplicates, rows weakly dominated by one row of
// the prefix, rows as good as another in two or three columns and rows
// covered only by several others are common, and compares with the grid
// oracle.
func TestHV5DMatchesGridOracle(t *testing.T) {
	kernelMatchesGridOracle(t, "hv5d", hv5d, 5, 10, true)
}

// TestHV5DMatchesWFG compares with the WFG kernel on larger sets: random
// rows, rows on a sphere (all mutually non-dominated) and rows on a coarse
// grid, where every comparison meets ties.
func TestHV5DMatchesWFG(t *testing.T) {
	kernelMatchesWFG(t, "hv5d", hv5d, 5, 150, 5)
}

// TestHV5DPoolsOnlySmallSweeps checks the pool's policy, and that a pooled
// sweep's buffers are reused, by what a call allocates once the pool is
// warm, on a chain of rows each of which dominates the one before in the
// first four columns (so the prefix holds one row and every call is
// quick): nothing up to hv4PoolRows rows, and one row above a whole sweep
// that is not kept: the sweep, its nodes and L (contribution4 empties
// them for each row, at the size of the input), the order and the radix
// sort's records (above extentKeysMax rows), the prefix and its marks.
func TestHV5DPoolsOnlySmallSweeps(t *testing.T) {
	for _, c := range []struct {
		n    int
		want float64
	}{
		{100, 0},
		{hv4PoolRows, 0},
		{hv4PoolRows + 1, 7},
	} {
		// Row i is (i+1, i+1, i+1, i+1, n−i): rows enter from the first,
		// which each next row replaces in the prefix.
		pts := make([]float64, 0, 5*c.n)
		for i := range c.n {
			e := float64(i + 1)
			pts = append(pts, e, e, e, e, float64(c.n-i))
		}
		checkWarmAllocs(t, fmt.Sprintf("hv5d, %d rows", c.n), c.want, func() { hv5d(pts) })
	}
}

// TestSortLByHand sorts clipped rows into L's order, z, y and x
// descending, where they tie in z, in z and y, or in nothing, so that
// each level of sortRun's radix sorts decides some pair.
func TestSortLByHand(t *testing.T) {
	// Row j's node (x, y, z). By z: row 4 (z = 3), then rows 0, 1, 2 and 5
	// (z = 2), then row 3 (z = 1). Among z = 2, by y: rows 2 and 5 (y = 2),
	// then rows 0 and 1 (y = 1); each pair by x: 5 before 2, 1 before 0.
	nodes := [][3]float64{{1, 1, 2}, {2, 1, 2}, {1, 2, 2}, {3, 3, 1}, {1, 1, 3}, {2, 2, 2}}
	for _, c := range []struct {
		rows, want []int
	}{
		{[]int{0, 1, 2, 3, 4, 5}, []int{4, 5, 2, 1, 0, 3}},
		{[]int{3, 0, 5, 1}, []int{5, 1, 0, 3}},
		{[]int{0}, []int{0}},
		{nil, nil},
	} {
		var s hv5Sweep
		s.reset(len(nodes))
		for j, n := range nodes {
			s.nodes[j+2] = hv4Node{x: n[0], y: n[1], z: n[2]}
		}
		rows := slices.Clone(c.rows)
		if s.sortL(rows); !slices.Equal(rows, c.want) {
			t.Errorf("sortL(%v) = %v, want %v", c.rows, rows, c.want)
		}
	}
}

// TestRowPositionByHand takes each row out of a prefix in order and
// checks that rowPosition puts it back where it was. The rows tie in the
// fourth column and differ in the third, second or first, or in none.
func TestRowPositionByHand(t *testing.T) {
	pts := []float64{
		1, 1, 1, 1, 9, // 0
		2, 1, 1, 1, 9, // 1: 0 but for the first extent
		1, 1, 1, 1, 9, // 2: equal to 0 in the first four columns
		1, 1, 1, 2, 9, // 3: the largest fourth extent
		1, 1, 1, 0.5, 9, // 4: the smallest
		1, 1, 2, 1, 9, // 5: 0 but for the third extent
		1, 2, 1, 1, 9, // 6: 0 but for the second
	}
	// Row 3 first and row 4 last by the fourth extent; of the others 5 by
	// the third, 6 by the second, 1 by the first, and 0 before its equal 2
	// by row.
	order := []int{3, 5, 6, 1, 0, 2, 4}
	if got := extentOrder(pts, 5, 3, 2, 1, 0); !slices.Equal(got, order) {
		t.Fatalf("extentOrder = %v, want %v", got, order)
	}
	for want, i := range order {
		rest := slices.Delete(slices.Clone(order), want, want+1)
		if got := rowPosition(rest, pts, i); got != want {
			t.Errorf("rowPosition(%v, row %d) = %d, want %d", rest, i, got, want)
		}
	}
}

// within3 lets hv5d drop the rows of the prefix that a new row weakly
// dominates in the first three columns; a row equal to p in a column is
// dominated, so each column is tried at equality and just past it.
func TestWithin3AtItsBounds(t *testing.T) {
	p := []float64{2, 2, 2}
	for _, c := range []struct {
		q    []float64
		want int
	}{
		{[]float64{2, 2, 2}, 1},
		{[]float64{1, 1, 1}, 1},
		{[]float64{2, 1, 1}, 1},
		{[]float64{1, 2, 1}, 1},
		{[]float64{1, 1, 2}, 1},
		{[]float64{3, 2, 2}, 0},
		{[]float64{2, 3, 2}, 0},
		{[]float64{2, 2, 3}, 0},
	} {
		if got := within3(c.q, p); got != c.want {
			t.Errorf("within3(%v, %v) = %d, want %d", c.q, p, got, c.want)
		}
	}
}

// beyond3 lets contribution4 pass the rows that the rows setting top
// cover; a row equal to top in a column is covered, so each column is
// tried at equality and just past it.
func TestBeyond3AtItsBounds(t *testing.T) {
	top := [3]float64{2, 2, 2}
	for _, c := range []struct {
		q    []float64
		want int
	}{
		{[]float64{3, 3, 3}, 1},
		{[]float64{2, 3, 3}, 0},
		{[]float64{3, 2, 3}, 0},
		{[]float64{3, 3, 2}, 0},
		{[]float64{1, 1, 1}, 0},
		{[]float64{2, 2, 2}, 0},
	} {
		if got := beyond3(c.q, top); got != c.want {
			t.Errorf("beyond3(%v, %v) = %d, want %d", c.q, top, got, c.want)
		}
	}
}

// TestShortColumn at the corner (2, 2, 2): a value equal to the corner's
// is no worse, so a row at the corner is 3, and one below it in a single
// column is short there.
func TestShortColumn(t *testing.T) {
	for _, c := range []struct {
		q    []float64
		want int
	}{
		{[]float64{2, 2, 2}, 3},
		{[]float64{1, 2, 2}, 0},
		{[]float64{2, 1, 2}, 1},
		{[]float64{2, 2, 1}, 2},
		{[]float64{3, 1, 1}, -1},
		{[]float64{1, 1, 1}, -1},
	} {
		if got := shortColumn(c.q, 2, 2, 2); got != c.want {
			t.Errorf("shortColumn(%v) = %d, want %d", c.q, got, c.want)
		}
	}
}
