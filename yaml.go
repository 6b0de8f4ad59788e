package spica

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A YAML library hands a type's UnmarshalYAML method a function that
// decodes the node into any Go value (the interface gopkg.in/yaml.v2
// defined and gopkg.in/yaml.v3 still honours), so the package reads YAML
// without importing a YAML library: it asks for the generic tree (maps,
// slices, strings, numbers, booleans, nil), writes the tree as JSON and runs
// the strict JSON decoder on it. The rules are therefore exactly those of
// JSON: unknown and case-mismatched keys, "target: null", a string or
// non-finite bound (.inf, .nan) are errors, "pareto_objectives: []" is kept
// (and rejected by validation) while an absent or null list is unset.
// Errors carry the Path; Offset is -1, since the YAML library knows the
// lines and this package sees only the tree.

// UnmarshalYAML implements the YAML unmarshaler interface of
// gopkg.in/yaml.v2 and gopkg.in/yaml.v3 (no YAML library is imported) with
// the rules of [OptimizationGoal.UnmarshalJSON], then runs
// [OptimizationGoal.Validate]. A repeated key is found by the library when
// this method asks it for the tree, by yaml.v3 always and by yaml.v2 under
// its UnmarshalStrict; that error comes back in an [*Error] wrapping
// [ErrDuplicateKey] whose Path is the key's ("target", "sla.e2e_ms"); any
// other error of the library's comes back in one wrapping [ErrInvalidGoal].
// yaml.v2's plain Unmarshal merges a repeated key before this method runs
// (the last value wins: "target: throughput" then "target: goodput" is a
// goodput goal), and nothing is left for this package to see. A null node
// leaves g unchanged; on error g is unchanged too. It costs O(size of the
// node) and the tree's map keys sorted.
//
// Through sigs.k8s.io/yaml (which converts YAML to JSON and calls
// [OptimizationGoal.UnmarshalJSON]) the same rules hold, with the same
// caveat about repeated keys: its Unmarshal folds a repeated key (the last
// value wins) before this package sees the document, while its
// UnmarshalStrict rejects it. For config files use yaml.v3, or the
// UnmarshalStrict of yaml.v2 or sigs.k8s.io/yaml.
func (g *OptimizationGoal) UnmarshalYAML(unmarshal func(any) error) error {
	v, isNull, err := decodeYAML(unmarshal, ErrInvalidGoal, decodeGoal)
	if err == nil && !isNull {
		err = v.Validate()
	}
	if err != nil || isNull {
		return err
	}
	*g = v
	return nil
}

// MarshalYAML implements the YAML marshaler interface of gopkg.in/yaml.v2
// and gopkg.in/yaml.v3: it writes the keys [OptimizationGoal]'s JSON
// encoding writes (target; sla when set; pareto_objectives when non-nil, an
// explicit empty list as []), so decoding what it writes gives g back. An
// out-of-range target is an error wrapping [ErrUnknownTarget].
func (g OptimizationGoal) MarshalYAML() (any, error) {
	target, err := g.Target.MarshalText()
	if err != nil {
		return nil, err
	}
	var sla *SLATarget
	if !g.SLA.IsZero() {
		sla = &g.SLA
	}
	var objs []string
	for i, t := range g.ParetoObjectives {
		name, err := t.MarshalText()
		if err != nil {
			e := err.(*Error)
			e.Path = "pareto_objectives[" + strconv.Itoa(i) + "]"
			return nil, e
		}
		objs = append(objs, string(name))
	}
	if g.ParetoObjectives != nil && len(g.ParetoObjectives) == 0 {
		// omitempty would drop the explicit empty list.
		return goalYAMLEmptyList{string(target), sla, []string{}}, nil
	}
	return goalYAML{string(target), sla, objs}, nil
}

// goalYAML is the encoded form of a goal; its json tags let tests encode
// it without a YAML library.
type goalYAML struct {
	Target           string     `yaml:"target" json:"target"`
	SLA              *SLATarget `yaml:"sla,omitempty" json:"sla,omitempty"`
	ParetoObjectives []string   `yaml:"pareto_objectives,omitempty" json:"pareto_objectives,omitempty"`
}

// goalYAMLEmptyList is goalYAML for an explicit empty objective list.
type goalYAMLEmptyList struct {
	Target           string     `yaml:"target" json:"target"`
	SLA              *SLATarget `yaml:"sla,omitempty" json:"sla,omitempty"`
	ParetoObjectives []string   `yaml:"pareto_objectives" json:"pareto_objectives"`
}

// UnmarshalYAML implements the YAML unmarshaler interface of
// gopkg.in/yaml.v2 and gopkg.in/yaml.v3 with the rules of
// [SLATarget.UnmarshalJSON]; see [OptimizationGoal.UnmarshalYAML].
func (s *SLATarget) UnmarshalYAML(unmarshal func(any) error) error {
	v, isNull, err := decodeYAML(unmarshal, ErrInvalidSLA, func(r *jsonReader) (SLATarget, error) {
		return decodeSLA(r, "")
	})
	if err != nil || isNull {
		return err
	}
	*s = v
	return nil
}

// MarshalYAML implements the YAML marshaler interface: the set bounds under
// their JSON names.
func (s SLATarget) MarshalYAML() (any, error) {
	return slaYAML(s), nil
}

// slaYAML is SLATarget without its methods, so that encoding it does not
// call MarshalYAML again.
type slaYAML struct {
	TTFTMs float64 `yaml:"ttft_ms,omitempty" json:"ttft_ms,omitempty"`
	ITLMs  float64 `yaml:"itl_ms,omitempty" json:"itl_ms,omitempty"`
	E2EMs  float64 `yaml:"e2e_ms,omitempty" json:"e2e_ms,omitempty"`
}

// decodeYAML asks unmarshal for the generic tree of a YAML node and decodes
// it with decode, as JSON. isNull reports a null node.
func decodeYAML[T any](unmarshal func(any) error, sentinel error, decode func(*jsonReader) (T, error)) (v T, isNull bool, err error) {
	var tree any
	if err := unmarshal(&tree); err != nil {
		msg := err.Error()
		if key, ok := repeatedKeyOf(err); ok {
			var probe dupProbe
			if unmarshal(&probe) != nil || probe.path == "" {
				probe.path = key
			}
			return v, false, errorf(ErrDuplicateKey, probe.path, "%s", msg)
		}
		return v, false, errorf(sentinel, "", "%s", msg)
	}
	if tree == nil {
		return v, true, nil
	}
	data, err := appendTree(nil, tree, "", sentinel)
	if err != nil {
		return v, false, err
	}
	r := jsonReader{data: data, nonFinite: true, sentinel: sentinel}
	v, err = decode(&r)
	if err == nil {
		err = r.end()
	}
	var e *Error
	if errors.As(err, &e) {
		e.Offset = -1 // an offset in the JSON written here means nothing to the caller
	}
	return v, false, err
}

// repeatedYAMLKey finds the key a YAML library reports given twice. The
// libraries say so only in text: yaml.v3 (decode.go, its mapping check)
// writes `mapping key "k" already defined at line N`, and yaml.v2's
// UnmarshalStrict (decode.go, setMapIndex) `key "k" already set in map`,
// the key formatted with %#v. Both go on decoding, so the tree is there to
// find the key's path in.
var repeatedYAMLKey = regexp.MustCompile(`key ("(?:[^"\\]|\\.)*"|[^ ]+) already (?:defined|set in map)`)

// dupProbe finds where a repeated key is: decoded by the YAML library in
// place of the tree, a mapping into a map of probes and a sequence into a
// slice of them, each probe is handed its own node, so the library's report
// of a repeated key comes back to the probe of the mapping that holds it,
// and each parent prefixes its key. (yaml.v3 reports the repeat before it
// decodes that mapping at all, so the tree itself cannot say where it was.)
type dupProbe struct {
	path string // the repeated key's path below this node; "" when none
}

func (p *dupProbe) UnmarshalYAML(unmarshal func(any) error) error {
	var m map[string]dupProbe
	err := unmarshal(&m)
	if err == nil {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if sub := m[k].path; sub != "" {
				p.path = joinPath(k, sub)
				return nil
			}
		}
		return nil
	}
	if key, ok := repeatedKeyOf(err); ok {
		p.path = key
		return nil
	}
	var l []dupProbe
	if unmarshal(&l) == nil {
		for i, e := range l {
			if e.path != "" {
				p.path = joinPath("["+strconv.Itoa(i)+"]", e.path)
				return nil
			}
		}
	}
	return nil // a scalar, or a mapping with keys that are no strings
}

// joinPath puts the path sub below prefix: "sla" and "e2e_ms" are
// "sla.e2e_ms", "x" and "[1].k" are "x[1].k".
func joinPath(prefix, sub string) string {
	if sub[0] == '[' {
		return prefix + sub
	}
	return prefix + "." + sub
}

// repeatedKeyOf reports the key a YAML library's error says is repeated.
func repeatedKeyOf(err error) (string, bool) {
	m := repeatedYAMLKey.FindStringSubmatch(err.Error())
	if m == nil {
		return "", false
	}
	if key, qerr := strconv.Unquote(m[1]); qerr == nil {
		return key, true
	}
	return m[1], true // not a quoted string: an int key, say
}

// appendTree writes the generic YAML tree v, found at path, as JSON, with
// non-finite floats as the bare tokens NaN, Infinity and -Infinity, which
// the reader takes for numbers so that a bound of .inf is reported as an
// invalid bound. Map keys are sorted, so the first of several faults is
// reported the same way every time.
func appendTree(b []byte, v any, path string, sentinel error) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case string:
		return appendJSONString(b, v), nil
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	case uint64:
		return strconv.AppendUint(b, v, 10), nil
	case float64:
		if name := nonFiniteName(v); name != "" {
			return append(b, name...), nil
		}
		return strconv.AppendFloat(b, v, 'g', -1, 64), nil
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendTree(b, e, path+"["+strconv.Itoa(i)+"]", sentinel); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		return appendMap(b, keys, func(k string) any { return v[k] }, path, sentinel)
	case map[any]any: // yaml.v2's mappings, and yaml.v3's with non-string keys
		keys := make([]string, 0, len(v))
		byName := make(map[string]any, len(v))
		for k, e := range v {
			name := fmt.Sprint(k)
			if _, dup := byName[name]; dup { // 1 and "1", say
				return nil, errorf(ErrDuplicateKey, strings.TrimPrefix(path+"."+name, "."), "key %q given twice", name)
			}
			keys = append(keys, name)
			byName[name] = e
		}
		return appendMap(b, keys, func(k string) any { return byName[k] }, path, sentinel)
	}
	// Anything else (a timestamp, a custom type) is written as
	// encoding/json writes it, and rejected by the schema as a wrong kind.
	data, err := json.Marshal(v)
	if err != nil {
		return nil, errorf(sentinel, path, "holds %T, which has no JSON form", v)
	}
	return append(b, data...), nil
}

func appendMap(b []byte, keys []string, get func(string) any, path string, sentinel error) ([]byte, error) {
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		var err error
		if b, err = appendTree(b, get(k), strings.TrimPrefix(path+"."+k, "."), sentinel); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendJSONString appends s as a JSON string (strconv's quoting is Go's,
// not JSON's: \x escapes).
func appendJSONString(b []byte, s string) []byte {
	data, _ := json.Marshal(s) // a string always encodes
	return append(b, data...)
}
