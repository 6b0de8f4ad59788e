package interop_test

import (
	"errors"
	"testing"

	"github.com/spica-search/spica"
	yamlv2 "gopkg.in/yaml.v2"
	yamlv3 "gopkg.in/yaml.v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// TestYAMLRepeatedKeyOnEveryLibrary is issue 26's defect 6 and the repeated
// key half of defect 7. What spica sees of a repeated key depends on the
// library: yaml.v3, yaml.v2's UnmarshalStrict and sigs.k8s.io/yaml's
// UnmarshalStrict report it, and spica names it (ErrDuplicateKey, the key's
// path); yaml.v2's Unmarshal and sigs.k8s.io/yaml's Unmarshal fold it
// before spica is called (yaml.v2 keeps the last value), as the godoc of
// OptimizationGoal.UnmarshalYAML says: the second goal below passes.
func TestYAMLRepeatedKeyOnEveryLibrary(t *testing.T) {
	const (
		dupTarget = "name: chat\ngoal:\n  target: throughput\n  target: goodput\n  sla: {e2e_ms: 5}\n"
		dupBound  = "name: chat\ngoal:\n  target: goodput\n  sla: {e2e_ms: 5, e2e_ms: 6}\n"
	)
	type decoder func([]byte, *ServiceConfig) error
	strict := []struct {
		name   string
		decode decoder
	}{
		{"yaml.v3", func(b []byte, c *ServiceConfig) error { return yamlv3.Unmarshal(b, c) }},
		{"yaml.v2 UnmarshalStrict", func(b []byte, c *ServiceConfig) error { return yamlv2.UnmarshalStrict(b, c) }},
	}
	for _, d := range strict {
		for _, tt := range []struct{ in, path string }{{dupTarget, "goal.target"}, {dupBound, "goal.sla.e2e_ms"}} {
			var cfg ServiceConfig
			err := d.decode([]byte(tt.in), &cfg)
			var e *spica.Error
			// The library wraps spica's error in its own text for the
			// outer document; the goal's own path is what spica can say.
			want := tt.path[len("goal."):]
			if !errors.As(err, &e) || !errors.Is(err, spica.ErrDuplicateKey) || e.Path != want {
				t.Errorf("%s %q: %v (%#v); want ErrDuplicateKey at %q", d.name, tt.in, err, e, want)
			}
		}
	}
	if err := sigsyaml.UnmarshalStrict([]byte(dupTarget), new(ServiceConfig)); err == nil {
		t.Error("sigs.k8s.io/yaml UnmarshalStrict accepted a repeated key")
	}
	// yaml.v2's Unmarshal merges: the last value wins, and the goal it
	// hands spica holds the key once, so a goodput goal passes.
	var cfg ServiceConfig
	if err := yamlv2.Unmarshal([]byte(dupTarget), &cfg); err != nil || cfg.Goal.Target != spica.TargetGoodput {
		t.Errorf("yaml.v2 Unmarshal: %+v, %v; want the last value, goodput, accepted", cfg.Goal, err)
	}
	cfg = ServiceConfig{}
	if err := yamlv2.Unmarshal([]byte(dupBound), &cfg); err != nil || cfg.Goal.SLA.E2EMs != 6 {
		t.Errorf("yaml.v2 Unmarshal: %+v, %v; want the last bound, 6, accepted", cfg.Goal, err)
	}
}
