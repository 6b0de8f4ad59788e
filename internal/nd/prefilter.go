package nd

import "math"

// pivotSet is the pre-filter's memory: a few rows that every row is tested
// against before any sort. The best row of each column cuts the edges of the
// cloud; the row of least sum of normalized values sits near the knee of the
// front, where it covers the most. Pivots improve as rows stream by, so one
// pass both picks them and filters, and on random data the survivors are a
// thin shell near the front. Any row is a sound pivot, as dominance by any
// row disqualifies, so the normalization only has to be good, not exact: its
// range comes from a sample of leading rows.
//
// With four or more columns one knee covers too little of the front (on
// 10^5 uniform rows of six columns, the best row by sum dominates 55% of
// them), so more knees join: the rows of least weighted sum for fixed
// weight vectors spread over the simplex, each the best of its direction.
// Thirty-two such knees leave about 8% of those rows.
type pivotSet struct {
	dims      int
	keys      []uint64 // key rows: the knee, each column's best, then the weighted knees
	kneeScore float64
	lo, scale []float64
	flip      []uint64
	weights   []float64 // dims per weighted knee
	scores    []float64 // each weighted knee's score
	norm      []float64 // scratch: a row's normalized values
}

// weightedKnees is the number of weighted knees for dims columns.
func weightedKnees(dims int) int {
	if dims < 4 {
		return 0
	}
	return 32
}

// newPivotSet returns the pivots of a pool, in sc's memory where sc is not
// nil (then valid until sc is used again).
func newPivotSet(values []float64, n, dims int, flip []uint64, sc *marksScratch) *pivotSet {
	// A thousand rows normalize well enough; a quarter of a small pool
	// does too, and sampling all of it would cost as much as the filter.
	sample := min(1024, max(256, n/4))
	wk := weightedKnees(dims)
	// The keys and a copy of flip, which the caller may keep on its stack.
	var u []uint64
	var f []float64
	var p *pivotSet
	if sc == nil {
		u, f, p = make([]uint64, (dims+1+wk)*dims+dims), make([]float64, 3*dims+wk*dims+wk), new(pivotSet)
	} else {
		u, f, p = Grow(&sc.u, (dims+1+wk)*dims+dims), Grow(&sc.f, 3*dims+wk*dims+wk), &sc.pivot
		clear(f) // a flat column keeps lo and scale 0
	}
	*p = pivotSet{dims: dims, keys: u[:len(u)-dims], flip: u[len(u)-dims:]}
	copy(p.flip, flip)
	p.lo, p.scale, p.norm = f[:dims], f[dims:2*dims], f[2*dims:3*dims]
	p.weights, p.scores = f[3*dims:3*dims+wk*dims], f[3*dims+wk*dims:]
	// Exponential weights normalized are uniform on the simplex; a fixed
	// xorshift stream keeps the knees, and so the work, deterministic.
	x := uint64(0x9E3779B97F4A7C15)
	for i := range p.weights {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		p.weights[i] = -math.Log((float64(x>>11) + 1) / (1 << 53))
	}
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
	for i := range dims + 1 + wk {
		for c := range dims {
			p.keys[i*dims+c] = FastKey(values[c], flip[c])
		}
	}
	p.kneeScore = p.score(values[:dims])
	for i := range wk {
		p.scores[i] = p.weighted(i)
	}
	return p
}

// weighted is weighted knee i's score of the row whose normalized values
// score last filled into norm.
func (p *pivotSet) weighted(i int) float64 {
	s := 0.0
	for c, w := range p.weights[i*p.dims : (i+1)*p.dims] {
		s += w * p.norm[c]
	}
	return s
}

// score is a row's sum of normalized values.
func (p *pivotSet) score(row []float64) float64 {
	s := 0.0
	for c, v := range row {
		if p.flip[c] != 0 {
			v = -v
		}
		u := unitClamp((v - p.lo[c]) * p.scale[c])
		p.norm[c] = u
		s += u
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
	if p.dims == 3 {
		// Most rows of a small pool stop here, so three columns, the
		// common case, get the test unrolled.
		x0, x1, x2 := row[0], row[1], row[2]
		for i := 0; i+3 <= len(p.keys); i += 3 {
			q := p.keys[i : i+3 : i+3]
			if q[0] <= x0 && q[1] <= x1 && q[2] <= x2 && (q[0] < x0 || q[1] < x1 || q[2] < x2) {
				return true
			}
		}
		return false
	}
	for i := 0; i < len(p.keys); i += p.dims {
		if KeysDominate(p.keys[i:i+p.dims], row) {
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
		if row[c] < best[c] || KeysDominate(row, best) {
			copy(best, row)
			changed = true
		}
	}
	for i, best := range p.scores {
		if s := p.weighted(i); s < best {
			p.scores[i] = s
			copy(p.keys[(d+1+i)*d:(d+2+i)*d], row)
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
//
// Where sc is not nil, keys and rows are in its memory, room for every row
// from the start, and valid until sc is used again.
func pivotFilter(values []float64, n, dims int, flip []uint64, probe int, sc *marksScratch) (keys []uint64, rows []int) {
	p := newPivotSet(values, n, dims, flip, sc)
	var row []uint64
	if sc == nil {
		// Survivors are few on most data; on a small pool a quarter of it
		// is room enough, and allocating less keeps a small call small.
		c := min(n, 4096, max(n/4, 64))
		keys, rows, row = make([]uint64, 0, c*dims), make([]int, 0, c), make([]uint64, dims)
	} else {
		keys, rows, row = Grow(&sc.keys, n*dims)[:0], Grow(&sc.rows, n)[:0], Grow(&sc.row, dims)
	}
	stale := 0 // survivors before this one were tested against older pivots
	for r := 0; r < n; r++ {
		if r == probe && 2*len(rows) > r {
			return sc.keyMatrix(values, n, dims, flip), nil
		}
		v := values[r*dims : (r+1)*dims]
		for c, x := range v {
			row[c] = FastKey(x, flip[c])
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
