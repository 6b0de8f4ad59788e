package spica

// The methods below have the signatures controller-gen's deepcopy generator
// looks for on a field's type (SPEC §14): a Kubernetes API type that embeds
// an OptimizationGoal gets a generated DeepCopyInto that calls these instead
// of copying the struct by value, which would share ParetoObjectives between
// the copies.

// DeepCopyInto copies s into out. An SLATarget holds only numbers, so this
// is an assignment; it exists so that generated code can treat SLATarget
// like any other API type.
func (s *SLATarget) DeepCopyInto(out *SLATarget) { *out = *s }

// DeepCopy returns a new copy of s, or nil for a nil s.
func (s *SLATarget) DeepCopy() *SLATarget {
	if s == nil {
		return nil
	}
	out := new(SLATarget)
	s.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies g into out, giving out its own ParetoObjectives. A nil
// list stays nil ("unset": the default pair) and a non-nil empty list stays
// non-nil and empty, so that validation of the copy still rejects it.
func (g *OptimizationGoal) DeepCopyInto(out *OptimizationGoal) {
	*out = *g
	if g.ParetoObjectives != nil {
		out.ParetoObjectives = make([]OptimizationTarget, len(g.ParetoObjectives))
		copy(out.ParetoObjectives, g.ParetoObjectives)
	}
}

// DeepCopy returns a new copy of g (see [OptimizationGoal.DeepCopyInto]), or
// nil for a nil g.
func (g *OptimizationGoal) DeepCopy() *OptimizationGoal {
	if g == nil {
		return nil
	}
	out := new(OptimizationGoal)
	g.DeepCopyInto(out)
	return out
}
