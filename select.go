package spica

import (
	"strconv"

	"github.com/spica-search/spica/internal/nd"
)

// Bound is a constraint of [BestSubjectTo] and [SubjectTo]: the Target
// objective must be at least as good as Value in the target's own direction,
// inclusive (>= for a maximized target, <= for e2e_latency).
type Bound struct {
	Target OptimizationTarget
	Value  float64
}

// boundFilter is the one bound rule of BestSubjectTo and SubjectTo: each
// bound's direction and limit as a key (smaller is better; see
// nd.ObjectiveKey), found once for all candidates.
type boundFilter []boundLimit

type boundLimit struct {
	target   OptimizationTarget
	maximize bool
	key      uint64
}

// newBoundFilter checks bounds: a pareto target wraps
// [ErrNoScalarDirection], an unknown one [ErrUnknownTarget], a NaN value
// [ErrInvalidBound], each with Path "bounds[i]".
func newBoundFilter(bounds []Bound) (boundFilter, error) {
	f := make(boundFilter, len(bounds))
	for i, b := range bounds {
		maximize, err := b.Target.Maximize()
		if err != nil {
			e := err.(*Error)
			e.Path = "bounds[" + strconv.Itoa(i) + "]"
			return nil, e
		}
		if b.Value != b.Value {
			return nil, errorf(ErrInvalidBound, "bounds["+strconv.Itoa(i)+"]", "the %s bound is NaN, which no value can meet", b.Target)
		}
		f[i] = boundLimit{b.Target, maximize, nd.ObjectiveKey(b.Value, maximize)}
	}
	return f, nil
}

// meets reports whether candidate i, c, meets every bound; a value it lacks
// is an error naming it. A NaN value never meets a bound.
func (f boundFilter) meets(c *Candidate, i int) (bool, error) {
	for _, b := range f {
		v, ok := c.value(b.target)
		if !ok {
			return false, errNoValue(i, b.target)
		}
		if nd.ObjectiveKey(v, b.maximize) > b.key {
			return false, nil
		}
	}
	return true, nil
}

// BestSubjectTo answers an operator's question such as "the best tokens/s
// per GPU at >= 50 tokens/s per user": among the candidates that meet every
// bound (the rule of [SubjectTo]), it returns the one with the best
// objective value, ties toward fewer UsedGPUs, then input order. It reports
// false only when no candidate qualifies. O(n·(b+1)) for n candidates and b
// bounds.
//
// Values are read by the rule of [ParetoFront]: Objectives, else Metrics,
// so candidates of a scalar goal are eligible too; a candidate with no value
// for the objective or a bound is an error wrapping [ErrInvalidCandidate]
// whose Path says "candidate N". NaN is worse than every number: a NaN value
// never meets a bound, and a candidate whose objective is NaN is chosen only
// when no qualifying candidate has a number. ±Inf bounds are allowed (an
// unreachable one simply selects nothing). The objective or a bound target
// that is pareto wraps [ErrNoScalarDirection], an unknown one
// [ErrUnknownTarget] (Path "objective" or "bounds[i]"), and a NaN bound
// value [ErrInvalidBound]. cands is not modified.
func BestSubjectTo(cands []Candidate, objective OptimizationTarget, bounds ...Bound) (Candidate, bool, error) {
	maximize, err := objective.Maximize()
	if err != nil {
		e := err.(*Error)
		e.Path = "objective"
		return Candidate{}, false, e
	}
	filter, err := newBoundFilter(bounds)
	if err != nil {
		return Candidate{}, false, err
	}
	best, bestKey := -1, uint64(0)
	for i := range cands {
		c := &cands[i]
		v, ok := c.value(objective)
		if !ok {
			return Candidate{}, false, errNoValue(i, objective)
		}
		key := nd.ObjectiveKey(v, maximize)
		meets, err := filter.meets(c, i)
		if err != nil {
			return Candidate{}, false, err
		}
		if meets && (best < 0 || key < bestKey || key == bestKey && c.UsedGPUs < cands[best].UsedGPUs) {
			best, bestKey = i, key
		}
	}
	if best < 0 {
		return Candidate{}, false, nil
	}
	return cands[best], true, nil
}

// SubjectTo returns, in a new slice and in input order, the candidates whose
// values meet every bound: at least as good as its Value in the bound
// target's own direction, inclusive, values read by the rule of
// [ParetoFront] (a NaN value never meets a bound). ParetoFront(SubjectTo(…))
// is the front under constraints. With no bounds it returns a copy of
// cands. The errors are those of [BestSubjectTo]'s bounds and candidates.
// O(n·b) for n candidates and b bounds; cands is not modified.
func SubjectTo(cands []Candidate, bounds ...Bound) ([]Candidate, error) {
	filter, err := newBoundFilter(bounds)
	if err != nil {
		return nil, err
	}
	out := make([]Candidate, 0, len(cands))
	for i := range cands {
		meets, err := filter.meets(&cands[i], i)
		if err != nil {
			return nil, err
		}
		if meets {
			out = append(out, cands[i])
		}
	}
	return out, nil
}
