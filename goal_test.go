package spica

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestParseGoalAccepts(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want OptimizationGoal
	}{
		{"empty input is the default goal", ``, OptimizationGoal{}},
		{"white space is the default goal", " \n\t\r ", OptimizationGoal{}},
		{"null is the default goal", ` null `, OptimizationGoal{}},
		{"an empty object is the default goal", `{}`, OptimizationGoal{}},
		{"a scalar target", `{"target": "e2e_latency"}`, OptimizationGoal{Target: TargetE2ELatency}},
		{"goodput with ttft and itl", `{"target": "goodput", "sla": {"ttft_ms": 500, "itl_ms": 50}}`,
			OptimizationGoal{Target: TargetGoodput, SLA: SLATarget{TTFTMs: 500, ITLMs: 50}}},
		{"goodput_per_gpu with e2e", `{"sla": {"e2e_ms": 2000}, "target": "goodput_per_gpu"}`,
			OptimizationGoal{Target: TargetGoodputPerGPU, SLA: SLATarget{E2EMs: 2000}}},
		{"an SLA is allowed on any target", `{"target": "throughput", "sla": {"ttft_ms": 100}}`,
			OptimizationGoal{SLA: SLATarget{TTFTMs: 100}}},
		{"sla null is unset", `{"sla": null}`, OptimizationGoal{}},
		{"pareto with the default pair", `{"target": "pareto"}`, OptimizationGoal{Target: TargetPareto}},
		{"pareto_objectives null is unset", `{"target": "pareto", "pareto_objectives": null}`, OptimizationGoal{Target: TargetPareto}},
		{"pareto with three objectives", `{"target": "pareto", "pareto_objectives": ["e2e_latency", "throughput", "throughput_per_user"]}`,
			OptimizationGoal{Target: TargetPareto, ParetoObjectives: []OptimizationTarget{TargetE2ELatency, TargetThroughput, TargetThroughputPerUser}}},
		{"pareto over goodput with an SLA", `{"target": "pareto", "pareto_objectives": ["goodput", "throughput_per_user"], "sla": {"e2e_ms": 1}}`,
			OptimizationGoal{Target: TargetPareto, ParetoObjectives: []OptimizationTarget{TargetGoodput, TargetThroughputPerUser}, SLA: SLATarget{E2EMs: 1}}},
		{"escaped key and value", `{"t\u0061rget": "e2e_l\u0061tency"}`, OptimizationGoal{Target: TargetE2ELatency}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseGoal([]byte(tt.in))
			if err != nil {
				t.Fatalf("ParseGoal(%s) error: %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseGoal(%s) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestParseGoalRejects(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		sentinel error
		path     string
		offset   int64  // counted by hand; -1 for a Validate failure
		msg      string // contract wording the message must keep, if any
	}{
		{"unknown top-level key", `{"target": "throughput", "budget": 8}`, ErrUnknownField, "budget", 25, ""},
		{"case-mismatched key", `{"TARGET": "throughput"}`, ErrUnknownField, "TARGET", 1, ""},
		{"unknown key inside sla", `{"sla": {"ttft_ms": 1, "p99": 2}}`, ErrUnknownField, "sla.p99", 23, ""},
		{"case-mismatched key inside sla", `{"sla": {"E2E_ms": 2}}`, ErrUnknownField, "sla.E2E_ms", 9, ""},
		{"duplicate top-level key", `{"target": "goodput", "target": "throughput"}`, ErrDuplicateKey, "target", 22, "given twice"},
		{"duplicate key inside sla", `{"sla": {"e2e_ms": 1, "e2e_ms": 1}}`, ErrDuplicateKey, "sla.e2e_ms", 22, "given twice"},
		{"target null", `{"target": null}`, ErrUnknownTarget, "target", 11, "throughput_per_gpu"},
		{"target a number", `{"target": 0}`, ErrUnknownTarget, "target", 11, ""},
		{"unknown target name", `{"target": "latency"}`, ErrUnknownTarget, "target", 11, `"latency" (valid: throughput, throughput_per_gpu`},
		{"unknown objective", `{"target": "pareto", "pareto_objectives": ["throughput", "tps"]}`, ErrUnknownTarget, "pareto_objectives[1]", 57, `"tps"`},
		{"objective not a string", `{"target": "pareto", "pareto_objectives": ["throughput", null]}`, ErrUnknownTarget, "pareto_objectives[1]", 57, ""},
		{"objectives not an array", `{"target": "pareto", "pareto_objectives": "throughput"}`, ErrInvalidParetoObjectives, "pareto_objectives", 42, ""},
		{"explicit empty objectives are kept and rejected", `{"target": "pareto", "pareto_objectives": []}`, ErrInvalidParetoObjectives, "pareto_objectives", -1, "at least 2"},
		{"one objective", `{"target": "pareto", "pareto_objectives": ["throughput"]}`, ErrInvalidParetoObjectives, "pareto_objectives", -1, "at least 2"},
		{"objectives under a scalar target", `{"target": "throughput", "pareto_objectives": ["throughput", "e2e_latency"]}`, ErrInvalidParetoObjectives, "pareto_objectives", -1, "only valid when target is 'pareto'"},
		{"empty objectives under a scalar target", `{"pareto_objectives": []}`, ErrInvalidParetoObjectives, "pareto_objectives", -1, "only valid when target is 'pareto'"},
		{"pareto inside pareto", `{"target": "pareto", "pareto_objectives": ["throughput", "pareto"]}`, ErrInvalidParetoObjectives, "pareto_objectives[1]", -1, "must not contain 'pareto'"},
		{"repeated objective", `{"target": "pareto", "pareto_objectives": ["throughput", "e2e_latency", "throughput"]}`, ErrInvalidParetoObjectives, "pareto_objectives[2]", -1, "[throughput e2e_latency throughput]"},
		// Issue 9, defect 4: SPEC §3 rule 3 checks for pareto over the whole
		// list before looking for repeats.
		{"pareto after a repeat fails on pareto", `{"target":"pareto","pareto_objectives":["throughput","throughput","pareto"]}`, ErrInvalidParetoObjectives, "pareto_objectives[2]", -1, "must not contain 'pareto'"},
		{"goodput without sla", `{"target": "goodput"}`, ErrSLARequired, "sla", -1, "[goodput] require an SLA target (ttft_ms+itl_ms or e2e_ms)"},
		{"goodput with half an sla", `{"target": "goodput_per_gpu", "sla": {"itl_ms": 5}}`, ErrSLARequired, "sla", -1, "[goodput_per_gpu] require"},
		{"pareto over both goodputs without sla", `{"target": "pareto", "pareto_objectives": ["goodput_per_gpu", "throughput", "goodput"]}`, ErrSLARequired, "sla", -1, "[goodput goodput_per_gpu] require an SLA target (ttft_ms+itl_ms or e2e_ms)"},
		{"zero sla bound", `{"sla": {"e2e_ms": 0}}`, ErrInvalidSLA, "sla.e2e_ms", 19, ""},
		{"string sla bound", `{"sla": {"e2e_ms": "5"}}`, ErrInvalidSLA, "sla.e2e_ms", 19, "a string"},
		{"sla not an object", `{"sla": 5}`, ErrInvalidSLA, "sla", 8, ""},
		{"top level an array", `[]`, ErrInvalidGoal, "", 0, "must be an object"},
		{"top level a string", `"pareto"`, ErrInvalidGoal, "", 0, "must be an object"},
		{"truncated", `{"target": "throughput"`, ErrInvalidGoal, "", 23, ""},
		{"trailing garbage", `{} {}`, ErrInvalidGoal, "", 3, "after the top-level value"},
		{"trailing comma", `{"target": "throughput",}`, ErrInvalidGoal, "", 24, ""},
		{"single quotes", `{'target': 'throughput'}`, ErrInvalidGoal, "", 1, ""},
		{"NaN is not JSON", `{"sla": {"e2e_ms": NaN}}`, ErrInvalidGoal, "", 19, ""},
		{"null followed by garbage", `null x`, ErrInvalidGoal, "", 5, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseGoal([]byte(tt.in))
			checkError(t, err, tt.sentinel, tt.path, tt.offset)
			if e := (*Error)(nil); errors.As(err, &e) && !strings.Contains(e.Msg, tt.msg) {
				t.Errorf("message %q lacks %q", e.Msg, tt.msg)
			}
			if diff := cmp.Diff(OptimizationGoal{}, got); diff != "" {
				t.Errorf("a failed parse returned a non-zero goal:\n%s", diff)
			}
		})
	}
}

// checkError asserts that err is an *Error wrapping sentinel, and only
// sentinel of the package's sentinels, at path and offset.
func checkError(t testing.TB, err, sentinel error, path string, offset int64) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v (%T), want an *Error wrapping %v", err, err, sentinel)
	}
	for _, s := range sentinels {
		if errors.Is(err, s) != (s == sentinel) {
			t.Errorf("errors.Is(%v, %v) = %v; want exactly %v", err, s, !(s == sentinel), sentinel)
		}
	}
	if e.Path != path || e.Offset != offset {
		t.Errorf("error %v: Path, Offset = %q, %d; want %q, %d", err, e.Path, e.Offset, path, offset)
	}
}

func TestValidateChecksRulesInOrder(t *testing.T) {
	pareto := func(objs ...OptimizationTarget) OptimizationGoal {
		return OptimizationGoal{Target: TargetPareto, ParetoObjectives: objs}
	}
	tests := []struct {
		name     string
		goal     OptimizationGoal
		sentinel []error // every one must match
		msg      string
	}{
		{"unknown target comes first", OptimizationGoal{Target: 9, SLA: SLATarget{E2EMs: -1}, ParetoObjectives: []OptimizationTarget{}},
			[]error{ErrUnknownTarget}, "OptimizationTarget(9)"},
		{"objectives under a scalar target before the SLA", OptimizationGoal{Target: TargetGoodput, ParetoObjectives: []OptimizationTarget{}, SLA: SLATarget{E2EMs: -1}},
			[]error{ErrInvalidParetoObjectives}, "pareto_objectives is only valid when target is 'pareto'"},
		{"too few before pareto-in-list", pareto(TargetPareto), []error{ErrInvalidParetoObjectives}, "at least 2"},
		{"an out-of-range objective", pareto(TargetThroughput, 42), []error{ErrUnknownTarget}, "OptimizationTarget(42)"},
		{"an out-of-range objective before pareto", pareto(TargetPareto, 42), []error{ErrUnknownTarget}, "OptimizationTarget(42)"},
		{"pareto anywhere before a repeat", pareto(TargetThroughput, TargetThroughput, TargetPareto), []error{ErrInvalidParetoObjectives}, "must not contain 'pareto'"},
		{"pareto in the list before repeats", pareto(TargetPareto, TargetPareto), []error{ErrInvalidParetoObjectives}, "must not contain 'pareto'"},
		{"repeats show the list as given", pareto(TargetThroughputPerUser, TargetThroughputPerUser), []error{ErrInvalidParetoObjectives},
			"[throughput_per_user throughput_per_user]"},
		{"objective list before the SLA bounds", OptimizationGoal{Target: TargetPareto, ParetoObjectives: []OptimizationTarget{}, SLA: SLATarget{TTFTMs: -3}},
			[]error{ErrInvalidParetoObjectives}, "got 0"},
		{"bad SLA bounds on a target that ignores them", OptimizationGoal{Target: TargetE2ELatency, SLA: SLATarget{ITLMs: -3}},
			[]error{ErrInvalidSLA}, "itl_ms"},
		{"bad SLA bounds before the SLA requirement", OptimizationGoal{Target: TargetGoodput, SLA: SLATarget{ITLMs: -3}},
			[]error{ErrInvalidSLA}, "itl_ms"},
		{"a default-pair pareto needs no SLA, but goodput in the list does", pareto(TargetGoodput, TargetThroughput),
			[]error{ErrSLARequired}, "[goodput] require an SLA target"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.goal.Validate()
			for _, s := range tt.sentinel {
				if !errors.Is(err, s) {
					t.Errorf("Validate() = %v, want it to wrap %v", err, s)
				}
			}
			if err != nil && !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("message %q lacks %q", err, tt.msg)
			}
		})
	}
}

func TestGoalDerivedViews(t *testing.T) {
	scalar := OptimizationGoal{Target: TargetGoodputPerGPU, SLA: SLATarget{E2EMs: 1}}
	def := OptimizationGoal{Target: TargetPareto}
	custom := OptimizationGoal{Target: TargetPareto, ParetoObjectives: []OptimizationTarget{TargetE2ELatency, TargetGoodput}}

	if diff := cmp.Diff([]OptimizationTarget{TargetGoodputPerGPU}, scalar.EffectiveObjectives()); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff(DefaultParetoObjectives(), def.EffectiveObjectives()); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([]OptimizationTarget{TargetThroughputPerGPU, TargetThroughputPerUser}, DefaultParetoObjectives()); diff != "" {
		t.Error(diff)
	}
	if !scalar.NeedsSLA() || def.NeedsSLA() || !custom.NeedsSLA() {
		t.Errorf("NeedsSLA: scalar goodput_per_gpu %v, default pareto %v, pareto with goodput %v", scalar.NeedsSLA(), def.NeedsSLA(), custom.NeedsSLA())
	}
	if scalar.IsPareto() || !def.IsPareto() {
		t.Error("IsPareto is wrong")
	}
	for goal, want := range map[*OptimizationGoal]string{&scalar: "sla", &def: "throughput", {Target: TargetE2ELatency}: "latency"} {
		if got := goal.PlannerOptimizationTarget(); got != want {
			t.Errorf("%v planner = %q, want %q", goal.Target, got, want)
		}
	}

	// Every view returns a fresh slice.
	custom.ResolvedParetoObjectives()[0] = TargetPareto
	custom.EffectiveObjectives()[0] = TargetPareto
	DefaultParetoObjectives()[0] = TargetPareto
	def.ResolvedParetoObjectives()[0] = TargetPareto
	if custom.ParetoObjectives[0] != TargetE2ELatency || DefaultParetoObjectives()[0] != TargetThroughputPerGPU {
		t.Error("a returned slice aliases the goal or the default pair")
	}
	// An explicit empty list resolves to itself, not to the default pair.
	empty := OptimizationGoal{Target: TargetPareto, ParetoObjectives: []OptimizationTarget{}}
	if got := empty.ResolvedParetoObjectives(); got == nil || len(got) != 0 {
		t.Errorf("explicit [] resolved to %v", got)
	}
}

func TestSamplerObjectives(t *testing.T) {
	tests := []struct {
		goal OptimizationGoal
		want []SamplerObjective
	}{
		{OptimizationGoal{}, []SamplerObjective{{"objective", true}}},
		{OptimizationGoal{Target: TargetE2ELatency}, []SamplerObjective{{"objective", true}}}, // the score is already signed
		{OptimizationGoal{Target: TargetPareto}, []SamplerObjective{{"throughput_per_gpu", true}, {"throughput_per_user", true}}},
		{OptimizationGoal{Target: TargetPareto, ParetoObjectives: []OptimizationTarget{TargetE2ELatency, TargetThroughput, TargetGoodputPerGPU}, SLA: SLATarget{TTFTMs: 1, ITLMs: 1}},
			[]SamplerObjective{{"e2e_latency", false}, {"throughput", true}, {"goodput_per_gpu", true}}},
	}
	for _, tt := range tests {
		got, err := tt.goal.SamplerObjectives()
		if err != nil {
			t.Fatalf("%+v: %v", tt.goal, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%+v mismatch (-want +got):\n%s", tt.goal, diff)
		}
	}
	if _, err := (OptimizationGoal{Target: TargetGoodput}).SamplerObjectives(); !errors.Is(err, ErrSLARequired) {
		t.Errorf("invalid goal: error = %v, want ErrSLARequired", err)
	}
}

func TestGoalInsideCallerJSON(t *testing.T) {
	type sweep struct {
		Name string           `json:"name"`
		Goal OptimizationGoal `json:"goal"`
	}
	var s sweep
	err := json.Unmarshal([]byte(`{"name": "a", "goal": {"target": "e2e_latency"}}`), &s)
	if err != nil || s.Goal.Target != TargetE2ELatency {
		t.Fatalf("got %+v, %v", s, err)
	}
	err = json.Unmarshal([]byte(`{"goal": {"target": "e2e_latency", "Sla": {}}}`), &s)
	if !errors.Is(err, ErrUnknownField) {
		t.Errorf("strictness lost inside a caller's document: %v", err)
	}
	err = json.Unmarshal([]byte(`{"goal": {"target": "goodput"}}`), &s)
	if !errors.Is(err, ErrSLARequired) {
		t.Errorf("validation lost inside a caller's document: %v", err)
	}
	keep := OptimizationGoal{Target: TargetE2ELatency}
	if err := keep.UnmarshalJSON([]byte("null")); err != nil || keep.Target != TargetE2ELatency {
		t.Errorf("null: %+v, %v; want the goal unchanged", keep, err)
	}
	if err := keep.UnmarshalJSON([]byte(`{"target": "nope"}`)); err == nil || keep.Target != TargetE2ELatency {
		t.Errorf("error: %+v, %v; want the goal unchanged", keep, err)
	}
}

func TestGoalEncoding(t *testing.T) {
	tests := []struct {
		goal OptimizationGoal
		want string
	}{
		{OptimizationGoal{}, `{"target":"throughput"}`},
		{OptimizationGoal{Target: TargetGoodput, SLA: SLATarget{TTFTMs: 500, ITLMs: 50}}, `{"target":"goodput","sla":{"ttft_ms":500,"itl_ms":50}}`},
		{OptimizationGoal{Target: TargetPareto}, `{"target":"pareto"}`},
		{OptimizationGoal{Target: TargetPareto, ParetoObjectives: []OptimizationTarget{}}, `{"target":"pareto","pareto_objectives":[]}`},
		{OptimizationGoal{Target: TargetPareto, ParetoObjectives: []OptimizationTarget{TargetE2ELatency, TargetThroughput}},
			`{"target":"pareto","pareto_objectives":["e2e_latency","throughput"]}`},
	}
	for _, tt := range tests {
		got, err := json.Marshal(tt.goal)
		if err != nil || string(got) != tt.want {
			t.Errorf("Marshal(%+v) = %s, %v; want %s", tt.goal, got, err, tt.want)
		}
	}
}

// goalGen draws goals from the whole space, valid or not.
func goalGen() *rapid.Generator[OptimizationGoal] {
	target := rapid.Custom(func(t *rapid.T) OptimizationTarget {
		return OptimizationTarget(rapid.IntRange(0, len(targetTable)-1).Draw(t, "target"))
	})
	bound := rapid.SampledFrom([]float64{0, 0, 1, 50, 500, 2.5e3, 1e-3})
	return rapid.Custom(func(t *rapid.T) OptimizationGoal {
		g := OptimizationGoal{
			Target: target.Draw(t, "target"),
			SLA:    SLATarget{bound.Draw(t, "ttft"), bound.Draw(t, "itl"), bound.Draw(t, "e2e")},
		}
		if rapid.Bool().Draw(t, "has objectives") {
			g.ParetoObjectives = rapid.SliceOfN(target, 0, 4).Draw(t, "objectives")
		}
		return g
	})
}

func TestGoalJSONRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := goalGen().Draw(t, "goal")
		data, err := json.Marshal(g)
		if err != nil {
			t.Fatalf("Marshal(%+v): %v", g, err)
		}
		got, err := ParseGoal(data)
		if verr := g.Validate(); verr != nil {
			// An invalid goal encodes, but never decodes: same error.
			if err == nil || err.Error() != verr.Error() {
				t.Fatalf("ParseGoal(%s) error = %v, want the validation error %v", data, err, verr)
			}
			return
		}
		if err != nil {
			t.Fatalf("ParseGoal(%s): %v", data, err)
		}
		if diff := cmp.Diff(g, got); diff != "" {
			t.Fatalf("round trip of %s mismatch (-want +got):\n%s", data, diff)
		}
	})
}

func FuzzParseGoal(f *testing.F) {
	for _, s := range []string{``, `null`, `{}`, `{"target": "pareto"}`,
		`{"target": "goodput", "sla": {"ttft_ms": 500, "itl_ms": 50}}`,
		`{"target": "pareto", "pareto_objectives": ["e2e_latency", "goodput"], "sla": {"e2e_ms": 9}}`,
		`{"target": "pareto", "pareto_objectives": []}`, `{"TARGET": 1}`, `{"target": "x", "target": "y"}`,
		`{"sla": {"e2e_ms": 1e999}}`, `[{"a": "\ud800"}]`, "{\"target\": \"throughput\"}\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ParseGoal(data)
		if err != nil {
			if msg := oneSentinel(err); msg != "" {
				t.Fatal(msg)
			}
			return
		}
		if err := g.Validate(); err != nil {
			t.Fatalf("accepted an invalid goal %+v: %v", g, err)
		}
		enc, err := json.Marshal(g)
		if err != nil {
			t.Fatalf("cannot re-encode %+v: %v", g, err)
		}
		again, err := ParseGoal(enc)
		if err != nil {
			t.Fatalf("re-parse of %s: %v", enc, err)
		}
		if diff := cmp.Diff(g, again); diff != "" {
			t.Fatalf("re-parse of %s mismatch (-first +again):\n%s", enc, diff)
		}
	})
}
