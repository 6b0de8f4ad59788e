package spica

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeYAML is what a YAML library hands UnmarshalYAML: a function that
// decodes the node into the value given, here a generic tree built by hand
// the way gopkg.in/yaml.v3 builds it (map[string]any, []any, int, float64,
// string, bool, nil); yaml.v2 builds map[any]any.
func fakeYAML(tree any) func(any) error {
	return func(v any) error {
		p, ok := v.(*any)
		if !ok {
			return errors.New("fakeYAML decodes into *any only")
		}
		*p = tree
		return nil
	}
}

type m = map[string]any

func TestGoalUnmarshalYAML(t *testing.T) {
	inf := inf
	tests := []struct {
		name     string
		tree     any
		want     OptimizationGoal
		sentinel error // nil: success
		path     string
	}{
		{"a pareto goal with three objectives", m{"target": "pareto", "pareto_objectives": []any{"e2e_latency", "throughput", "goodput"}, "sla": m{"e2e_ms": 2000}},
			OptimizationGoal{Target: TargetPareto, ParetoObjectives: []OptimizationTarget{TargetE2ELatency, TargetThroughput, TargetGoodput}, SLA: SLATarget{E2EMs: 2000}}, nil, ""},
		{"ints and floats are both numbers", m{"target": "goodput", "sla": m{"ttft_ms": 500, "itl_ms": 12.5}},
			OptimizationGoal{Target: TargetGoodput, SLA: SLATarget{TTFTMs: 500, ITLMs: 12.5}}, nil, ""},
		{"yaml.v2's map[any]any", map[any]any{"target": "goodput_per_gpu", "sla": map[any]any{"e2e_ms": int64(900)}},
			OptimizationGoal{Target: TargetGoodputPerGPU, SLA: SLATarget{E2EMs: 900}}, nil, ""},
		{"a null list is unset", m{"target": "pareto", "pareto_objectives": nil}, OptimizationGoal{Target: TargetPareto}, nil, ""},
		{"a null sla is unset", m{"sla": nil}, OptimizationGoal{}, nil, ""},
		{"an empty mapping is the default goal", m{}, OptimizationGoal{}, nil, ""},
		// Issue 8's cases, every one of which passed yaml.v3 silently.
		{"a capitalised key", m{"Target": "e2e_latency"}, OptimizationGoal{}, ErrUnknownField, "Target"},
		{"a misspelled key", m{"tagret": "e2e_latency"}, OptimizationGoal{}, ErrUnknownField, "tagret"},
		{"target: null", m{"target": nil}, OptimizationGoal{}, ErrUnknownTarget, "target"},
		{"pareto_objectives: [] is kept and rejected", m{"target": "pareto", "pareto_objectives": []any{}}, OptimizationGoal{}, ErrInvalidParetoObjectives, "pareto_objectives"},
		{"sla: {ttft_ms: 0}", m{"sla": m{"ttft_ms": 0}}, OptimizationGoal{}, ErrInvalidSLA, "sla.ttft_ms"},
		{"an unknown key inside sla", m{"sla": m{"p99_ms": 5}}, OptimizationGoal{}, ErrUnknownField, "sla.p99_ms"},
		{"a goodput goal without its SLA", m{"target": "goodput"}, OptimizationGoal{}, ErrSLARequired, "sla"},
		{".inf bound", m{"sla": m{"e2e_ms": inf}}, OptimizationGoal{}, ErrInvalidSLA, "sla.e2e_ms"},
		{".nan bound", m{"sla": m{"e2e_ms": nan}}, OptimizationGoal{}, ErrInvalidSLA, "sla.e2e_ms"},
		{"-.inf bound", m{"sla": m{"e2e_ms": -inf}}, OptimizationGoal{}, ErrInvalidSLA, "sla.e2e_ms"},
		{"a quoted number is a string", m{"sla": m{"e2e_ms": "500"}}, OptimizationGoal{}, ErrInvalidSLA, "sla.e2e_ms"},
		{"a boolean bound", m{"sla": m{"e2e_ms": true}}, OptimizationGoal{}, ErrInvalidSLA, "sla.e2e_ms"},
		{"a number as target", m{"target": 3}, OptimizationGoal{}, ErrUnknownTarget, "target"},
		{"a huge unsigned number as target", m{"target": uint64(1 << 63)}, OptimizationGoal{}, ErrUnknownTarget, "target"},
		{"an unknown objective", m{"target": "pareto", "pareto_objectives": []any{"throughput", "tps"}}, OptimizationGoal{}, ErrUnknownTarget, "pareto_objectives[1]"},
		{"a mapping as objective list", m{"target": "pareto", "pareto_objectives": m{"a": 1}}, OptimizationGoal{}, ErrInvalidParetoObjectives, "pareto_objectives"},
		{"a sequence as goal", []any{"pareto"}, OptimizationGoal{}, ErrInvalidGoal, ""},
		{"a scalar as goal", "throughput", OptimizationGoal{}, ErrInvalidGoal, ""},
		{"keys 1 and \"1\" of yaml.v2 collide", map[any]any{1: "a", "1": "b"}, OptimizationGoal{}, ErrDuplicateKey, "1"},
		{"a value with no JSON form", m{"target": make(chan int)}, OptimizationGoal{}, ErrInvalidGoal, "target"},
		{"a value of another type is a wrong kind", m{"sla": m{"e2e_ms": struct{ X int }{1}}}, OptimizationGoal{}, ErrInvalidSLA, "sla.e2e_ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := OptimizationGoal{Target: TargetE2ELatency} // unchanged on error
			err := g.UnmarshalYAML(fakeYAML(tt.tree))
			if tt.sentinel == nil {
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, g); diff != "" {
					t.Errorf("goal (-want +got):\n%s", diff)
				}
				return
			}
			checkError(t, err, tt.sentinel, tt.path, -1)
			if g.Target != TargetE2ELatency {
				t.Errorf("goal changed on error: %+v", g)
			}
		})
	}
}

func TestGoalUnmarshalYAMLLibraryErrors(t *testing.T) {
	var g OptimizationGoal
	// A repeated key is reported by the libraries in text only, in the
	// formats of yaml.v3 (decode.go, mapping) and of yaml.v2's
	// UnmarshalStrict (decode.go, setMapIndex); interop's
	// TestYAMLRepeatedKeyOnEveryLibrary pins them against the real
	// libraries, nested keys' paths included. What a caller checks is the
	// sentinel and the key's path, not the text.
	for _, msg := range []string{
		"yaml: unmarshal errors:\n  line 3: mapping key \"target\" already defined at line 2",
		"yaml: unmarshal errors:\n  line 3: key \"target\" already set in map",
	} {
		dup := func(any) error { return errors.New(msg) }
		checkError(t, g.UnmarshalYAML(dup), ErrDuplicateKey, "target", -1)
	}
	bad := func(any) error { return errors.New("yaml: line 1: did not find expected key") }
	checkError(t, g.UnmarshalYAML(bad), ErrInvalidGoal, "", -1)
	var s SLATarget
	checkError(t, s.UnmarshalYAML(bad), ErrInvalidSLA, "", -1)
	// A null node leaves the value alone.
	g = OptimizationGoal{Target: TargetGoodput, SLA: SLATarget{E2EMs: 1}}
	if err := g.UnmarshalYAML(fakeYAML(nil)); err != nil || g.Target != TargetGoodput {
		t.Errorf("null node: %+v, %v", g, err)
	}
}

func TestSLAUnmarshalYAML(t *testing.T) {
	var s SLATarget
	if err := s.UnmarshalYAML(fakeYAML(m{"ttft_ms": 300, "itl_ms": 20.5, "e2e_ms": nil})); err != nil || s != (SLATarget{TTFTMs: 300, ITLMs: 20.5}) {
		t.Errorf("got %+v, %v", s, err)
	}
	checkError(t, s.UnmarshalYAML(fakeYAML(m{"TTFT_ms": 1})), ErrUnknownField, "TTFT_ms", -1)
	checkError(t, s.UnmarshalYAML(fakeYAML(m{"e2e_ms": -1})), ErrInvalidSLA, "e2e_ms", -1)
	checkError(t, s.UnmarshalYAML(fakeYAML([]any{1})), ErrInvalidSLA, "", -1)
}

// yamlRoundTrip encodes g with MarshalYAML and decodes it with
// UnmarshalYAML, the generic tree made through JSON (the value MarshalYAML
// returns carries json tags equal to its yaml tags for this purpose).
func yamlRoundTrip(g OptimizationGoal) (OptimizationGoal, error) {
	v, err := g.MarshalYAML()
	if err != nil {
		return OptimizationGoal{}, err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return OptimizationGoal{}, err
	}
	var tree any
	if err := json.Unmarshal(data, &tree); err != nil {
		return OptimizationGoal{}, err
	}
	var out OptimizationGoal
	err = out.UnmarshalYAML(fakeYAML(tree))
	return out, err
}

func TestGoalMarshalYAMLRoundTrips(t *testing.T) {
	for _, g := range []OptimizationGoal{
		{},
		{Target: TargetGoodput, SLA: SLATarget{TTFTMs: 500, ITLMs: 50}},
		{Target: TargetPareto},
		{Target: TargetPareto, ParetoObjectives: []OptimizationTarget{TargetGoodputPerGPU, TargetE2ELatency}, SLA: SLATarget{E2EMs: 3}},
	} {
		got, err := yamlRoundTrip(g)
		if err != nil {
			t.Fatalf("%+v: %v", g, err)
		}
		if diff := cmp.Diff(g, got); diff != "" {
			t.Errorf("round trip (-in +out):\n%s", diff)
		}
	}
	// An explicit empty list is written as [], so decoding rejects it
	// rather than taking the default pair.
	_, err := yamlRoundTrip(OptimizationGoal{Target: TargetPareto, ParetoObjectives: []OptimizationTarget{}})
	checkError(t, err, ErrInvalidParetoObjectives, "pareto_objectives", -1)
	if _, err := (OptimizationGoal{Target: 42}).MarshalYAML(); !errors.Is(err, ErrUnknownTarget) {
		t.Errorf("MarshalYAML of target 42: %v", err)
	}
	_, err = (OptimizationGoal{Target: TargetPareto, ParetoObjectives: []OptimizationTarget{TargetThroughput, -1}}).MarshalYAML()
	checkError(t, err, ErrUnknownTarget, "pareto_objectives[1]", -1)
	v, _ := SLATarget{E2EMs: 7}.MarshalYAML()
	if data, _ := json.Marshal(v); string(data) != `{"e2e_ms":7}` {
		t.Errorf("SLA MarshalYAML writes %s", data)
	}
}

// FuzzGoalUnmarshalYAML feeds UnmarshalYAML the trees of arbitrary JSON
// documents (the same kinds a YAML library builds) and holds every result to
// the contract: an *Error with one sentinel, or a valid goal that survives
// MarshalYAML and decoding again.
func FuzzGoalUnmarshalYAML(f *testing.F) {
	for _, s := range []string{`{"target": "pareto", "pareto_objectives": []}`, `{"target": null}`, `{"Target": 1}`,
		`{"sla": {"e2e_ms": 1.5, "ttft_ms": 0}}`, `{"target": "goodput", "sla": {"e2e_ms": 9}}`, `[1, "a"]`, `null`,
		`{"target": "pareto", "pareto_objectives": ["goodput", "goodput", "pareto"], "sla": {"itl_ms": 1, "ttft_ms": 2}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var tree any
		if json.Unmarshal(data, &tree) != nil {
			return
		}
		var g OptimizationGoal
		if err := g.UnmarshalYAML(fakeYAML(tree)); err != nil {
			if msg := oneSentinel(err); msg != "" {
				t.Fatal(msg)
			}
			if (err.(*Error)).Offset != -1 {
				t.Fatalf("YAML error %v has a byte offset", err)
			}
			return
		}
		if err := g.Validate(); err != nil {
			t.Fatalf("accepted an invalid goal %+v: %v", g, err)
		}
		again, err := yamlRoundTrip(g)
		if err != nil {
			t.Fatalf("round trip of %+v: %v", g, err)
		}
		if diff := cmp.Diff(g, again); diff != "" {
			t.Fatalf("round trip (-first +again):\n%s", diff)
		}
	})
}

// yamlNode stands in for a YAML library's node in TestRepeatedKeyPathFromProbe:
// a mapping (kids), a sequence (items) or a scalar, and dup, a key the
// mapping repeats. Like yaml.v3, decoding a mapping that repeats a key
// fails, and so does decoding into a generic tree any node above it (the
// whole subtree is decoded); a probe of the parent decodes the children one
// by one through their own Unmarshalers, so only the repeating mapping's
// probe sees the error.
type yamlNode struct {
	kids  map[string]*yamlNode
	items []*yamlNode
	dup   string
}

// firstDup returns the first repeated key below n, in the order the
// library would meet it (keys sorted here, one path per test case).
func (n *yamlNode) firstDup() string {
	if n.dup != "" {
		return n.dup
	}
	for _, k := range slices.Sorted(maps.Keys(n.kids)) {
		if d := n.kids[k].firstDup(); d != "" {
			return d
		}
	}
	for _, it := range n.items {
		if d := it.firstDup(); d != "" {
			return d
		}
	}
	return ""
}

// unmarshal is the function the library hands an Unmarshaler for node n.
func (n *yamlNode) unmarshal(v any) error {
	d := n.dup
	if _, ok := v.(*any); ok {
		d = n.firstDup()
	}
	if d != "" {
		return fmt.Errorf("yaml: unmarshal errors:\n  line 9: mapping key %q already defined at line 8", d)
	}
	switch p := v.(type) {
	case *dupProbe:
		return p.UnmarshalYAML(n.unmarshal)
	case *map[string]dupProbe:
		if n.kids == nil {
			return errors.New("yaml: cannot unmarshal into a map")
		}
		*p = map[string]dupProbe{}
		for k, kid := range n.kids {
			var d dupProbe
			if err := d.UnmarshalYAML(kid.unmarshal); err != nil {
				return err
			}
			(*p)[k] = d
		}
		return nil
	case *[]dupProbe:
		if n.items == nil {
			return errors.New("yaml: cannot unmarshal into a slice")
		}
		for _, it := range n.items {
			var d dupProbe
			if err := d.UnmarshalYAML(it.unmarshal); err != nil {
				return err
			}
			*p = append(*p, d)
		}
		return nil
	}
	return errors.New("yaml: cannot unmarshal a scalar here")
}

// TestRepeatedKeyPathFromProbe: the library names only the repeated key;
// its path comes from the probe walking the document, so a key repeated
// inside sla is "sla.e2e_ms", not "e2e_ms", and inside the second item of
// a list "x[1].k". Where the probe learns nothing, the key alone is the path.
func TestRepeatedKeyPathFromProbe(t *testing.T) {
	leaf := &yamlNode{}
	nested := &yamlNode{kids: map[string]*yamlNode{
		"target": leaf,
		"sla":    {kids: map[string]*yamlNode{"ttft_ms": leaf}, dup: "e2e_ms"},
	}}
	var g OptimizationGoal
	checkError(t, g.UnmarshalYAML(nested.unmarshal), ErrDuplicateKey, "sla.e2e_ms", -1)

	inList := &yamlNode{kids: map[string]*yamlNode{
		"target": leaf,
		"x":      {items: []*yamlNode{leaf, {kids: map[string]*yamlNode{"a": leaf}, dup: "k"}}},
	}}
	checkError(t, g.UnmarshalYAML(inList.unmarshal), ErrDuplicateKey, "x[1].k", -1)
	inListOfLists := &yamlNode{kids: map[string]*yamlNode{
		"x": {items: []*yamlNode{{items: []*yamlNode{leaf, {kids: map[string]*yamlNode{"a": leaf}, dup: "k"}}}}},
	}}
	checkError(t, g.UnmarshalYAML(inListOfLists.unmarshal), ErrDuplicateKey, "x[0][1].k", -1)

	// A library whose probe decoding fails too: the key is all there is.
	failing := func(v any) error {
		if _, ok := v.(*dupProbe); ok {
			return errors.New("yaml: probe refused")
		}
		return nested.unmarshal(v)
	}
	checkError(t, g.UnmarshalYAML(failing), ErrDuplicateKey, "e2e_ms", -1)
	var s SLATarget
	checkError(t, s.UnmarshalYAML(nested.kids["sla"].unmarshal), ErrDuplicateKey, "e2e_ms", -1)
}
