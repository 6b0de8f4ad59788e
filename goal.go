package spica

import (
	"fmt"
	"slices"
)

// OptimizationGoal says what a search optimizes: one scalar target, or, for
// [TargetPareto], a vector of objectives traced as a Pareto front. The zero
// value is the default goal: maximize throughput, no SLA.
//
// Decoding JSON (through [ParseGoal] or [OptimizationGoal.UnmarshalJSON]) is
// strict: keys match exactly and case-sensitively, an unknown key anywhere is
// an error wrapping [ErrUnknownField], a key given twice in one object is an
// error naming it (also wrapping [ErrUnknownField]), and the decoded goal
// must pass [OptimizationGoal.Validate]. An absent "target" is throughput,
// but "target": null is an error; "sla": null and "pareto_objectives": null
// mean unset. Encoding uses the struct tags: an unset SLA and a nil objective
// list are left out, while an explicit empty list is written as [].
type OptimizationGoal struct {
	Target           OptimizationTarget   `json:"target"`
	SLA              SLATarget            `json:"sla,omitzero"`
	ParetoObjectives []OptimizationTarget `json:"pareto_objectives,omitzero"` // omitzero: an explicit [] must survive encoding
}

// SamplerObjective is one metric a Bayesian sampler optimizes, by name and
// direction.
type SamplerObjective struct {
	Name     string
	Maximize bool
}

// DefaultParetoObjectives returns the objectives of a pareto goal that lists
// none: tokens/s per GPU against tokens/s per user, the usual serving
// frontier. The slice is new on every call.
func DefaultParetoObjectives() []OptimizationTarget {
	return []OptimizationTarget{TargetThroughputPerGPU, TargetThroughputPerUser}
}

// IsPareto reports whether g is a multi-objective goal.
func (g OptimizationGoal) IsPareto() bool { return g.Target == TargetPareto }

// ResolvedParetoObjectives returns g.ParetoObjectives if it is non-nil (even
// empty, so that validation can reject an explicit empty list), else
// [DefaultParetoObjectives]. The slice is new on every call.
func (g OptimizationGoal) ResolvedParetoObjectives() []OptimizationTarget {
	if g.ParetoObjectives == nil {
		return DefaultParetoObjectives()
	}
	return slices.Clone(g.ParetoObjectives)
}

// EffectiveObjectives returns what g optimizes: {g.Target} for a scalar
// goal, the resolved objective list for a pareto goal. The slice is new on
// every call.
func (g OptimizationGoal) EffectiveObjectives() []OptimizationTarget {
	if g.IsPareto() {
		return g.ResolvedParetoObjectives()
	}
	return []OptimizationTarget{g.Target}
}

// NeedsSLA reports whether some effective objective of g needs an SLA.
func (g OptimizationGoal) NeedsSLA() bool {
	return slices.ContainsFunc(g.EffectiveObjectives(), OptimizationTarget.NeedsSLA)
}

// PlannerOptimizationTarget returns the autoscaling planner's objective for
// g, that of its target (see [OptimizationTarget.PlannerOptimizationTarget]).
func (g OptimizationGoal) PlannerOptimizationTarget() string {
	return g.Target.PlannerOptimizationTarget()
}

// Validate checks g. The rules are checked in this order, and the first
// failure is returned:
//
//  1. the target is known ([ErrUnknownTarget]);
//  2. a non-nil ParetoObjectives needs the pareto target
//     ([ErrInvalidParetoObjectives]);
//  3. a pareto goal resolves to at least two objectives, each known (an
//     unknown one wraps both [ErrUnknownTarget] and
//     [ErrInvalidParetoObjectives]), none of them pareto and none repeated
//     ([ErrInvalidParetoObjectives]);
//  4. the SLA's bounds are valid, whatever the target ([ErrInvalidSLA]);
//  5. if goodput or goodput_per_gpu is among the effective objectives, the
//     SLA is satisfying ([ErrSLARequired], naming those targets).
func (g OptimizationGoal) Validate() error {
	if !g.Target.IsValid() {
		return fmt.Errorf("target: %w", unknownTargetValue(g.Target))
	}
	if g.ParetoObjectives != nil && !g.IsPareto() {
		return fmt.Errorf("%w: pareto_objectives is only valid when target is 'pareto' (target is %q)", ErrInvalidParetoObjectives, g.Target)
	}
	if g.IsPareto() {
		if err := checkObjectives(g.ResolvedParetoObjectives(), 2); err != nil {
			return err
		}
	}
	if err := g.SLA.Validate(); err != nil {
		return fmt.Errorf("sla: %w", err)
	}
	var needy []string
	for _, t := range g.EffectiveObjectives() {
		if t.NeedsSLA() {
			needy = append(needy, t.String())
		}
	}
	if len(needy) > 0 && !g.SLA.Satisfying() {
		slices.Sort(needy)
		return fmt.Errorf("%w: %v require an SLA target (ttft_ms+itl_ms or e2e_ms)", ErrSLARequired, needy)
	}
	return nil
}

// checkObjectives validates an objective list: at least minLen entries, each
// a known scalar target, none repeated. Every failure wraps
// [ErrInvalidParetoObjectives]; an unknown value also wraps
// [ErrUnknownTarget]. It allocates only when it fails.
func checkObjectives(objs []OptimizationTarget, minLen int) error {
	if len(objs) < minLen {
		return fmt.Errorf("%w: pareto_objectives needs at least %d objectives, got %d %v", ErrInvalidParetoObjectives, minLen, len(objs), objs)
	}
	var seen uint64 // targets are < 64, so a bit set needs no allocation
	for i, t := range objs {
		if !t.IsValid() {
			return fmt.Errorf("%w: pareto_objectives[%d]: %w", ErrInvalidParetoObjectives, i, unknownTargetValue(t))
		}
		if t == TargetPareto {
			return fmt.Errorf("%w: pareto_objectives must not contain 'pareto' (at index %d)", ErrInvalidParetoObjectives, i)
		}
		if seen&(1<<t) != 0 {
			return fmt.Errorf("%w: pareto_objectives repeats %s: %v", ErrInvalidParetoObjectives, t, objs)
		}
		seen |= 1 << t
	}
	return nil
}

// SamplerObjectives returns what a Bayesian sampler optimizes for g: for a
// pareto goal, one objective per resolved target, named by its text form,
// with its direction; for a scalar goal the single objective
// {Name: "objective", Maximize: true}, since the caller reports the
// already-signed score of [ScoreReport]. An invalid goal returns its
// validation error.
func (g OptimizationGoal) SamplerObjectives() ([]SamplerObjective, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	if !g.IsPareto() {
		return []SamplerObjective{{Name: "objective", Maximize: true}}, nil
	}
	objs := g.ResolvedParetoObjectives()
	out := make([]SamplerObjective, len(objs))
	for i, t := range objs {
		out[i] = SamplerObjective{Name: t.String(), Maximize: t.maximized()}
	}
	return out, nil
}

// ParseGoal decodes and validates a goal block (see [OptimizationGoal] for
// the strict rules). The block is optional: empty or white-space-only input,
// or JSON null, gives the default goal. Every error wraps one of the
// package's sentinels; malformed JSON wraps [ErrInvalidGoal] and gives the
// byte offset.
func ParseGoal(data []byte) (OptimizationGoal, error) {
	if (&jsonReader{data: data}).atEOF() {
		return OptimizationGoal{}, nil
	}
	g, _, err := decodeDocument(data, ErrInvalidGoal, decodeGoal) // null: the zero goal
	if err == nil {
		err = g.Validate()
	}
	if err != nil {
		return OptimizationGoal{}, err
	}
	return g, nil
}

// UnmarshalJSON decodes a goal strictly and validates it, so a goal
// embedded in a caller's own JSON document gets the rules of [ParseGoal].
// JSON null leaves g unchanged, as encoding/json expects of an Unmarshaler;
// on error g is unchanged too.
func (g *OptimizationGoal) UnmarshalJSON(data []byte) error {
	v, isNull, err := decodeDocument(data, ErrInvalidGoal, decodeGoal)
	if err == nil && !isNull {
		err = v.Validate()
	}
	if err != nil || isNull {
		return err
	}
	*g = v
	return nil
}

// decodeGoal reads a goal object at r without validating it.
func decodeGoal(r *jsonReader) (OptimizationGoal, error) {
	var g OptimizationGoal
	if k := r.peek(); k != kindObject {
		if k == kindInvalid {
			return g, r.skip() // the syntax error, with its offset
		}
		return g, r.errorf(r.pos, "a goal must be a JSON object, got %s", k)
	}
	err := r.object(func(key string) error {
		var err error
		switch key {
		case "target":
			g.Target, err = decodeTarget(r, "target")
		case "sla":
			if isNull, nerr := r.null(); nerr != nil || isNull {
				return nerr
			}
			g.SLA, err = decodeSLA(r, "sla.")
		case "pareto_objectives":
			g.ParetoObjectives, err = decodeObjectives(r)
		default:
			err = fmt.Errorf("%w %q in goal (valid: target, sla, pareto_objectives)", ErrUnknownField, key)
		}
		return err
	})
	return g, err
}

// decodeTarget reads a target name; anything but a known name, null
// included, is an error wrapping [ErrUnknownTarget].
func decodeTarget(r *jsonReader, field string) (OptimizationTarget, error) {
	if k := r.peek(); k != kindString {
		if k == kindInvalid {
			return 0, r.skip()
		}
		start := r.pos
		if err := r.skip(); err != nil {
			return 0, err
		}
		return 0, fmt.Errorf("%s: %w %s (valid: %s)", field, ErrUnknownTarget, r.data[start:r.pos], validTargetNames)
	}
	s, err := r.str()
	if err != nil {
		return 0, err
	}
	t, err := ParseOptimizationTarget(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", field, err)
	}
	return t, nil
}

// decodeObjectives reads pareto_objectives: null is unset (nil), [] is kept
// as an explicit empty list.
func decodeObjectives(r *jsonReader) ([]OptimizationTarget, error) {
	switch k := r.peek(); k {
	case kindNull:
		return nil, r.literal("null")
	case kindArray:
	default:
		if k == kindInvalid {
			return nil, r.skip()
		}
		return nil, fmt.Errorf("%w: pareto_objectives must be an array of target names, got %s", ErrInvalidParetoObjectives, k)
	}
	objs := []OptimizationTarget{}
	err := r.array(func(i int) error {
		t, err := decodeTarget(r, fmt.Sprintf("pareto_objectives[%d]", i))
		objs = append(objs, t)
		return err
	})
	return objs, err
}
