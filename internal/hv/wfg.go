package hv

import (
	"cmp"
	"slices"

	"github.com/spica-search/spica/internal/nd"
)

// wfg is the hypervolume of finite, positive extents in dims ≥ 4 columns,
// by WFG: L. While, L. Bradstreet and L. Barone, "A fast way of calculating
// exact hypervolumes", IEEE TEVC 16(1), 2012, with hvFinite of one column
// fewer as its base case (hv5d for six columns); exponential in dims in the
// worst case. Four and five columns go to hv4d and hv5d instead; this
// kernel still measures them in tests, as a second opinion.
// With the rows in increasing last extent c, the volume is the sum over rows
// of c times the row's exclusive (dims−1)-volume against the rows after it,
// and that exclusive volume is the row's own box minus the hypervolume of the
// later rows clipped to it: the limited set, which is small after filtering
// because most clipped rows fall inside others.
func wfg(pts []float64, dims int) float64 {
	m := len(pts) / dims
	if m == 0 {
		return 0
	}
	order := indices(m)
	last := dims - 1
	slices.SortFunc(order, func(i, j int) int { return cmp.Compare(pts[i*dims+last], pts[j*dims+last]) })
	vol := 0.0
	var l limiter
	for k, i := range order {
		p := pts[i*dims : i*dims+last]
		limited, covered := l.limit(p, pts, dims, order[k+1:], -1)
		if covered {
			continue
		}
		// hvFinite of no rows is 0 in every kernel, so an empty limited set
		// needs no branch of its own.
		excl := product(p) - hvFinite(limited, last)
		vol += pts[i*dims+last] * excl
	}
	return vol
}

// indices returns 0, 1, …, m−1.
func indices(m int) []int {
	out := make([]int, m)
	for i := range out {
		out[i] = i
	}
	return out
}

// limiter builds WFG's limited sets, reusing its buffers.
type limiter struct{ rows, clip []float64 }

// filterCap is the number of limited rows up to which each new one is
// checked against those kept. Limited sets of fronts are mostly covered, so
// the check usually keeps them tiny; when it does not, the three-column
// sweep copes with covered rows at no extra cost and a sort-based filter
// takes over above three columns (HV4D+ drops a weakly dominated row in one
// pass, but a row covered only by several others costs it a full step).
const filterCap = 64

// limit returns the rows min(p, q) for the rows q of pts (stride dims)
// listed in rows other than skip, with p's width, dropping rows another one
// covers; covered reports that some q is ≥ p in all of p's columns, when
// nothing of p is exclusive and the set is not built.
func (l *limiter) limit(p, pts []float64, dims int, rows []int, skip int) (limited []float64, covered bool) {
	d := len(p)
	l.rows = l.rows[:0]
	clip := nd.Grow(&l.clip, d)
	filtering := true
	for _, j := range rows {
		if j == skip {
			continue
		}
		q := pts[j*dims : j*dims+d]
		all := true
		for c, v := range p {
			w := q[c]
			all = all && w >= v
			clip[c] = min(v, w)
		}
		if all {
			return nil, true
		}
		if !filtering {
			l.rows = append(l.rows, clip...)
			continue
		}
		if k := firstCovering(l.rows, clip); k >= 0 {
			// The row that covers one clipped row tends to cover the next:
			// moving it to the front makes the next check short. At offset
			// 0 it is there already.
			if k != 0 {
				a, b := l.rows[:d], l.rows[k:k+d]
				for c := range d {
					a[c], b[c] = b[c], a[c]
				}
			}
			continue
		}
		kept := l.rows[:0]
		for s := 0; s < len(l.rows); s += d {
			if !coveredBy(clip, l.rows[s:s+d]) {
				kept = append(kept, l.rows[s:s+d]...)
			}
		}
		l.rows = append(kept, clip...)
		filtering = len(l.rows) < filterCap*d
	}
	if !filtering && d >= 4 {
		return weaklyNonDominated(l.rows, d), false
	}
	return l.rows, false
}

func product(p []float64) float64 {
	v := 1.0
	for _, e := range p {
		v *= e
	}
	return v
}

// weaklyNonDominated returns the rows of an extent matrix that no other
// kept row is ≥ in every column, keeping one copy of equal rows. Visiting
// rows by decreasing coordinate sum, a row can only be covered by one seen
// before it (float addition is monotone), so each row is checked against the
// kept ones alone: O(n·k) for k kept rows. Keeping a few covered rows would
// only cost time, never accuracy.
func weaklyNonDominated(pts []float64, dims int) []float64 {
	m := len(pts) / dims
	order := make([]int, m)
	sums := make([]float64, m)
	for i := range order {
		order[i] = i
		for _, e := range pts[i*dims : (i+1)*dims] {
			sums[i] += e
		}
	}
	slices.SortFunc(order, func(i, j int) int { return cmp.Compare(sums[j], sums[i]) })
	out := make([]float64, 0, len(pts))
	for _, i := range order {
		p := pts[i*dims : (i+1)*dims]
		if !coveredBy(out, p) {
			out = append(out, p...)
		}
	}
	return out
}

// firstCovering returns the offset in rows of the first row that is ≥ p in
// every column, or -1.
func firstCovering(rows, p []float64) int {
	d := len(p)
next:
	for k := 0; k < len(rows); k += d {
		for c, v := range p {
			if rows[k+c] < v {
				continue next
			}
		}
		return k
	}
	return -1
}

// coveredBy reports whether some row of the matrix rows is ≥ p in every
// column.
func coveredBy(rows, p []float64) bool { return firstCovering(rows, p) >= 0 }
