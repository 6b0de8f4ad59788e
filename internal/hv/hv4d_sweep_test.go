package hv

import (
	"fmt"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// locatePaths runs f under each of locate's ways to find the rows of L
// above a node: relinking them until one is not (locateScanMax large) and a
// bisection first (locateScanMax 0).
func locatePaths(t *testing.T, f func(t *testing.T)) {
	for _, limit := range []int{1 << 30, 0} {
		t.Run(fmt.Sprintf("locateScanMax=%d", limit), func(t *testing.T) {
			defer func(old int) { locateScanMax = old }(locateScanMax)
			locateScanMax = limit
			f(t)
		})
	}
}

// TestHV4DSweepStepByStep drives the HV4D+ sweep one row at a time, as
// hv4d does, on rows drawn from three values per column, so that rows tie
// with each other in x and y at other heights, in z, or entirely, and
// checks every step against brute force over the members of L:
//
//   - locate reports p covered exactly when one member is at least p in
//     x, y and z, and otherwise finds p's place (the members with a larger
//     or equal (z, y, x)) and its neighbours: the member before p with the
//     largest x among those with y > py, the later one on a tie in x, and
//     the one with the largest y among those with x > px;
//   - measure returns the exclusive three-column volume of p against L,
//     by the grid oracle (exact: every coordinate is an integer);
//   - the L that measure leaves, inserting p, is the three-column front of
//     the old L and p, in decreasing (z, y, x) order, and each member's
//     stored neighbours are its neighbours among the members before it.
//
// place is checked against locate on the same L.
func TestHV4DSweepStepByStep(t *testing.T) {
	locatePaths(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			n := rapid.IntRange(1, 24).Draw(t, "n")
			pts := make([]float64, 4*n)
			for i := range pts {
				pts[i] = float64(rapid.IntRange(1, 3).Draw(t, "e"))
			}
			sweepStepByStep(t, pts)
		})
	})
}

// TestHV4DSweepTies runs the checks of TestHV4DSweepStepByStep on ties
// that a short run of it may not draw. Rows enter by falling fourth
// extent, so L holds the first two rows when the third is placed.
func TestHV4DSweepTies(t *testing.T) {
	locatePaths(t, func(t *testing.T) {
		for _, c := range []struct {
			name string
			pts  []float64
		}{
			// (1, 2, 3) and (1, 3, 2) tie in x, both higher than p =
			// (2, 1, 1) and left of it: p's left neighbour is the later.
			{"left neighbours tied in x", []float64{1, 2, 3, 3, 1, 3, 2, 2, 2, 1, 1, 1}},
			// (2, 1, 3) and (3, 1, 2) tie in y, both right of p =
			// (1, 2, 1): p's right neighbour is the later.
			{"right neighbours tied in y", []float64{2, 1, 3, 3, 3, 1, 2, 2, 1, 2, 1, 1}},
		} {
			t.Run(c.name, func(t *testing.T) { sweepStepByStep(t, c.pts) })
		}
	})
}

// sweepT is what sweepStepByStep needs of a *testing.T or *rapid.T.
type sweepT interface {
	Helper()
	Fatalf(format string, args ...any)
}

// sweepStepByStep drives the sweep over the four-column extents pts and
// checks each step as TestHV4DSweepStepByStep describes.
func sweepStepByStep(t sweepT, pts []float64) {
	t.Helper()
	n := len(pts) / 4
	var s hv4Sweep
	s.reset(n)
	for i := range n {
		s.nodes[i+2] = hv4Node{x: pts[4*i], y: pts[4*i+1], z: pts[4*i+2]}
	}
	for _, i := range extentOrder(pts, 4, 3, 2, 1, 0) {
		p := uint32(i + 2)
		P := s.nodes[p]
		members := sweepMembers(&s)

		wantCovered := false
		for _, q := range members {
			wantCovered = wantCovered || q.x >= P.x && q.y >= P.y && q.z >= P.z
		}
		covered := s.place(p)
		placed := [3]int{int(s.nodes[p].left), int(s.nodes[p].right), s.pos}
		if got := s.locate(p); got != wantCovered || covered != wantCovered {
			t.Fatalf("row %d: locate covered = %v, place %v, want %v", i, got, covered, wantCovered)
		}
		if wantCovered {
			continue
		}
		pos, left, right := bruteNeighbours(&s, members, P)
		if got := [3]int{int(s.nodes[p].left), int(s.nodes[p].right), s.pos}; got != [3]int{left, right, pos} || placed != got {
			t.Fatalf("row %d: locate (left, right, pos) = %v, place %v, want %v", i, got, placed, [3]int{left, right, pos})
		}

		before := make([]float64, 0, 3*len(members)+3)
		for _, q := range members {
			before = append(before, q.x, q.y, q.z)
		}
		after := append(before[:len(before):len(before)], P.x, P.y, P.z)
		want := oracleOfExtents(after, 3) - oracleOfExtents(before, 3)
		if got := s.measure(p, true); got != want {
			t.Fatalf("row %d: measure = %v, want %v", i, got, want)
		}
		checkSweepL(t, &s, append(members, hv4Node{x: P.x, y: P.y, z: P.z}))
	}
}

// sweepMembers returns the nodes of L's members, in L's order.
func sweepMembers(s *hv4Sweep) []hv4Node {
	out := make([]hv4Node, len(s.l))
	for k, e := range s.l {
		out[k] = s.nodes[e.id]
	}
	return out
}

// lexBefore reports whether a comes before b in L: a larger or equal
// (z, y, x).
func lexBefore(a, b hv4Node) bool {
	switch {
	case a.z != b.z:
		return a.z > b.z
	case a.y != b.y:
		return a.y > b.y
	}
	return a.x >= b.x
}

// bruteNeighbours returns where a node p goes in L and its neighbours
// among the members before it, as node indices (the sentinels when there
// is none), by brute force.
func bruteNeighbours(s *hv4Sweep, members []hv4Node, p hv4Node) (pos, left, right int) {
	left, right = hvLeft, hvRight
	lx, ry := math.Inf(-1), math.Inf(-1)
	for k, q := range members {
		if !lexBefore(q, p) {
			break
		}
		pos = k + 1
		if q.y > p.y && q.x >= lx {
			left, lx = int(s.l[k].id), q.x
		}
		if q.x > p.x && q.y >= ry {
			right, ry = int(s.l[k].id), q.y
		}
	}
	return pos, left, right
}

// checkSweepL checks L against the rows that entered it, by brute force
// (no two of them equal, as locate turns a copy away): its members are
// their three-column front, in
// decreasing (z, y, x) order, each knowing its neighbours among the members
// before it.
func checkSweepL(t sweepT, s *hv4Sweep, entered []hv4Node) {
	var front []hv4Node
	for i, p := range entered {
		keep := true
		for j, q := range entered {
			if i != j && q.x >= p.x && q.y >= p.y && q.z >= p.z {
				keep = false
			}
		}
		if keep {
			front = append(front, p)
		}
	}
	members := sweepMembers(s)
	if len(members) != len(front) {
		t.Fatalf("L has %d members, the front of the rows entered %d", len(members), len(front))
	}
	for k, q := range members {
		if k > 0 && !lexBefore(members[k-1], q) {
			t.Fatalf("L out of order at %d: %v before %v", k, members[k-1], q)
		}
		found := false
		for _, f := range front {
			found = found || f.x == q.x && f.y == q.y && f.z == q.z
		}
		if !found {
			t.Fatalf("L holds %v, which is not on the front", q)
		}
		if e := s.l[k]; math.Float64frombits(e.x) != q.x || math.Float64frombits(e.y) != q.y || math.Float64frombits(e.z) != q.z {
			t.Fatalf("L entry %d holds (%v, %v, %v), its node %v", k, math.Float64frombits(e.x), math.Float64frombits(e.y), math.Float64frombits(e.z), q)
		}
		_, left, right := bruteNeighbours(s, members[:k], q)
		if int(q.left) != left || int(q.right) != right {
			t.Fatalf("member %d %v: neighbours (%d, %d), want (%d, %d)", k, q, q.left, q.right, left, right)
		}
	}
}

// TestAboveBisect: for every L of 0 to 70 members with z falling from
// len(L) to 1 (so that z > q holds for the first len(L) − q of them), and
// every q from 0 to len(L) + 1, the bisection returns that count or one
// less, never below 0; the walk in above passes the rest.
func TestAboveBisect(t *testing.T) {
	for n := range 71 {
		l := make([]hv4Entry, n)
		for i := range l {
			l[i].z = uint64(n - i)
		}
		for q := range n + 2 {
			count := max(n-q, 0)
			if got := aboveBisect(l, uint64(q)); got != count && got != max(count-1, 0) {
				t.Errorf("aboveBisect(%d members, %d) = %d, want %d or one less", n, q, got, count)
			}
		}
	}
}

// TestLocateBisects: locate's two ways to the end of the rows above p
// find the same end, so only the choice shows where one hands over.
func TestLocateBisects(t *testing.T) {
	for _, c := range []struct {
		n    int
		want bool
	}{{0, false}, {locateScanMax, false}, {locateScanMax + 1, true}} {
		if got := locateBisects(c.n); got != c.want {
			t.Errorf("locateBisects(%d) = %v, want %v", c.n, got, c.want)
		}
	}
}

// TestChangesNothing: with p's x at 10, cr's y at 5 and cl's x at 3, a
// member passes unlooked at when at or right of x 10 and under y 5, or
// left of x 10 and of x 3; the bounds themselves are looked at.
func TestChangesNothing(t *testing.T) {
	const pxb, cry, clx = 10, 5, 3
	for _, c := range []struct {
		x, y uint64
		want bool
	}{
		{10, 4, true}, {10, 5, false}, {11, 4, true}, {11, 6, false},
		{9, 0, false}, {3, 0, false}, {2, 100, true},
	} {
		if got := changesNothing(hv4Entry{x: c.x, y: c.y}, pxb, cry, clx); got != c.want {
			t.Errorf("changesNothing(x %d, y %d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

// TestOpenArea: on the staircase (1, 5), (3, 2) between the sentinels,
// the area under height 6 from the left sentinel's x, 0, to x is
// 1·(6−5) + 2·(6−2) = 9 at x = 3, and the first step right of 3 is the
// right sentinel; at x = 2 it is 1 + 1·4 = 5, and the step (3, 2) is next.
func TestOpenArea(t *testing.T) {
	var s hv4Sweep
	s.reset(2)
	s.nodes[2] = hv4Node{x: 1, y: 5}
	s.nodes[3] = hv4Node{x: 3, y: 2}
	s.nodes[hvLeft].cr, s.nodes[2].cr, s.nodes[3].cr = 2, 3, hvRight
	for _, c := range []struct {
		x, want float64
		next    uint32
	}{{3, 9, hvRight}, {2, 5, 3}} {
		if area, next := s.openArea(hvLeft, c.x, 6); area != c.want || next != c.next {
			t.Errorf("openArea(to %v) = %v, %d; want %v, %d", c.x, area, next, c.want, c.next)
		}
	}
}
