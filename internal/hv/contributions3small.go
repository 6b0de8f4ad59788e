package hv

import (
	"math/bits"
	"sync"

	"github.com/spica-search/spica/internal/nd"
)

// contributions3SmallMax is the number of rows up to which three columns go
// to contributions3Small rather than contributions3. At 512 rows the
// slices are about 4 times faster on rows in a cube or on a sphere (24 µs
// against 110, 57 against 220) and level on rows whose projections all
// form one staircase, the worst case of their O(n·s) (min 97 against 101
// µs); at 1024 that case is 1.6 times slower. A variable so that tests can
// force either path; contributions3Small never gets more than
// contrib3SmallIndex+1 rows, whatever its value.
var contributions3SmallMax = 512

// contrib3SmallIndex masks the row index packed into the low bits of a sort
// key, by contributions3Small and extentKeys (see sortKeysByValue).
const contrib3SmallIndex = 1<<16 - 1

// contrib3Row is a row of contributions3Small: its oriented coordinates,
// its exclusive area while on the front and the height at which it took
// that value, and two links: head, for a front row, is the first of the
// back rows inside its rectangle, and next, for a back row, the one after
// it there. The back rows of a rectangle form a staircase, x ascending and
// y descending, each right of the rectangle's left side and above its
// bottom (a row on either would change no area, but is dropped).
type contrib3Row struct {
	x, y, z     float64
	area, since float64
	head, next  int32
}

// contrib3Step is a step of the front of contributions3Small, with x and y
// at hand for the search.
type contrib3Step struct {
	x, y float64
	row  int32
}

// contrib3CountMax is the longest front contrib3Search counts rather than
// bisects: up to about there the independent comparisons cost less than
// the dependent steps of a bisection.
const contrib3CountMax = 16

// contrib3Counts reports whether contrib3Search counts the steps of a front
// of n steps rather than bisecting it.
func contrib3Counts(n int) bool { return n <= contrib3CountMax }

// contrib3Search returns the first step of front with x ≥ v: on a short
// front by counting the steps left of v, comparisons that do not wait on
// one another, and on a longer one by bisection whose comparison moves the
// base through a mask rather than a branch, which data would mispredict
// half the time.
func contrib3Search(front []contrib3Step, v float64) int {
	j := 0
	if contrib3Counts(len(front)) {
		for _, f := range front {
			j += nd.OneIf(f.x < v)
		}
		return j
	}
	for n := len(front); n > 1; {
		half := n >> 1
		j += half & -nd.OneIf(front[j+half-1].x < v)
		n -= half
	}
	// A bisected front is longer than contrib3CountMax, so never empty.
	if front[j].x < v {
		j++
	}
	return j
}

// sortKeys sorts a, of distinct keys, ascending, with buf (as long) as
// scratch. It deals the keys into buckets of equal key width, between n/2
// and n of them up to 256, which on keys spread as coordinates are costs a
// pass each way, and finishes by insertion within the buckets; a bucket
// that more than a few keys crowd into is dealt again, on its own range,
// as keys that are float bit patterns do when most values share a binade
// (the fourth extents of a U4 front). On a few dozen keys that avoids what
// dominates a comparison sort: branches that random order mispredicts half
// the time (76 keys of the U3 front, medians of one run: 0.97 µs against
// 1.47 for slices.Sort). Each dealing narrows a crowded bucket's range by
// at least 2⁴, so at most 16 are nested.
func sortKeys(a, buf []uint64) {
	n := len(a)
	if n < 2 {
		return
	}
	lo, hi := a[0], a[0]
	for _, k := range a {
		lo, hi = min(lo, k), max(hi, k)
	}
	width := min(bits.Len(uint(n>>1)), 8) // 2^width ≤ n buckets, n ≥ 2
	shift := max(bits.Len64(hi-lo)-width, 0)
	var start [257]int32
	for _, k := range a {
		start[(k-lo)>>shift+1]++
	}
	crowded := false
	for b := range 1 << width {
		start[b+1] += start[b]
		crowded = crowded || sortKeysCrowded(start[b], start[b+1])
	}
	buf = buf[:n]
	for _, k := range a {
		b := (k - lo) >> shift
		buf[start[b]] = k
		start[b]++
	}
	// start[b] is now where bucket b ends. With shift 0 a bucket holds
	// one key value, and equal keys, which callers never pass, are sorted.
	if crowded && shift > 0 {
		from := int32(0)
		for _, end := range start[:1<<width] {
			if sortKeysCrowded(from, end) {
				sortKeys(buf[from:end], a[from:end])
			}
			from = end
		}
	}
	for i, k := range buf {
		j := i
		for ; j > 0 && a[j-1] > k; j-- {
			a[j] = a[j-1]
		}
		a[j] = k
	}
}

// sortKeysMaxCrowd is the most keys sortKeys leaves one bucket to sort by
// insertion; a bucket of more is dealt again.
const sortKeysMaxCrowd = 16

// sortKeysCrowded reports whether the bucket of keys from from up to end is
// crowded: too many for insertion, whose time grows with their square, so
// dealt again. Only speed depends on it.
func sortKeysCrowded(from, end int32) bool { return end-from > sortKeysMaxCrowd }

// sortKeysByValue sorts keys into decreasing value: each key is the top bits
// of an order-preserving image of a row's value, reversed, over the row in
// its low contrib3SmallIndex bits. sortKeys orders the packed integers, and
// rows that agree in the bits sorted on are then put right by their exact
// values (value(row)), by insertion, in time linear in the keys that move.
// Rows of equal value keep the order of their rows. It reports whether any
// two rows agreed in the bits sorted on: when none did, no two rows have
// equal values.
func sortKeysByValue(keys, buf []uint64, value func(row int) float64) (agreed bool) {
	sortKeys(keys, buf)
	for k := 1; k < len(keys); k++ {
		if (keys[k]^keys[k-1])&^contrib3SmallIndex != 0 {
			continue // apart in the bits sorted on, so in order
		}
		agreed = true
		e, v := keys[k], value(int(keys[k]&contrib3SmallIndex))
		j := k
		for ; j > 0 && value(int(keys[j-1]&contrib3SmallIndex)) < v; j-- {
			keys[j] = keys[j-1]
		}
		keys[j] = e
	}
	return agreed
}

// contrib3Scratch is the memory of one contributions3Small call, pooled:
// on a front of tens of rows, allocating it each time costs as much as the
// sweep.
type contrib3Scratch struct {
	rows  []contrib3Row
	keys  []uint64
	front []contrib3Step
}

var contrib3Pool = sync.Pool{New: func() any { return new(contrib3Scratch) }}

// contributions3Small is contributions3 for a few rows, with nothing to set
// up: the same sweep down the third column (Emmerich and Fonseca, see
// contributions3), with the front in a plain slice, searched and spliced
// by hand, the back rows of each front row's rectangle in a
// list of their own, and every area that changes measured again from its
// rectangle instead of updated by a difference. That is O(n·s) for a front
// of at most s steps, and for fronts of tens to hundreds of rows less work
// than ranking the rows, sizing two bit trees and sorting twice, which is
// what contributions3 spends its time on at that size.
//
// It adds to out[i] (zero on entry) the exclusive volume of row i of the
// three-column matrix values, oriented by maximize against ref as
// orientedRows does it; rows outside the box get nothing. At most
// contrib3SmallIndex+1 rows. It returns the least non-zero magnitude among
// the coordinates of the rows inside the box and of ref, for underflowRisk.
func contributions3Small(values []float64, maximize []bool, ref, out []float64) float64 {
	n := len(values) / 3
	sc := contrib3Pool.Get().(*contrib3Scratch)
	defer contrib3Pool.Put(sc)
	if cap(sc.rows) < n {
		sc.rows = make([]contrib3Row, n)
		sc.keys = make([]uint64, 2*n)
		sc.front = make([]contrib3Step, n)
	}
	ts, keys, front := sc.rows[:n], sc.keys[:0:n], sc.front[:0]

	var o, sign [3]float64
	for j := range 3 {
		sign[j] = 1
		if !maximize[j] {
			sign[j] = -1 // exact, as negation is
		}
		o[j] = sign[j] * ref[j]
	}
	ox, oy, oz := o[0], o[1], o[2]
	// The sweep takes rows by decreasing z. A key is the top 48 bits of the
	// order-preserving image of z, reversed, over the row's index, so that
	// one sort of plain integers does the work; rows whose z agree in those
	// bits may come out of order, and the insertion pass after it puts them
	// right by their exact z, in time linear in the keys that moved. Rows of
	// equal z may enter in any order: no height passes between them.
	least := min(magnitudeKey(ox), magnitudeKey(oy), magnitudeKey(oz))
	for i := range n {
		v := values[3*i : 3*i+3 : 3*i+3]
		x, y, z := sign[0]*v[0], sign[1]*v[1], sign[2]*v[2]
		if x > ox && y > oy && z > oz { // NaN fails
			// The rest of the row is set as the sweep reaches it.
			t := &ts[i]
			t.x, t.y, t.z = x, y, z
			keys = append(keys, nd.FastKey(z, ^uint64(0))&^contrib3SmallIndex|uint64(i))
			least = min(least, magnitudeKey(x), magnitudeKey(y), magnitudeKey(z))
		}
	}
	sortKeysByValue(keys, sc.keys[n:], func(i int) float64 { return ts[i].z })

	// settle integrates p's exclusive area down to height z.
	settle := func(p int32, z float64) {
		t := &ts[p]
		// Zero area or height gives 0, or NaN where the other is +Inf, and
		// adds nothing either way.
		if v := t.area * (t.since - z); v > 0 {
			out[p] += v
		}
		t.since = z
	}
	// measure sets the exclusive area of front step f, whose rectangle has
	// left side xl and bottom ys: each strip between two of its back rows is
	// uncovered above the right one. Every term is positive and every side
	// the difference of two coordinates, so the area carries a few
	// roundings however many rows it spans; the walks below that measure
	// while they cut a list do the same.
	measure := func(f contrib3Step, q int32, xl, ys float64) {
		a, from := 0.0, xl
		for ; q >= 0; q = ts[q].next {
			a += rect(ts[q].x-from, f.y-ts[q].y)
			from = ts[q].x
		}
		ts[f.row].area = a + rect(f.x-from, f.y-ys)
	}

	for _, k := range keys {
		r := int32(k & contrib3SmallIndex)
		xr, yr, z := ts[r].x, ts[r].y, ts[r].z
		// j is the first front step with x ≥ xr: the highest of those, so
		// the only one that can cover r, and the one whose rectangle holds r
		// if any does.
		j := contrib3Search(front, xr)
		if j < len(front) && front[j].y >= yr {
			f := front[j]
			ys := oy
			if j+1 < len(front) {
				ys = front[j+1].y
			}
			if yr <= ys {
				continue // under two front steps: inside no rectangle
			}
			// r joins the back rows of f's rectangle unless one covers it,
			// dropping those it covers: the run with x ≤ xr and y ≤ yr.
			prev, q := int32(-1), ts[f.row].head
			for ; q >= 0 && ts[q].x < xr; q = ts[q].next {
				if ts[q].y > yr {
					prev = q
				}
			}
			if q >= 0 && ts[q].y >= yr {
				continue // covered, which changes nothing
			}
			if q != -1 && ts[q].x == xr {
				q = ts[q].next
			}
			ts[r].next = q
			if prev < 0 {
				ts[f.row].head = r
			} else {
				ts[prev].next = r
			}
			settle(f.row, z)
			xl := ox
			if j > 0 {
				xl = front[j-1].x
			}
			measure(f, ts[f.row].head, xl, ys)
			continue
		}
		// r joins the front, pushing off the steps it covers, front[lo:hi],
		// which become the back rows of its rectangle, and all of them: the
		// back rows of their rectangles are under them, and the other back
		// rows in r's rectangle, if any, were in its neighbours', under r and
		// a neighbour now, in no rectangle from here on, and dropped. The
		// walk right to left over the steps pushed off measures r's area
		// too: left of a step the area is uncovered above it.
		hi := j
		if hi < len(front) && front[hi].x == xr {
			hi++ // a tie in x that r dominates
		}
		ys := oy
		if hi < len(front) {
			ys = front[hi].y
		}
		a, right, h, head := 0.0, xr, ys, int32(-1)
		lo := hi
		for ; lo > 0 && front[lo-1].y <= yr; lo-- {
			q := front[lo-1]
			settle(q.row, z) // its last: a row off the front never returns
			ts[q.row].next, head = head, q.row
			a += rect(right-q.x, yr-h)
			right, h = q.x, q.y
		}
		xl := ox
		if lo > 0 {
			xl = front[lo-1].x
			// The left neighbour's bottom rises to yr: its back rows at or
			// under yr leave its rectangle, and the rest keep their strips.
			l := front[lo-1]
			settle(l.row, z)
			from := ox
			if lo > 1 {
				from = front[lo-2].x
			}
			al, prev := 0.0, int32(-1)
			for q := ts[l.row].head; q >= 0 && ts[q].y > yr; q = ts[q].next {
				al += rect(ts[q].x-from, l.y-ts[q].y)
				from, prev = ts[q].x, q
			}
			if prev < 0 {
				ts[l.row].head = -1
			} else {
				ts[prev].next = -1
			}
			ts[l.row].area = al + rect(l.x-from, l.y-yr)
		}
		ts[r].area, ts[r].since, ts[r].head = a+rect(right-xl, yr-h), z, head
		if hi < len(front) {
			// The right neighbour's left side moves to xr: its back rows at
			// or left of xr leave its rectangle.
			s := front[hi]
			settle(s.row, z)
			q := ts[s.row].head
			for q >= 0 && ts[q].x <= xr {
				q = ts[q].next
			}
			ts[s.row].head = q
			bottom := oy
			if hi+1 < len(front) {
				bottom = front[hi+1].y
			}
			measure(s, q, xr, bottom)
		}
		// Splice r in for front[lo:hi] by hand, element by element: the
		// moves are a few steps, fewer than a call to memmove takes to
		// choose its method.
		switch hi - lo {
		case 0:
			front = front[:len(front)+1] // within capacity: no more steps than rows
			for c := len(front) - 1; c > lo; c-- {
				front[c] = front[c-1]
			}
		case 1:
		default:
			c := lo + 1
			for _, f := range front[hi:] {
				front[c] = f
				c++
			}
			front = front[:c]
		}
		front[lo] = contrib3Step{xr, yr, r}
	}
	for _, f := range front {
		settle(f.row, oz)
	}
	return magnitudeOf(least)
}
