package spica

import (
	"cmp"
	"slices"
)

// hv3SmallMax is the number of rows up to which hvFinite measures three
// columns with hv3Small rather than hv3. A variable so that tests can force
// either path.
var hv3SmallMax = 256

// hv3Small is hv3 for a few rows, with nothing to set up: the same sweep
// down the third extent (Beume et al., see [Hypervolume]), but with the
// staircase in a plain slice searched and spliced linearly, O(n·s) for a
// staircase of at most s steps. For fronts of tens to hundreds of rows that
// is less work than ranking the rows, sizing a bit tree and sorting twice,
// which is what hv3 spends its time on at that size.
func hv3Small(pts []float64) float64 {
	m := len(pts) / 3
	if m == 0 {
		return 0
	}
	type row struct{ x, y, z float64 }
	rows := make([]row, m)
	for i := range rows {
		rows[i] = row{pts[3*i], pts[3*i+1], pts[3*i+2]}
	}
	// Highest first; ties by y and x, so that the sums are formed in an
	// order that does not depend on the order of the input.
	slices.SortFunc(rows, func(a, b row) int {
		if c := cmp.Compare(b.z, a.z); c != 0 {
			return c
		}
		if c := cmp.Compare(b.y, a.y); c != 0 {
			return c
		}
		return cmp.Compare(b.x, a.x)
	})
	type step struct{ x, y float64 }
	stair := make([]step, 0, 16) // x ascending, y descending
	vol, area, zPrev := 0.0, 0.0, rows[0].z
	for _, r := range rows {
		vol += area * (zPrev - r.z)
		zPrev = r.z
		// j is the first step with x ≥ r.x: the highest of those, so the
		// only one that can cover r.
		j := 0
		for j < len(stair) && stair[j].x < r.x {
			j++
		}
		if j < len(stair) && stair[j].y >= r.y {
			continue
		}
		// The steps r covers are a run ending at j (or j itself, on a tie
		// in x); the area r adds is its rectangle minus theirs, right of
		// the step before the run and above the step after it.
		i := j
		for i > 0 && stair[i-1].y <= r.y {
			i--
		}
		end := j
		if end < len(stair) && stair[end].x == r.x {
			end++
		}
		from := 0.0
		if i > 0 {
			from = stair[i-1].x
		}
		gain := 0.0
		for _, s := range stair[i:end] {
			gain += (s.x - from) * (r.y - s.y)
			from = s.x
		}
		below := 0.0
		if end < len(stair) {
			below = stair[end].y
		}
		area += gain + (r.x-from)*(r.y-below)
		stair = slices.Replace(stair, i, end, step{r.x, r.y})
	}
	return vol + area*zPrev
}
