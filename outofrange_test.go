package spica

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestOutOfRangeNumberSameFaultEverywhere is issue 26's defect 4: a number
// beyond the float64 range (1e400) is one fault, so every entry point reports
// it with the sentinel it gives any other invalid value of that field, and
// the field's Path. Before the fix a goal's SLA gave ErrInvalidGoal with Path
// "", and Candidate.UnmarshalJSON, ParseReport and Report.UnmarshalJSON gave
// no Path.
func TestOutOfRangeNumberSameFaultEverywhere(t *testing.T) {
	parseGoal := func(b []byte) error { _, err := ParseGoal(b); return err }
	goalJSON := func(b []byte) error { var g OptimizationGoal; return g.UnmarshalJSON(b) }
	goalInRecord := func(b []byte) error {
		var rec struct{ Goal OptimizationGoal }
		return json.Unmarshal(append(append([]byte(`{"Goal": `), b...), '}'), &rec)
	}
	slaJSON := func(b []byte) error { var s SLATarget; return s.UnmarshalJSON(b) }
	candJSON := func(b []byte) error { var c Candidate; return c.UnmarshalJSON(b) }
	candInRecord := func(b []byte) error {
		var cs []Candidate
		return json.Unmarshal(append(append([]byte{'['}, b...), ']'), &cs)
	}
	parseReport := func(b []byte) error { _, err := ParseReport(b); return err }
	reportJSON := func(b []byte) error { var r Report; return r.UnmarshalJSON(b) }
	goalYAML := func(tree any) func([]byte) error {
		return func([]byte) error {
			var g OptimizationGoal
			return g.UnmarshalYAML(func(v any) error { *v.(*any) = tree; return nil })
		}
	}
	tests := []struct {
		name     string
		decode   func([]byte) error
		in       string
		sentinel error
		path     string
		offset   int64 // of the number, counted by hand; -1 for YAML
	}{
		// `{"target": "goodput", "sla": {"e2e_ms": ` is 40 bytes: { 1,
		// "target" 8, : 9, space 10, "goodput" 19, , 20, space 21,
		// "sla" 26, : 27, space 28, { 29, "e2e_ms" 37, : 38, space 39.
		{"ParseGoal sla.e2e_ms", parseGoal, `{"target": "goodput", "sla": {"e2e_ms": 1e400}}`, ErrInvalidSLA, "sla.e2e_ms", 40},
		{"OptimizationGoal.UnmarshalJSON sla.e2e_ms", goalJSON, `{"target": "goodput", "sla": {"e2e_ms": 1e400}}`, ErrInvalidSLA, "sla.e2e_ms", 40},
		{"goal inside a record", goalInRecord, `{"target": "goodput", "sla": {"e2e_ms": -1e400}}`, ErrInvalidSLA, "sla.e2e_ms", 40},
		{"ParseGoal sla.ttft_ms", parseGoal, `{"sla": {"ttft_ms": 1e400}}`, ErrInvalidSLA, "sla.ttft_ms", 20},
		// The goal's other fields: 1e400 where a name or an object belongs
		// is that field's wrong kind. `{"target": ` is 11 bytes,
		// `{"target": "pareto", "pareto_objectives": [` 43, `{"sla": ` 8.
		{"ParseGoal target", parseGoal, `{"target": 1e400}`, ErrUnknownTarget, "target", 11},
		{"ParseGoal pareto_objectives[0]", parseGoal, `{"target": "pareto", "pareto_objectives": [1e400]}`, ErrUnknownTarget, "pareto_objectives[0]", 43},
		{"ParseGoal sla", parseGoal, `{"sla": 1e400}`, ErrInvalidSLA, "sla", 8},
		// `{"e2e_ms": ` is 11 bytes.
		{"SLATarget.UnmarshalJSON e2e_ms", slaJSON, `{"e2e_ms": 1e400}`, ErrInvalidSLA, "e2e_ms", 11},
		// `{"metrics": {"gpu_hours": ` is 26 bytes.
		{"Candidate metrics.gpu_hours", candJSON, `{"metrics": {"gpu_hours": 1e400}}`, ErrInvalidCandidate, "metrics.gpu_hours", 26},
		{"Candidate in a record", candInRecord, `{"metrics": {"gpu_hours": 1e400}}`, ErrInvalidCandidate, "metrics.gpu_hours", 26},
		// `{"objectives": {"e2e_latency": ` is 31 bytes.
		{"Candidate objectives.e2e_latency", candJSON, `{"objectives": {"e2e_latency": -1e400}}`, ErrInvalidCandidate, "objectives.e2e_latency", 31},
		// `{"score": ` is 10 bytes.
		{"Candidate score", candJSON, `{"score": 1e999}`, ErrInvalidCandidate, "score", 10},
		// `{"used_gpus": ` is 14 bytes; an int's own check.
		{"Candidate used_gpus", candJSON, `{"used_gpus": 1e400}`, ErrInvalidCandidate, "used_gpus", 14},
		// `{"config": {"batch": ` is 21 bytes: { 1, "config" 9, : 10,
		// space 11, { 12, "batch" 19, : 20, space 21. encoding/json would
		// name no key ("cannot unmarshal number 1e400").
		{"Candidate config.batch", candJSON, `{"config": {"batch": 1e400}}`, ErrInvalidCandidate, "config.batch", 21},
		// `{"config": {"a": {"b": [` is 24 bytes: 12 as above, "a" 15,
		// : 16, space 17, { 18, "b" 21, : 22, space 23, [ 24.
		{"Candidate config nested", candJSON, `{"config": {"a": {"b": [1e400]}}}`, ErrInvalidCandidate, "config.a.b[0]", 24},
		// `{"gpu_hours": ` is 14 bytes.
		{"ParseReport gpu_hours", parseReport, `{"gpu_hours": 1e400}`, ErrInvalidReport, "gpu_hours", 14},
		{"ParseReport a key it does not read", parseReport, `{"other": 1e400}`, ErrInvalidReport, "other", 10},
		{"Report.UnmarshalJSON gpu_hours", reportJSON, `{"gpu_hours": 1e400}`, ErrInvalidReport, "gpu_hours", 14},
		// The YAML path: a YAML library hands a float it could not read as a
		// string (yaml.v3 does so for 1e400; interop pins it), and a bound
		// that is a string is an invalid bound at its path.
		{"SLATarget.UnmarshalYAML e2e_ms", func([]byte) error {
			var sla SLATarget
			return sla.UnmarshalYAML(func(v any) error { *v.(*any) = map[string]any{"e2e_ms": "1e400"}; return nil })
		}, "", ErrInvalidSLA, "e2e_ms", -1},
		{"UnmarshalYAML sla.e2e_ms", goalYAML(map[string]any{"target": "goodput", "sla": map[string]any{"e2e_ms": "1e400"}}), "", ErrInvalidSLA, "sla.e2e_ms", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.decode([]byte(tt.in))
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, tt.sentinel) || e.Path != tt.path {
				t.Fatalf("got %v (%#v); want %v at path %q", err, e, tt.sentinel, tt.path)
			}
			if tt.offset >= 0 && e.Offset != tt.offset && tt.name != "goal inside a record" && tt.name != "Candidate in a record" {
				t.Errorf("offset %d, want %d", e.Offset, tt.offset)
			}
		})
	}
}
