package spica

import (
	"fmt"
	"log/slog"
	"slices"
	"strconv"
)

// OptimizationGoal says what a search optimizes: one scalar target, or, for
// [TargetPareto], a vector of objectives traced as a Pareto front. The zero
// value is the default goal: maximize throughput, no SLA.
//
// Decoding JSON (through [ParseGoal] or [OptimizationGoal.UnmarshalJSON])
// or YAML (through [OptimizationGoal.UnmarshalYAML]) is strict: keys match
// exactly and case-sensitively, an unknown key anywhere is an error wrapping
// [ErrUnknownField], a key given twice in one object is an error wrapping
// [ErrDuplicateKey], and the decoded goal must pass
// [OptimizationGoal.Validate]. An absent "target" is throughput, but
// "target": null is an error; "sla": null and "pareto_objectives": null mean
// unset. Every error is an [*Error] whose Path names the field. Encoding
// uses the struct tags: an unset SLA and a nil objective list are left out,
// while an explicit empty list is written as [].
//
// In a Kubernetes API (SPEC §14) the markers here and on the fields make a
// CRD schema accept exactly the goals [ParseGoal] accepts, apart from what
// the API server settles before its schema (unknown and repeated keys under
// strict field validation, nulls, which it drops). The CEL rules below check
// what crosses fields, each with the message of ParseGoal's error: a pareto
// objective list only under the pareto target, and a satisfying SLA when
// goodput or goodput_per_gpu is an effective objective (an SLA under any
// other target is allowed, as by Validate). The rules read an absent target
// as throughput without relying on the schema's default: the API server
// checks a default value written higher up (a `default={}` on a field of
// this type) against these rules without filling in the target first, and
// rejects the CRD if a rule fails there with "no such key: target". The
// SLA rule's message names the culprits with conditionals rather than a
// filter and join over a list, whose estimated cost the API server finds
// over its budget (it rejects such a CRD too).
//
// +kubebuilder:validation:XValidation:rule="!has(self.pareto_objectives) || has(self.target) && self.target == 'pareto'",message="pareto_objectives is only valid when target is 'pareto'"
// +kubebuilder:validation:XValidation:rule="!(has(self.target) && (self.target in ['goodput', 'goodput_per_gpu'] || self.target == 'pareto' && has(self.pareto_objectives) && self.pareto_objectives.exists(o, o in ['goodput', 'goodput_per_gpu']))) || has(self.sla) && (has(self.sla.e2e_ms) || has(self.sla.ttft_ms) && has(self.sla.itl_ms))",message="goodput targets require an SLA target (ttft_ms+itl_ms or e2e_ms)",messageExpression="((self.target == 'goodput' || self.target == 'pareto' && 'goodput' in self.pareto_objectives) && (self.target == 'goodput_per_gpu' || self.target == 'pareto' && 'goodput_per_gpu' in self.pareto_objectives) ? '[goodput goodput_per_gpu]' : (self.target == 'goodput' || self.target == 'pareto' && 'goodput' in self.pareto_objectives) ? '[goodput]' : '[goodput_per_gpu]') + ' require an SLA target (ttft_ms+itl_ms or e2e_ms)'"
type OptimizationGoal struct {
	// Target is what the goal optimizes; absent, it is throughput.
	// +optional
	// +kubebuilder:default=throughput
	Target OptimizationTarget `json:"target" yaml:"target"`
	// SLA bounds the latency of the requests the goodput targets count.
	// +optional
	SLA SLATarget `json:"sla,omitzero" yaml:"sla,omitempty"`
	// ParetoObjectives lists the objectives of a pareto goal; absent (nil),
	// it is the pair of [DefaultParetoObjectives]. An explicit empty list
	// is kept, so that validation rejects it; omitzero writes it back as [].
	// Seven names less pareto, without repeats, make at most six.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MinItems=2
	// +kubebuilder:validation:MaxItems=6
	// +kubebuilder:validation:XValidation:rule="!('pareto' in self)",message="pareto_objectives must not contain 'pareto'"
	ParetoObjectives []OptimizationTarget `json:"pareto_objectives,omitzero" yaml:"pareto_objectives"`
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
// failure is returned, with Path naming the field ("target",
// "pareto_objectives[2]", "sla.e2e_ms"):
//
//  1. the target is known ([ErrUnknownTarget]);
//  2. a non-nil ParetoObjectives needs the pareto target
//     ([ErrInvalidParetoObjectives]);
//  3. a pareto goal resolves to at least two objectives, then every one of
//     them known ([ErrUnknownTarget]), then none of them pareto, then none
//     repeated ([ErrInvalidParetoObjectives]), each checked over the whole
//     list before the next: a list holding both a repeat and pareto fails
//     on pareto;
//  4. the SLA's bounds are valid, whatever the target ([ErrInvalidSLA]);
//  5. if goodput or goodput_per_gpu is among the effective objectives, the
//     SLA is satisfying ([ErrSLARequired], naming those targets, Path
//     "sla").
func (g OptimizationGoal) Validate() error {
	if !g.Target.IsValid() {
		return unknownTargetValue("target", g.Target)
	}
	if g.ParetoObjectives != nil && !g.IsPareto() {
		return errorf(ErrInvalidParetoObjectives, "pareto_objectives", "pareto_objectives is only valid when target is 'pareto' (target is %q)", g.Target)
	}
	if g.IsPareto() {
		if err := checkObjectives(g.ResolvedParetoObjectives(), 2, "pareto_objectives"); err != nil {
			return err
		}
	}
	if err := g.SLA.validate("sla."); err != nil {
		return err
	}
	var needy []string
	for _, t := range g.EffectiveObjectives() {
		if t.NeedsSLA() {
			needy = append(needy, t.String())
		}
	}
	if len(needy) > 0 && !g.SLA.Satisfying() {
		slices.Sort(needy)
		return errorf(ErrSLARequired, "sla", "%v require an SLA target (ttft_ms+itl_ms or e2e_ms)", needy)
	}
	return nil
}

// checkObjectives validates an objective list named field ("objectives" for
// a caller's argument, "pareto_objectives" in a goal): at least minLen
// entries, then each a known target ([ErrUnknownTarget]), then none of them
// pareto, then none repeated ([ErrInvalidParetoObjectives]), each rule over
// the whole list before the next. It allocates only when it fails.
func checkObjectives(objs []OptimizationTarget, minLen int, field string) error {
	if len(objs) < minLen {
		noun := "objectives"
		if minLen == 1 {
			noun = "objective"
		}
		return errorf(ErrInvalidParetoObjectives, field, "needs at least %d %s, got %d %v", minLen, noun, len(objs), objs)
	}
	for i, t := range objs {
		if !t.IsValid() {
			return unknownTargetValue(fmt.Sprintf("%s[%d]", field, i), t)
		}
	}
	if i := slices.Index(objs, TargetPareto); i >= 0 {
		return errorf(ErrInvalidParetoObjectives, fmt.Sprintf("%s[%d]", field, i), "%s must not contain 'pareto'", field)
	}
	var seen uint64 // targets are < 64, so a bit set needs no allocation
	for i, t := range objs {
		if seen&(1<<t) != 0 {
			return errorf(ErrInvalidParetoObjectives, fmt.Sprintf("%s[%d]", field, i), "%s repeats %s: %v", field, t, objs)
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
// or JSON null, gives the default goal. Every error is an [*Error] wrapping
// one of the package's sentinels; malformed JSON wraps [ErrInvalidGoal], and
// an error found while reading gives its byte offset.
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
// embedded in a caller's own JSON document gets the rules of [ParseGoal];
// offsets and paths in its errors are relative to the goal, as encoding/json
// hands it over. JSON null leaves g unchanged, as encoding/json expects of
// an Unmarshaler; on error g is unchanged too.
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
		return g, r.errorf(r.pos, "a goal must be an object, got %s", k)
	}
	err := r.object("", func(key string, keyAt int) error {
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
			err = errorAt(ErrUnknownField, key, keyAt, "unknown key %q in goal (valid: target, sla, pareto_objectives)", key)
		}
		return err
	})
	return g, err
}

// decodeTarget reads a target name at path; anything but a known name, null
// included, is an error wrapping [ErrUnknownTarget].
func decodeTarget(r *jsonReader, path string) (OptimizationTarget, error) {
	if k := r.peek(); k != kindString {
		start := r.pos
		if err := r.skip(); err != nil {
			return 0, err
		}
		return 0, errorAt(ErrUnknownTarget, path, start, "unknown target %s, want a name (valid: %s)", r.data[start:r.pos], validTargetNames)
	}
	start := r.pos
	s, err := r.str()
	if err != nil {
		return 0, err
	}
	t, err := ParseOptimizationTarget(s)
	if err != nil {
		e := unknownTargetName(path, s)
		e.Offset = int64(start)
		return 0, e
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
	case kindInvalid:
		return nil, r.skip()
	default:
		return nil, errorAt(ErrInvalidParetoObjectives, "pareto_objectives", r.pos, "is %s, want an array of target names", k)
	}
	objs := []OptimizationTarget{}
	err := r.array(func(i int) error {
		t, err := decodeTarget(r, "pareto_objectives["+strconv.Itoa(i)+"]")
		objs = append(objs, t)
		return err
	})
	return objs, err
}

// LogValue implements [slog.LogValuer]: a goal logs as a group holding its
// target, for a pareto goal its resolved objectives, and the SLA bounds that
// are set, so log lines read as the goal block that configured them.
func (g OptimizationGoal) LogValue() slog.Value {
	attrs := []slog.Attr{slog.String("target", g.Target.String())}
	if g.IsPareto() {
		attrs = append(attrs, slog.Any("pareto_objectives", g.ResolvedParetoObjectives()))
	}
	var sla []slog.Attr
	for _, f := range g.SLA.fields() {
		if *f.v != 0 {
			sla = append(sla, slog.Float64(f.name, *f.v))
		}
	}
	// slog.GroupValue drops the sla group when it is empty.
	attrs = append(attrs, slog.Attr{Key: "sla", Value: slog.GroupValue(sla...)})
	return slog.GroupValue(attrs...)
}
