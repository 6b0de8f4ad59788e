package interop_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spica-search/spica"
	yamlv3 "gopkg.in/yaml.v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// ServiceConfig is a service's config file with spica's goal block inside.
type ServiceConfig struct {
	Name     string                 `json:"name" yaml:"name"`
	Goal     spica.OptimizationGoal `json:"goal" yaml:"goal"`
	Workload string                 `json:"workload" yaml:"workload"`
}

// decoders are the paths a config file takes into a Go service.
var decoders = []struct {
	name   string
	yaml   bool // reads YAML (else JSON)
	decode func([]byte, *ServiceConfig) error
}{
	{"yaml.v3", true, func(b []byte, c *ServiceConfig) error { return yamlv3.Unmarshal(b, c) }},
	{"sigs.k8s.io/yaml Unmarshal", true, func(b []byte, c *ServiceConfig) error { return sigsyaml.Unmarshal(b, c) }},
	{"sigs.k8s.io/yaml UnmarshalStrict", true, func(b []byte, c *ServiceConfig) error { return sigsyaml.UnmarshalStrict(b, c) }},
	{"encoding/json", false, func(b []byte, c *ServiceConfig) error { return json.Unmarshal(b, c) }},
}

// The config of the package doc (YAML) and of ExampleOptimizationGoal_UnmarshalJSON (JSON).
const (
	paretoYAML = `name: chat
workload: sharegpt
goal:
  target: pareto
  pareto_objectives: [throughput_per_gpu, throughput_per_user, e2e_latency]
`
	paretoJSON = `{"name": "chat", "workload": "sharegpt",
 "goal": {"target": "pareto", "pareto_objectives": ["throughput_per_gpu", "throughput_per_user", "e2e_latency"]}}`
	goodputYAML = `name: chat
goal:
  target: goodput
  sla: {ttft_ms: 500, itl_ms: 50}
`
	goodputJSON = `{"name": "chat", "goal": {"target": "goodput", "sla": {"ttft_ms": 500, "itl_ms": 50}}}`
)

// TestConfigsDecodeOnEveryPath is the first half of issue 8's first case:
// yaml.v3 dropped pareto_objectives and sla silently.
func TestConfigsDecodeOnEveryPath(t *testing.T) {
	pareto := spica.OptimizationGoal{Target: spica.TargetPareto, ParetoObjectives: []spica.OptimizationTarget{
		spica.TargetThroughputPerGPU, spica.TargetThroughputPerUser, spica.TargetE2ELatency}}
	goodput := spica.OptimizationGoal{Target: spica.TargetGoodput, SLA: spica.SLATarget{TTFTMs: 500, ITLMs: 50}}
	for _, d := range decoders {
		for _, tt := range []struct {
			name       string
			yaml, json string
			want       ServiceConfig
		}{
			{"a 3-objective pareto goal", paretoYAML, paretoJSON, ServiceConfig{Name: "chat", Workload: "sharegpt", Goal: pareto}},
			{"a goodput goal keeps its SLA", goodputYAML, goodputJSON, ServiceConfig{Name: "chat", Goal: goodput}},
			{"no goal block is the default goal", "name: chat\n", `{"name": "chat"}`, ServiceConfig{Name: "chat"}},
		} {
			t.Run(d.name+"/"+tt.name, func(t *testing.T) {
				in := tt.json
				if d.yaml {
					in = tt.yaml
				}
				var got ServiceConfig
				if err := d.decode([]byte(in), &got); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestBadGoalsFailOnEveryPath is the rest of issue 8's first case: each of
// these passed yaml.v3 silently. Each must fail on every path with the
// sentinel and Path the package gives.
func TestBadGoalsFailOnEveryPath(t *testing.T) {
	tests := []struct {
		name       string
		yaml, json string // the goal block
		sentinel   error
		path       string
	}{
		{"Target: (case)", "Target: e2e_latency", `{"Target": "e2e_latency"}`, spica.ErrUnknownField, "Target"},
		{"tagret: (misspelled)", "tagret: e2e_latency", `{"tagret": "e2e_latency"}`, spica.ErrUnknownField, "tagret"},
		{"target: null", "target: null", `{"target": null}`, spica.ErrUnknownTarget, "target"},
		{"pareto_objectives: []", "target: pareto\n  pareto_objectives: []", `{"target": "pareto", "pareto_objectives": []}`, spica.ErrInvalidParetoObjectives, "pareto_objectives"},
		{"sla: {ttft_ms: 0}", "sla: {ttft_ms: 0}", `{"sla": {"ttft_ms": 0}}`, spica.ErrInvalidSLA, "sla.ttft_ms"},
		{"goodput without an SLA", "target: goodput", `{"target": "goodput"}`, spica.ErrSLARequired, "sla"},
		{"a quoted bound is a string", `sla: {e2e_ms: "500"}`, `{"sla": {"e2e_ms": "500"}}`, spica.ErrInvalidSLA, "sla.e2e_ms"},
		// Issue 26 defect 4: YAML libraries hand 1e400 over as a string,
		// JSON as a number beyond the float64 range; both are the SLA's
		// fault at the bound's path.
		{"a bound beyond the float64 range", "sla: {e2e_ms: 1e400}", `{"sla": {"e2e_ms": 1e400}}`, spica.ErrInvalidSLA, "sla.e2e_ms"},
		{"an unknown objective", "target: pareto\n  pareto_objectives: [throughput, tps]", `{"target": "pareto", "pareto_objectives": ["throughput", "tps"]}`, spica.ErrUnknownTarget, "pareto_objectives[1]"},
	}
	for _, d := range decoders {
		for _, tt := range tests {
			t.Run(d.name+"/"+tt.name, func(t *testing.T) {
				in := `{"name": "chat", "goal": ` + tt.json + `}`
				if d.yaml {
					in = "name: chat\ngoal:\n  " + tt.yaml + "\n"
				}
				var cfg ServiceConfig
				err := d.decode([]byte(in), &cfg)
				var e *spica.Error
				if !errors.Is(err, tt.sentinel) || !errors.As(err, &e) || e.Path != tt.path {
					t.Fatalf("error = %v; want a *spica.Error wrapping %v at %q", err, tt.sentinel, tt.path)
				}
			})
		}
	}
}

// TestNonFiniteBoundsAndRepeatedKeys pins down what each path does with
// the two cases where the libraries differ before spica sees the goal.
func TestNonFiniteBoundsAndRepeatedKeys(t *testing.T) {
	const (
		infYAML = "name: chat\ngoal:\n  sla: {e2e_ms: .inf}\n"
		nanYAML = "name: chat\ngoal:\n  sla: {e2e_ms: .nan}\n"
		dupYAML = "name: chat\ngoal:\n  target: goodput\n  sla: {e2e_ms: 5}\n  target: throughput\n"
		dupJSON = `{"name": "chat", "goal": {"target": "goodput", "sla": {"e2e_ms": 5}, "target": "throughput"}}`
	)
	decode := func(name, in string) (ServiceConfig, error) {
		for _, d := range decoders {
			if d.name == name {
				var cfg ServiceConfig
				err := d.decode([]byte(in), &cfg)
				return cfg, err
			}
		}
		panic(name)
	}
	is := func(err, sentinel error, path string) bool {
		var e *spica.Error
		return errors.Is(err, sentinel) && errors.As(err, &e) && e.Path == path
	}

	// yaml.v3 hands spica the .inf and .nan floats: invalid bounds.
	for _, in := range []string{infYAML, nanYAML} {
		if _, err := decode("yaml.v3", in); !is(err, spica.ErrInvalidSLA, "sla.e2e_ms") {
			t.Errorf("yaml.v3 %q: %v, want ErrInvalidSLA at sla.e2e_ms", in, err)
		}
	}
	// yaml.v3 itself rejects the repeated key; spica wraps its error.
	if _, err := decode("yaml.v3", dupYAML); !errors.Is(err, spica.ErrDuplicateKey) {
		t.Errorf("yaml.v3 repeated key: %v, want ErrDuplicateKey", err)
	}
	// sigs.k8s.io/yaml cannot write .inf or .nan as JSON: its own error,
	// before spica runs, on both of its paths.
	for _, name := range []string{"sigs.k8s.io/yaml Unmarshal", "sigs.k8s.io/yaml UnmarshalStrict"} {
		for _, in := range []string{infYAML, nanYAML} {
			if _, err := decode(name, in); err == nil {
				t.Errorf("%s %q: accepted", name, in)
			}
		}
	}
	// Its Unmarshal folds a repeated key (the last wins) before spica sees
	// the JSON, as the godoc warns; UnmarshalStrict refuses it.
	if cfg, err := decode("sigs.k8s.io/yaml Unmarshal", dupYAML); err != nil || cfg.Goal.Target != spica.TargetThroughput {
		t.Errorf("sigs.k8s.io/yaml Unmarshal repeated key: %+v, %v; want the last value, throughput", cfg.Goal, err)
	}
	if _, err := decode("sigs.k8s.io/yaml UnmarshalStrict", dupYAML); err == nil {
		t.Error("sigs.k8s.io/yaml UnmarshalStrict accepted a repeated key")
	}
	// encoding/json hands spica the goal with the key twice.
	if _, err := decode("encoding/json", dupJSON); !is(err, spica.ErrDuplicateKey, "target") {
		t.Errorf("encoding/json repeated key: %v, want ErrDuplicateKey at target", err)
	}
}

// TestGoalYAMLRoundTrip encodes goals with yaml.v3 through MarshalYAML and
// decodes them back.
func TestGoalYAMLRoundTrip(t *testing.T) {
	for _, g := range []spica.OptimizationGoal{
		{},
		{Target: spica.TargetGoodput, SLA: spica.SLATarget{TTFTMs: 500, ITLMs: 50}},
		{Target: spica.TargetPareto, ParetoObjectives: []spica.OptimizationTarget{spica.TargetGoodputPerGPU, spica.TargetE2ELatency}, SLA: spica.SLATarget{E2EMs: 2.5}},
	} {
		data, err := yamlv3.Marshal(ServiceConfig{Name: "x", Goal: g})
		if err != nil {
			t.Fatal(err)
		}
		var back ServiceConfig
		if err := yamlv3.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if diff := cmp.Diff(g, back.Goal); diff != "" {
			t.Errorf("round trip of\n%s(-in +out):\n%s", data, diff)
		}
	}
	data, err := yamlv3.Marshal(spica.OptimizationGoal{Target: spica.TargetGoodput, SLA: spica.SLATarget{E2EMs: 900}})
	if want := "target: goodput\nsla:\n    e2e_ms: 900\n"; err != nil || string(data) != want {
		t.Errorf("yaml.v3 writes\n%s(%v), want\n%s", data, err, want)
	}
	// An explicit empty list is written as [] and refused on the way back.
	data, err = yamlv3.Marshal(spica.OptimizationGoal{Target: spica.TargetPareto, ParetoObjectives: []spica.OptimizationTarget{}})
	if want := "target: pareto\npareto_objectives: []\n"; err != nil || string(data) != want {
		t.Errorf("yaml.v3 writes\n%s(%v), want\n%s", data, err, want)
	}
	var g spica.OptimizationGoal
	if err := yamlv3.Unmarshal(data, &g); !errors.Is(err, spica.ErrInvalidParetoObjectives) {
		t.Errorf("decoding %s: %v", data, err)
	}
}
