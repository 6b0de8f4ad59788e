package spica

import (
	"fmt"
	"slices"
	"sync"
)

// ParetoArchive keeps the running Pareto front of candidates added one at a
// time, as a sweep evaluates them. It is safe for concurrent use by multiple
// goroutines; its zero value is not usable, create it with
// [NewParetoArchive].
type ParetoArchive struct {
	objectives []OptimizationTarget
	names      []string // objectives' text forms, the Objectives keys
	maximize   []bool

	mu      sync.Mutex
	members []archiveEntry // the current front, in order of addition
}

type archiveEntry struct {
	c    Candidate
	keys []uint64 // one per objective; smaller is better (objectiveKey)
	x    float64  // the last objective's raw value, for the front's order
}

// NewParetoArchive returns an empty archive over objectives. An invalid list
// (empty, pareto in it, unknown, repeats) is an error wrapping
// [ErrInvalidParetoObjectives].
func NewParetoArchive(objectives []OptimizationTarget) (*ParetoArchive, error) {
	if err := checkObjectives(objectives, 1); err != nil {
		return nil, err
	}
	a := &ParetoArchive{objectives: slices.Clone(objectives), maximize: directions(objectives)}
	for _, t := range objectives {
		a.names = append(a.names, t.String())
	}
	return a, nil
}

// Add offers c to the archive. It admits c when no member dominates it (see
// [Dominates]; a member with an equal vector does not) and then evicts the
// members c dominates. A candidate with nil Objectives, or lacking one of the
// archive's objectives, is an error wrapping [ErrInvalidCandidate] and
// changes nothing.
//
// A rejected candidate never belongs to the front later: whatever evicts the
// member that dominated it dominates it too. So [ParetoArchive.Front] always
// equals [ParetoFront] of every candidate added so far. Each call costs
// O(d·m) for a front of m members.
func (a *ParetoArchive) Add(c Candidate) (admitted bool, err error) {
	if len(a.names) == 0 {
		return false, fmt.Errorf("%w: the archive has no objectives; create it with NewParetoArchive", ErrInvalidParetoObjectives)
	}
	if c.Objectives == nil {
		return false, fmt.Errorf("%w: the candidate has no Objectives (a scalar goal's candidate)", ErrInvalidCandidate)
	}
	keys := make([]uint64, len(a.names))
	for i, name := range a.names {
		v, ok := c.Objectives[name]
		if !ok {
			return false, fmt.Errorf("%w: the candidate lacks objective %q", ErrInvalidCandidate, name)
		}
		keys[i] = objectiveKey(v, a.maximize[i])
	}

	a.mu.Lock()
	defer a.mu.Unlock()
	for _, m := range a.members {
		if keysDominate(m.keys, keys) {
			return false, nil
		}
	}
	a.members = slices.DeleteFunc(a.members, func(m archiveEntry) bool { return keysDominate(keys, m.keys) })
	a.members = append(a.members, archiveEntry{c: c, keys: keys, x: c.Objectives[a.names[len(a.names)-1]]})
	return true, nil
}

// Front returns the current front in a new slice, in the order of
// [ParetoFront]: by the last objective's raw value ascending, NaN last, ties
// in order of addition.
func (a *ParetoArchive) Front() []Candidate {
	a.mu.Lock()
	entries := slices.Clone(a.members)
	a.mu.Unlock()
	slices.SortStableFunc(entries, func(p, q archiveEntry) int { return compareAxis(p.x, q.x) })
	front := make([]Candidate, len(entries))
	for i, e := range entries {
		front[i] = e.c
	}
	return front
}

// Len returns the number of candidates on the current front.
func (a *ParetoArchive) Len() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.members)
}
