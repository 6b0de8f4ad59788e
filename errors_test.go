package spica

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorMessageShape(t *testing.T) {
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{"path, message and offset", errorAt(ErrInvalidSLA, "sla.e2e_ms", 17, "is %d, want a finite number > 0", -1),
			"spica: sla.e2e_ms: is -1, want a finite number > 0 (at byte 17)"},
		{"no path leaves the path part out", errorf(ErrInvalidMatrix, "", "dims is 0, want at least 1"),
			"spica: dims is 0, want at least 1"},
		{"offset zero is still an offset", errorAt(ErrInvalidGoal, "", 0, "unexpected end of input"),
			"spica: unexpected end of input (at byte 0)"},
		{"no offset when not parsing", errorf(ErrInvalidCandidate, "candidate 3.objectives.e2e_latency", "is missing"),
			"spica: candidate 3.objectives.e2e_latency: is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
			if !errors.Is(tt.err, tt.err.Err) {
				t.Errorf("errors.Is(err, %v) = false", tt.err.Err)
			}
		})
	}
}

// sentinels is every sentinel the package exports.
var sentinels = []error{ErrUnknownTarget, ErrNoScalarDirection, ErrInvalidSLA, ErrSLARequired,
	ErrInvalidParetoObjectives, ErrUnknownField, ErrDuplicateKey, ErrInvalidGoal, ErrInvalidReport,
	ErrInvalidCandidate, ErrInvalidBound, ErrInvalidMatrix, ErrInvalidJSON}

// oneSentinel says what is wrong unless err is an *Error wrapping exactly
// one of the sentinels ("" when it is).
func oneSentinel(err error) string {
	var e *Error
	if !errors.As(err, &e) {
		return fmt.Sprintf("error %v (%T) is not an *Error", err, err)
	}
	var found []error
	for _, s := range sentinels {
		if errors.Is(err, s) {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		return fmt.Sprintf("error %v wraps %d sentinels %v, want exactly one", err, len(found), found)
	}
	return ""
}

// TestEveryEntryPointReturnsOneSentinel is the one table of bad inputs
// across the package's entry points: each error is an *Error wrapping
// exactly one sentinel, the expected one.
func TestEveryEntryPointReturnsOneSentinel(t *testing.T) {
	objs := DefaultParetoObjectives()
	good := Candidate{Objectives: map[string]float64{"throughput_per_gpu": 1, "throughput_per_user": 1}}
	lacking := []Candidate{good, {Objectives: map[string]float64{"throughput_per_gpu": 1}}}
	archive, _ := NewParetoArchive(objs)
	var goal OptimizationGoal
	var sla SLATarget
	var rep Report
	var cand Candidate
	var target OptimizationTarget
	err2 := func(_ any, err error) error { return err }
	err3 := func(_, _ any, err error) error { return err }
	tests := []struct {
		name     string
		call     func() error
		sentinel error
	}{
		{"ParseGoal: unknown key", func() error { return err2(ParseGoal([]byte(`{"tagret": "x"}`))) }, ErrUnknownField},
		{"ParseGoal: repeated key", func() error { return err2(ParseGoal([]byte(`{"target": "pareto", "target": "pareto"}`))) }, ErrDuplicateKey},
		{"ParseGoal: malformed", func() error { return err2(ParseGoal([]byte(`{"target"`))) }, ErrInvalidGoal},
		{"ParseGoal: unknown target", func() error { return err2(ParseGoal([]byte(`{"target": "fast"}`))) }, ErrUnknownTarget},
		{"ParseGoal: bad objectives", func() error { return err2(ParseGoal([]byte(`{"target": "pareto", "pareto_objectives": []}`))) }, ErrInvalidParetoObjectives},
		{"ParseGoal: bad SLA", func() error { return err2(ParseGoal([]byte(`{"sla": {"e2e_ms": -1}}`))) }, ErrInvalidSLA},
		{"ParseGoal: SLA required", func() error { return err2(ParseGoal([]byte(`{"target": "goodput"}`))) }, ErrSLARequired},
		{"goal UnmarshalJSON: repeated key", func() error { return goal.UnmarshalJSON([]byte(`{"sla": {}, "sla": {}}`)) }, ErrDuplicateKey},
		{"goal UnmarshalJSON: case", func() error { return goal.UnmarshalJSON([]byte(`{"Target": "pareto"}`)) }, ErrUnknownField},
		{"goal UnmarshalYAML: target null", func() error { return goal.UnmarshalYAML(fakeYAML(map[string]any{"target": nil})) }, ErrUnknownTarget},
		{"goal UnmarshalYAML: .inf", func() error {
			return goal.UnmarshalYAML(fakeYAML(map[string]any{"sla": map[string]any{"e2e_ms": inf}}))
		}, ErrInvalidSLA},
		{"goal MarshalYAML: unknown target", func() error { return err2(OptimizationGoal{Target: 9}.MarshalYAML()) }, ErrUnknownTarget},
		{"goal Validate", func() error {
			return OptimizationGoal{Target: TargetPareto, ParetoObjectives: []OptimizationTarget{TargetThroughput}}.Validate()
		}, ErrInvalidParetoObjectives},
		{"goal SamplerObjectives", func() error { return err2(OptimizationGoal{Target: TargetGoodput}.SamplerObjectives()) }, ErrSLARequired},
		{"SLATarget UnmarshalJSON: zero", func() error { return sla.UnmarshalJSON([]byte(`{"e2e_ms": 0}`)) }, ErrInvalidSLA},
		{"SLATarget UnmarshalJSON: repeated", func() error { return sla.UnmarshalJSON([]byte(`{"e2e_ms": 1, "e2e_ms": 1}`)) }, ErrDuplicateKey},
		{"SLATarget UnmarshalYAML: unknown", func() error { return sla.UnmarshalYAML(fakeYAML(map[string]any{"p99": 1})) }, ErrUnknownField},
		{"SLATarget Validate", func() error { return SLATarget{TTFTMs: nan}.Validate() }, ErrInvalidSLA},
		{"ParseReport: string metric", func() error { return err2(ParseReport([]byte(`{"gpu_hours": "1"}`))) }, ErrInvalidReport},
		{"ParseReport: repeated key", func() error { return err2(ParseReport([]byte(`{"x": [], "x": 1}`))) }, ErrDuplicateKey},
		{"ParseReport: malformed", func() error { return err2(ParseReport([]byte(`{"x": nan}`))) }, ErrInvalidReport},
		{"Report UnmarshalJSON: repeated key", func() error { return rep.UnmarshalJSON([]byte(`{"a": 1, "a": 1}`)) }, ErrDuplicateKey},
		{"Report UnmarshalJSON: not an object", func() error { return rep.UnmarshalJSON([]byte(`[]`)) }, ErrInvalidReport},
		{"Candidate UnmarshalJSON: unknown key", func() error { return cand.UnmarshalJSON([]byte(`{"gpus": 1}`)) }, ErrUnknownField},
		{"Candidate UnmarshalJSON: repeated key", func() error { return cand.UnmarshalJSON([]byte(`{"score": 1, "score": 1}`)) }, ErrDuplicateKey},
		{"Candidate UnmarshalJSON: bad float", func() error { return cand.UnmarshalJSON([]byte(`{"score": "x"}`)) }, ErrInvalidCandidate},
		{"Candidate MarshalJSON: NaN in config", func() error { return err2(Candidate{Config: map[string]any{"x": nan}}.MarshalJSON()) }, ErrInvalidCandidate},
		{"MakeCandidate: bad used_gpus", func() error { return err2(MakeCandidate(map[string]any{"used_gpus": "2"}, nil, OptimizationGoal{})) }, ErrInvalidCandidate},
		{"MakeCandidate: bad goal", func() error { return err2(MakeCandidate(nil, nil, OptimizationGoal{Target: 40})) }, ErrUnknownTarget},
		{"ParseOptimizationTarget", func() error { return err2(ParseOptimizationTarget("Throughput")) }, ErrUnknownTarget},
		{"UnmarshalText", func() error { return target.UnmarshalText([]byte("x")) }, ErrUnknownTarget},
		{"MarshalText", func() error { return err2(OptimizationTarget(7).MarshalText()) }, ErrUnknownTarget},
		{"Maximize: pareto", func() error { return err2(TargetPareto.Maximize()) }, ErrNoScalarDirection},
		{"Maximize: unknown", func() error { return err2(OptimizationTarget(7).Maximize()) }, ErrUnknownTarget},
		{"ObjectiveValue: pareto", func() error { return err2(ObjectiveValue(nil, TargetPareto)) }, ErrNoScalarDirection},
		{"ScoreReport: unknown", func() error { return err2(ScoreReport(nil, 70)) }, ErrUnknownTarget},
		{"ObjectiveVector: repeat", func() error { return err2(ObjectiveVector(nil, []OptimizationTarget{0, 0})) }, ErrInvalidParetoObjectives},
		{"Dominates: missing key after a deciding objective", func() error {
			return err2(Dominates(map[string]float64{"throughput_per_gpu": 0}, good.Objectives, objs))
		}, ErrInvalidCandidate},
		{"Dominates: unknown objective", func() error { return err2(Dominates(nil, nil, []OptimizationTarget{8})) }, ErrUnknownTarget},
		{"ParetoFront: lacking value", func() error { return err2(ParetoFront(lacking, objs)) }, ErrInvalidCandidate},
		{"ParetoFront: empty objectives", func() error { return err2(ParetoFront(nil, nil)) }, ErrInvalidParetoObjectives},
		{"ParetoLayers: lacking value", func() error { return err2(ParetoLayers(lacking, objs)) }, ErrInvalidCandidate},
		{"BestSubjectTo: pareto objective", func() error { return err3(BestSubjectTo(nil, TargetPareto)) }, ErrNoScalarDirection},
		{"BestSubjectTo: NaN bound", func() error { return err3(BestSubjectTo(nil, TargetThroughput, Bound{TargetThroughput, nan})) }, ErrInvalidBound},
		{"BestSubjectTo: lacking value", func() error { return err3(BestSubjectTo(lacking, TargetThroughputPerUser)) }, ErrInvalidCandidate},
		{"SubjectTo: unknown bound", func() error { return err2(SubjectTo(nil, Bound{Target: 11})) }, ErrUnknownTarget},
		{"SubjectTo: lacking value", func() error { return err2(SubjectTo(lacking, Bound{TargetThroughputPerUser, 0})) }, ErrInvalidCandidate},
		{"ObjectiveMatrix: lacking value", func() error { return err3(ObjectiveMatrix(lacking, objs)) }, ErrInvalidCandidate},
		{"ObjectiveMatrix: pareto objective", func() error { return err3(ObjectiveMatrix(nil, []OptimizationTarget{TargetPareto})) }, ErrInvalidParetoObjectives},
		{"NewParetoArchive: repeat", func() error { return err2(NewParetoArchive([]OptimizationTarget{1, 1})) }, ErrInvalidParetoObjectives},
		{"ParetoArchive.Add: lacking value", func() error { return err2(archive.Add(lacking[1])) }, ErrInvalidCandidate},
		{"ParetoArchive.Add: zero archive", func() error { return err2(new(ParetoArchive).Add(good)) }, ErrInvalidParetoObjectives},
		{"NormalizeJSON", func() error { return err2(NormalizeJSON([]byte(`[NaN,]`))) }, ErrInvalidJSON},
		{"NonDominated: ragged", func() error { return err2(NonDominated([]float64{1, 2, 3}, 2, []bool{true, true})) }, ErrInvalidMatrix},
		{"NonDominatedSort: short maximize", func() error { return err2(NonDominatedSort([]float64{1, 2}, 2, []bool{true})) }, ErrInvalidMatrix},
		{"CrowdingDistance: zero dims", func() error { return err2(CrowdingDistance([]float64{1}, 0)) }, ErrInvalidMatrix},
		{"Hypervolume: NaN reference", func() error { return err2(Hypervolume([]float64{1}, 1, []bool{true}, []float64{nan})) }, ErrInvalidMatrix},
		{"HypervolumeContributions: short reference", func() error {
			return err2(HypervolumeContributions([]float64{1, 2}, 2, []bool{true, true}, []float64{0}))
		}, ErrInvalidMatrix},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if msg := oneSentinel(err); msg != "" {
				t.Fatal(msg)
			}
			if !errors.Is(err, tt.sentinel) {
				t.Errorf("error %v does not wrap %v", err, tt.sentinel)
			}
		})
	}
}
