package spica

import (
	"cmp"
	"maps"
	"slices"
	"sync"

	"github.com/spica-search/spica/internal/nd"
)

// ParetoArchive keeps the running Pareto front of candidates added one at a
// time, as a sweep evaluates them. It is safe for concurrent use by multiple
// goroutines; its zero value is not usable, create it with
// [NewParetoArchive].
type ParetoArchive struct {
	objectives []OptimizationTarget
	maximize   []bool

	mu      sync.Mutex
	members []archiveEntry // the current front: see add2 and addAny for the order
	added   uint64         // candidates offered so far, the next seq
}

type archiveEntry struct {
	c    Candidate
	keys []uint64 // one per objective; smaller is better (nd.ObjectiveKey)
	x    float64  // the last objective's raw value, for the front's order
	seq  uint64   // order of addition, for ties in the front's order
}

// NewParetoArchive returns an empty archive over objectives. An invalid list
// (empty, pareto in it, repeats) is an error wrapping
// [ErrInvalidParetoObjectives], an out-of-range target in it
// [ErrUnknownTarget].
func NewParetoArchive(objectives []OptimizationTarget) (*ParetoArchive, error) {
	if err := checkObjectives(objectives, 1, "objectives"); err != nil {
		return nil, err
	}
	return &ParetoArchive{objectives: slices.Clone(objectives), maximize: directions(objectives)}, nil
}

// Add offers c to the archive. It admits c when no member dominates it (see
// [Dominates]; a member with an equal vector does not) and then evicts the
// members c dominates. Values are read by the rule of [ParetoFront]
// (Objectives, else Metrics); a candidate with no value for one of the
// archive's objectives is an error wrapping [ErrInvalidCandidate] (Path
// "candidate.objectives.<name>") and changes nothing.
//
// The archive keeps its own copy of c's maps (Config one level deep), so
// the caller may edit or reuse them after Add; [ParetoArchive.Front]
// returns copies too.
//
// A rejected candidate never belongs to the front later: whatever evicts the
// member that dominated it dominates it too. So [ParetoArchive.Front] always
// equals [ParetoFront] of every candidate added so far. A call costs
// O(log m) for two objectives (plus moving the members after the newcomer)
// and O(d·m) for more, for a front of m members.
func (a *ParetoArchive) Add(c Candidate) (admitted bool, err error) {
	if len(a.objectives) == 0 {
		return false, errorf(ErrInvalidParetoObjectives, "", "the archive has no objectives; create it with NewParetoArchive")
	}
	keys := make([]uint64, len(a.objectives))
	x := 0.0 // the last objective's raw value
	for i, t := range a.objectives {
		v, ok := c.value(t)
		if !ok {
			return false, errNoValue(-1, t)
		}
		keys[i], x = nd.ObjectiveKey(v, a.maximize[i]), v
	}

	c = c.clone() // the caller may edit its maps after Add returns

	a.mu.Lock()
	defer a.mu.Unlock()
	e := archiveEntry{c: c, keys: keys, x: x, seq: a.added}
	a.added++
	if len(keys) == 2 {
		return a.add2(e), nil
	}
	return a.addAny(e), nil
}

// addAny keeps the members in order of addition and compares the newcomer
// with each: O(d·m).
func (a *ParetoArchive) addAny(e archiveEntry) bool {
	for _, m := range a.members {
		if nd.KeysDominate(m.keys, e.keys) {
			return false
		}
	}
	a.members = slices.DeleteFunc(a.members, func(m archiveEntry) bool { return nd.KeysDominate(e.keys, m.keys) })
	a.members = append(a.members, e)
	return true
}

// add2 is Add for two objectives, the usual serving frontier. The members
// are kept in lexicographic key order, where a front's second key falls as
// the first rises (copies aside), so the one member that can dominate the
// newcomer is found by binary search and the members it dominates follow it
// in one run: O(log m) plus the members evicted, plus moving the slice's
// tail to insert.
func (a *ParetoArchive) add2(e archiveEntry) bool {
	k0, k1 := e.keys[0], e.keys[1]
	m := a.members
	i, _ := slices.BinarySearchFunc(m, e, func(x, _ archiveEntry) int {
		if x.keys[0] < k0 || x.keys[0] == k0 && x.keys[1] <= k1 {
			return -1
		}
		return 1
	})
	// Of the members lexicographically no greater than e, m[i-1] has the
	// least second key; it dominates e unless it is a copy.
	if i > 0 {
		if p := m[i-1].keys; p[1] <= k1 && (p[0] != k0 || p[1] != k1) {
			return false
		}
	}
	j := i
	for j < len(m) && m[j].keys[1] >= k1 {
		j++ // lexicographically greater with no smaller second key: dominated
	}
	a.members = slices.Replace(m, i, j, e)
	return true
}

// Front returns the current front in a new slice, in the order of
// [ParetoFront]: by the last objective's raw value ascending, NaN last, ties
// in order of addition.
func (a *ParetoArchive) Front() []Candidate {
	a.mu.Lock()
	entries := slices.Clone(a.members)
	a.mu.Unlock()
	slices.SortFunc(entries, func(p, q archiveEntry) int {
		if c := compareAxis(p.x, q.x); c != 0 {
			return c
		}
		return cmp.Compare(p.seq, q.seq)
	})
	front := make([]Candidate, len(entries))
	for i, e := range entries {
		front[i] = e.c.clone()
	}
	return front
}

// clone returns c with copies of its three maps (nil stays nil), so that
// editing one side's maps leaves the other's alone. Config is copied one
// level deep: a nested map or slice in it is shared.
func (c Candidate) clone() Candidate {
	c.Config = maps.Clone(c.Config)
	c.Metrics = maps.Clone(c.Metrics)
	c.Objectives = maps.Clone(c.Objectives)
	return c
}

// Len returns the number of candidates on the current front.
func (a *ParetoArchive) Len() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.members)
}
