package spica

import "math"

// pivotSet is the pre-filter's memory: a few rows that every row is tested
// against before any sort. The best row of each column cuts the edges of the
// cloud; the row of least sum of normalized values sits near the knee of the
// front, where it covers the most. Pivots improve as rows stream by, so one
// pass both picks them and filters, and on random data the survivors are a
// thin shell near the front. Any row is a sound pivot, as dominance by any
// row disqualifies, so the normalization only has to be good, not exact: its
// range comes from a sample of leading rows.
type pivotSet struct {
	dims      int
	keys      []uint64 // dims+1 key rows: the knee, then each column's best
	kneeScore float64
	lo, scale []float64
	flip      []uint64
}

func newPivotSet(values []float64, n, dims int, flip []uint64) *pivotSet {
	// A thousand rows normalize well enough; a quarter of a small pool
	// does too, and sampling all of it would cost as much as the filter.
	sample := min(1024, max(256, n/4))
	p := &pivotSet{dims: dims, flip: flip, keys: make([]uint64, (dims+1)*dims)}
	p.lo = make([]float64, 2*dims)
	p.scale = p.lo[dims:]
	p.lo = p.lo[:dims]
	for c := range dims {
		lo, hi := math.Inf(1), math.Inf(-1)
		for r := range min(n, sample) {
			v := values[r*dims+c]
			if flip[c] != 0 {
				v = -v
			}
			if !math.IsInf(v, 0) {
				lo, hi = min(lo, v), max(hi, v) // NaN wins neither
			}
		}
		if hi > lo && !math.IsNaN(lo) && !math.IsNaN(hi) {
			p.lo[c], p.scale[c] = lo, 1/(hi-lo)
		} // else a flat column does not steer the knee
	}
	for i := range dims + 1 {
		for c := range dims {
			p.keys[i*dims+c] = fastKey(values[c], flip[c])
		}
	}
	p.kneeScore = p.score(values[:dims])
	return p
}

// score is a row's sum of normalized values.
func (p *pivotSet) score(row []float64) float64 {
	s := 0.0
	for c, v := range row {
		if p.flip[c] != 0 {
			v = -v
		}
		s += unitClamp((v - p.lo[c]) * p.scale[c])
	}
	return s
}

// unitClamp clamps x to [0, 1], NaN to 1: NaN and infinities score as the
// worst or best seen.
func unitClamp(x float64) float64 {
	switch {
	case !(x <= 1):
		return 1
	case x < 0:
		return 0
	}
	return x
}

func (p *pivotSet) dominated(row []uint64) bool {
	for i := 0; i < len(p.keys); i += p.dims {
		if keysDominate(p.keys[i:i+p.dims], row) {
			return true
		}
	}
	return false
}

// offer makes a row that passed the filter a pivot where it beats one, and
// reports whether any pivot changed.
func (p *pivotSet) offer(values []float64, row []uint64) bool {
	d := p.dims
	changed := false
	if s := p.score(values); s < p.kneeScore {
		p.kneeScore = s
		copy(p.keys[:d], row)
		changed = true
	}
	for c := range d {
		best := p.keys[(c+1)*d : (c+2)*d]
		if row[c] < best[c] || keysDominate(row, best) {
			copy(best, row)
			changed = true
		}
	}
	return changed
}

// pivotFilter returns the key rows, and the rows, that no pivot dominates,
// in row order.
//
// When most of the first probe rows survive, as when every row is on the
// front, testing pivots only costs, and the filter stands down: it returns
// every key row and nil rows.
func pivotFilter(values []float64, n, dims int, flip []uint64, probe int) (keys []uint64, rows []int) {
	p := newPivotSet(values, n, dims, flip)
	keys = make([]uint64, 0, min(n, 4096)*dims)
	rows = make([]int, 0, min(n, 4096))
	row := make([]uint64, dims)
	stale := 0 // survivors before this one were tested against older pivots
	for r := 0; r < n; r++ {
		if r == probe && 2*len(rows) > r {
			return keyMatrix(values, dims, flip), nil
		}
		v := values[r*dims : (r+1)*dims]
		for c, x := range v {
			row[c] = fastKey(x, flip[c])
		}
		if p.dominated(row) {
			continue
		}
		if len(rows) == cap(rows) {
			c := growCap(cap(rows), n)
			keys = append(make([]uint64, 0, c*dims), keys...)
			rows = append(make([]int, 0, c), rows...)
		}
		keys = append(keys, row...)
		rows = append(rows, r)
		if p.offer(v, row) {
			stale = len(rows)
		}
	}
	f := 0
	for j, r := range rows {
		kj := keys[j*dims : (j+1)*dims]
		if j >= stale || !p.dominated(kj) {
			copy(keys[f*dims:], kj)
			rows[f] = r
			f++
		}
	}
	return keys[:f*dims], rows[:f]
}

// growCap is the next capacity for the survivors of a pre-filter over n rows.
// Survivors are few on most data, so buffers start small; growing first to
// an eighth and then to all of n keeps a call to at most three allocations
// of each buffer, however many survive.
func growCap(c, n int) int {
	if c < n/8 {
		return n / 8
	}
	return n
}
