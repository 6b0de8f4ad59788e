package spica

import (
	"math"
)

// HypervolumeHistory returns, for each i, the [Hypervolume] of rows 0..i of
// an n×dims row-major matrix against the reference point ref: the
// convergence curve of a search whose rows are in evaluation order, as
// Optuna's plot_hypervolume_history draws it. The curve never decreases; each
// entry equals a separate Hypervolume call on that prefix up to rounding
// (within 1e-12 relative in the tests), and once a row with an infinite
// extent inside the box arrives every later entry is +Inf.
//
// It is incremental: each row adds the volume it covers beyond the rows
// before it. One column costs O(n); two cost O(n log n) in all (a staircase
// over the rows' ranks in the first column, kept in a 64-ary bit tree). With
// three or more columns a row costs a check against the current front, f
// rows, and a row that enters it the hypervolume of the front clipped to
// its box: O(n·f + m·f log f) for m front entries with three columns, which
// is near O(n log n) when most rows are dominated by earlier ones and
// O(n² log n) when every row enters the front. An O(n log n) bound for
// three columns would integrate over a fourth column into an O(n log n)
// four-dimensional hypervolume, better than any known (O(n²), Guerreiro and
// Fonseca, CCCG 2012; O(n^(4/3) polylog n), Chan, FOCS 2013).
//
// Errors are those of [Hypervolume]. An empty matrix gives an empty,
// non-nil slice. values, maximize and ref are not modified.
func HypervolumeHistory(values []float64, dims int, maximize []bool, ref []float64) ([]float64, error) {
	n, err := checkHypervolume(values, dims, maximize, ref)
	if err != nil {
		return nil, err
	}
	out := make([]float64, n)
	pts, rows := extents(values, n, dims, maximize, ref)
	// A row with an infinite extent makes every later volume +Inf, so only
	// the rows before the first one are measured.
	m := len(rows)
	for k := range rows {
		if hasInf(pts[k*dims : (k+1)*dims]) {
			m = k
			break
		}
	}
	var gain []float64
	switch dims {
	case 1:
		gain = historyGains1(pts[:m])
	case 2:
		gain = historyGains2(pts[:2*m])
	default:
		gain = historyGainsMany(pts[:m*dims], dims)
	}
	total, k := 0.0, 0
	for i := range out {
		if k < len(rows) && rows[k] == i {
			if k < m {
				total += gain[k]
			} else {
				total = math.Inf(1)
			}
			k++
		}
		out[i] = total
	}
	return out, nil
}

func hasInf(p []float64) bool {
	for _, e := range p {
		if math.IsInf(e, 1) {
			return true
		}
	}
	return false
}

// historyGains1 is the gain of each extent over the largest before it.
func historyGains1(pts []float64) []float64 {
	gain := make([]float64, len(pts))
	top := 0.0
	for k, e := range pts {
		if e > top {
			gain[k], top = e-top, e
		}
	}
	return gain
}

// historyGains2 returns, for each row of a finite two-column extent matrix,
// the area its box adds to the union of the boxes of the rows before it.
// The rows are ranked by x once, offline, so the staircase of the rows seen
// so far lives in a bit tree over the ranks: a covered row costs one
// neighbour lookup, and an insertion walks only the steps it removes, each
// removed once, so the whole pass is O(n log₆₄ n) after the radix sort.
func historyGains2(pts []float64) []float64 {
	m := len(pts) / 2
	gain := make([]float64, m)
	a := make([]ndRec, m)
	for i := range a {
		a[i] = ndRec{math.Float64bits(pts[2*i]), uint64(i)}
	}
	a = sortStable(a, nil)
	rank := make([]int, m)
	x, y := make([]float64, m), make([]float64, m)
	for r, e := range a {
		i := int(e.aux)
		rank[i] = r
		x[r], y[r] = pts[2*i], pts[2*i+1]
	}
	t := staircase{set: newRankSet(m), x: x, y: y}
	var removed []int
	for i := range m {
		if r := rank[i]; !t.covers(r) {
			gain[i], removed = t.insert(r, 0, 0, removed[:0])
		}
	}
	return gain
}

// historyGainsMany returns, for each row of a finite extent matrix with
// dims ≥ 3 columns, the volume its box adds to the union of the boxes of the
// rows before it: its box minus the hypervolume of the current front clipped
// to it (WFG's exclusive volume). The front is kept as a list of rows; the
// row that last covered a newcomer moves to its head, since on data where
// most rows are dominated a few strong rows cover most newcomers.
func historyGainsMany(pts []float64, dims int) []float64 {
	m := len(pts) / dims
	gain := make([]float64, m)
	var front []int
	var l limiter
	for i := range m {
		p := pts[i*dims : (i+1)*dims]
		if j := coveringRow(pts, dims, front, p); j >= 0 {
			front[0], front[j] = front[j], front[0]
			continue
		}
		limited, _ := l.limit(p, pts, dims, front, -1)
		g := product(p)
		if len(limited) > 0 {
			g -= hvFinite(limited, dims)
		}
		gain[i] = max(saturate(g), 0)
		kept := front[:0]
		for _, q := range front {
			if !coveredBy(p, pts[q*dims:(q+1)*dims]) {
				kept = append(kept, q)
			}
		}
		front = append(kept, i)
	}
	return gain
}

// coveringRow returns the position in front of a row ≥ p in every column,
// or -1.
func coveringRow(pts []float64, dims int, front []int, p []float64) int {
	for k, q := range front {
		if coveredBy(pts[q*dims:(q+1)*dims], p) {
			return k
		}
	}
	return -1
}
