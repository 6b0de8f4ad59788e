package hv

import (
	"sync"

	"github.com/spica-search/spica/internal/nd"
)

// hv3SmallMax is the number of rows up to which hvFinite measures three
// columns with hv3Small rather than hv3. A variable so that tests can force
// either path.
var hv3SmallMax = 256

// byHV3Small reports whether hvFinite measures a three-column extent matrix
// of the given number of values with hv3Small: both sweeps give the same
// volume, so only this choice shows where one hands over to the other.
func byHV3Small(values int) bool { return values <= 3*hv3SmallMax }

// hv3SmallScratch is hv3Small's memory, pooled: at most hv3SmallMax rows,
// it stays small, and on the fronts of tens of rows that most calls measure
// allocating it cost about as much as the sweep.
type hv3SmallScratch struct {
	rows  []hv3Row
	stair []hv3Step
	extentSort
}

type (
	hv3Row  struct{ x, y, z float64 }
	hv3Step struct{ x, y float64 }
)

var hv3SmallPool = sync.Pool{New: func() any { return new(hv3SmallScratch) }}

// hv3Small is hv3 for a few rows, with nothing to set up: the same sweep
// down the third extent (Beume et al., see [Volume]), but with the
// staircase in a plain slice, searched by bisection and spliced by copying,
// O(n·s) for a staircase of at most s steps. For fronts of tens to hundreds of rows that
// is less work than ranking the rows, sizing a bit tree and sorting twice,
// which is what hv3 spends its time on at that size.
func hv3Small(pts []float64) float64 {
	if len(pts) < 3 {
		return 0
	}
	sc := hv3SmallPool.Get().(*hv3SmallScratch)
	defer hv3SmallPool.Put(sc)
	return sc.volume(pts)
}

// volume is hv3Small on the scratch's memory, for at least one row. It
// leaves the last staircase in sc.stair: the steps of the rows' projection
// on the first two extents, x ascending, no step covering another.
func (sc *hv3SmallScratch) volume(pts []float64) float64 {
	m := len(pts) / 3
	rows := nd.Grow(&sc.rows, m)
	// Highest first, ties by y and x (see extentOrder).
	for k, i := range sc.sort(pts, 3, 2, 1, 0) {
		rows[k] = hv3Row{pts[3*i], pts[3*i+1], pts[3*i+2]}
	}
	stair := sc.stair[:0] // x ascending, y descending
	vol, area, zPrev := 0.0, 0.0, rows[0].z
	for _, r := range rows {
		vol += area * (zPrev - r.z)
		zPrev = r.z
		// j is the first step with x ≥ r.x: the highest of those, so the
		// only one that can cover r.
		j, hi := 0, len(stair)
		for j < hi {
			if h := int(uint(j+hi) >> 1); stair[h].x < r.x {
				j = h + 1
			} else {
				hi = h
			}
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
		// Splice r in for the run, by hand: slices.Replace costs more than
		// the rest of a step at this size.
		switch end - i {
		case 0:
			stair = append(stair, hv3Step{})
			copy(stair[i+1:], stair[i:])
		case 1:
		default:
			stair = append(stair[:i+1], stair[end:]...)
		}
		stair[i] = hv3Step{r.x, r.y}
	}
	sc.stair = stair
	return vol + area*zPrev
}
