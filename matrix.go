package spica

import "strconv"

// value returns the candidate's value for target t by the one rule every
// candidate-level function uses (SPEC §6): Objectives[t.String()] when
// Objectives holds that key; otherwise, when Metrics is non-nil, the value
// [ObjectiveValue] reads from Metrics as a report — the rule that scored the
// candidate, so candidates made under a scalar goal can be traced on any
// objective. ok is false when neither applies. t is a valid scalar target.
func (c *Candidate) value(t OptimizationTarget) (v float64, ok bool) {
	if v, ok := c.Objectives[t.String()]; ok {
		return v, true
	}
	if c.Metrics == nil {
		return 0, false
	}
	v, err := ObjectiveValue(Report(c.Metrics), t)
	return v, err == nil
}

// errNoValue is the error for candidate i, which has no value for t. i < 0
// means the candidate is not part of a slice (a [ParetoArchive] newcomer).
func errNoValue(i int, t OptimizationTarget) error {
	who := "candidate"
	if i >= 0 {
		who += " " + strconv.Itoa(i)
	}
	return errorf(ErrInvalidCandidate, who+".objectives."+t.String(),
		"%s has no value for %s: its Objectives lack the key and it has no Metrics", who, t)
}

// ObjectiveMatrix reads candidates into the row-major matrix the matrix
// functions ([NonDominated], [Hypervolume], [SelectN], …) take: row i holds
// cands[i]'s values of objectives, in that order, each by the rule of
// [ParetoFront] (Objectives, else Metrics), and maximize holds the
// objectives' directions. An invalid objective list is an error as in
// [ParetoFront]; a candidate without a value is an error wrapping
// [ErrInvalidCandidate] that names it ("candidate N") and the objective.
// cands is not modified.
func ObjectiveMatrix(cands []Candidate, objectives []OptimizationTarget) (values []float64, maximize []bool, err error) {
	if err := checkObjectives(objectives, 1, "objectives"); err != nil {
		return nil, nil, err
	}
	values = make([]float64, len(cands)*len(objectives))
	for i := range cands {
		row := values[i*len(objectives) : (i+1)*len(objectives)]
		for k, t := range objectives {
			v, ok := cands[i].value(t)
			if !ok {
				return nil, nil, errNoValue(i, t)
			}
			row[k] = v
		}
	}
	return values, directions(objectives), nil
}
