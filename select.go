package spica

import "fmt"

// Bound is a constraint of [BestSubjectTo]: the Target objective must be at
// least as good as Value in the target's own direction, inclusive (>= for a
// maximized target, <= for e2e_latency).
type Bound struct {
	Target OptimizationTarget
	Value  float64
}

// BestSubjectTo answers an operator's question such as "the best tokens/s
// per GPU at >= 50 tokens/s per user": among the candidates that meet every
// bound, it returns the one with the best objective value, ties toward fewer
// UsedGPUs, then input order. It reports false when no candidate qualifies.
//
// Values are read from each candidate's Objectives; a candidate with nil
// Objectives (a scalar goal's) is not eligible, and one with non-nil
// Objectives lacking a needed key is an error wrapping [ErrInvalidCandidate]
// that says "candidate N". NaN is worse than every number: a NaN value never
// meets a bound, and a candidate whose objective is NaN is chosen only when
// no qualifying candidate has a number. ±Inf bounds are allowed (an
// unreachable one simply selects nothing). The objective or a bound target
// that is pareto wraps [ErrNoScalarDirection], an unknown one
// [ErrUnknownTarget], and a NaN bound value [ErrInvalidBound]. cands is not
// modified.
func BestSubjectTo(cands []Candidate, objective OptimizationTarget, bounds ...Bound) (Candidate, bool, error) {
	maximize, err := objective.Maximize()
	if err != nil {
		return Candidate{}, false, fmt.Errorf("objective: %w", err)
	}
	// Each bound's direction and limit as a key, found once for all
	// candidates.
	type limit struct {
		maximize bool
		key      uint64
	}
	limits := make([]limit, len(bounds))
	for i, b := range bounds {
		max, err := b.Target.Maximize()
		if err != nil {
			return Candidate{}, false, fmt.Errorf("bounds[%d]: %w", i, err)
		}
		if b.Value != b.Value {
			return Candidate{}, false, fmt.Errorf("%w: bounds[%d] (%s) is NaN", ErrInvalidBound, i, b.Target)
		}
		limits[i] = limit{max, objectiveKey(b.Value, max)}
	}
	best, bestKey := -1, uint64(0)
	for i := range cands {
		c := &cands[i]
		if c.Objectives == nil {
			continue
		}
		key, err := candidateKey(c, i, objective, maximize)
		if err != nil {
			return Candidate{}, false, err
		}
		meets := true
		for j, b := range bounds {
			k, err := candidateKey(c, i, b.Target, limits[j].maximize)
			if err != nil {
				return Candidate{}, false, err
			}
			meets = meets && k <= limits[j].key
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

// candidateKey reads objective t of candidate number i as a key (smaller is
// better; see objectiveKey).
func candidateKey(c *Candidate, i int, t OptimizationTarget, maximize bool) (uint64, error) {
	v, ok := c.Objectives[t.String()]
	if !ok {
		return 0, errLacksObjective(i, t.String())
	}
	return objectiveKey(v, maximize), nil
}
