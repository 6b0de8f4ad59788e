package k8s

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/spica-search/spica"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"
)

// names are the seven target names, in SPEC §1's order; objectiveNames
// are those a pareto goal may list (all but pareto).
var (
	names          = []string{"throughput", "throughput_per_gpu", "throughput_per_user", "e2e_latency", "goodput", "goodput_per_gpu", "pareto"}
	objectiveNames = names[:6]
)

// goalCase is one goal of the hand corpus: the SPEC §3 rule at whose edge
// it sits, the goal block as JSON ("" for none), and the sentinel ParseGoal's
// error must wrap, nil when it accepts the goal. The sentinels are worked
// out from the rule the case is written for, not copied from ParseGoal.
type goalCase struct {
	rule string
	doc  string
	want error
}

// jsonOf is the JSON text of v; the corpus builds goals as values so that
// the text is well formed.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("corpus value %#v: %v", v, err)
	}
	return string(b)
}

// needsSLA is SPEC §3 rule 5's question for an effective objective list:
// is goodput or goodput_per_gpu among them?
func needsSLA(objs []string) bool {
	for _, o := range objs {
		if o == "goodput" || o == "goodput_per_gpu" {
			return true
		}
	}
	return false
}

// handCorpus lists goals at the edge of every rule ParseGoal checks (SPEC §1
// to §3), leaving out what the API server settles before its schema:
// unknown and repeated keys (strict field validation) and null (dropped).
// Each rule is gone through in SPEC §3's order; loops write out the
// combinations a rule has, so every case's expected answer follows from the
// rule by hand.
func handCorpus(t *testing.T) []goalCase {
	var cs []goalCase
	add := func(rule string, v any, want error) { cs = append(cs, goalCase{rule, jsonOf(t, v), want}) }
	type obj = map[string]any
	e2e := obj{"e2e_ms": 1} // a satisfying SLA

	// The goal block is optional; when present it is an object.
	cs = append(cs, goalCase{"no goal block: the default goal", "", nil})
	add("empty goal: target defaults to throughput", obj{}, nil)
	for _, v := range []any{5, 0, "pareto", "", true, []any{}, []any{obj{"target": "goodput"}}} {
		add("a goal must be an object", v, spica.ErrInvalidGoal)
	}

	// §1: target is one of seven names, exactly (rule 1 of Validate is
	// settled at decoding, since JSON can only name a target).
	for _, n := range names {
		var want error
		if n == "goodput" || n == "goodput_per_gpu" {
			want = spica.ErrSLARequired // rule 5: no SLA
		}
		add("target, each name alone", obj{"target": n}, want)
		add("target, each name with a satisfying SLA", obj{"target": n, "sla": e2e}, nil)
	}
	for _, v := range []any{"", "Throughput", "THROUGHPUT", "Pareto", " throughput", "throughput ", "throughput\n",
		"goodput-per-gpu", "goodputPerGpu", "throughput_per", "pareto_", "e2e", "bogus", "throughput\x00", "throughput_per_user_"} {
		add("target: a near miss of a name", obj{"target": v}, spica.ErrUnknownTarget)
	}
	for _, v := range []any{0, 1, 6, 7, -1, 6.5, true, false, []any{}, []any{"pareto"}, obj{}} {
		add("target: not a string", obj{"target": v}, spica.ErrUnknownTarget)
	}

	// Rule 2: pareto_objectives only under the pareto target (the default,
	// absent target included), whatever the list holds.
	lists := [][]string{{}, {"throughput_per_gpu", "throughput_per_user"}, {"goodput", "e2e_latency"}, {"throughput"}, {"pareto", "throughput"}, objectiveNames}
	for _, l := range lists {
		add("rule 2: objectives without a target (throughput)", obj{"pareto_objectives": l}, spica.ErrInvalidParetoObjectives)
		for _, n := range objectiveNames {
			add("rule 2: objectives under a non-pareto target", obj{"target": n, "pareto_objectives": l, "sla": e2e}, spica.ErrInvalidParetoObjectives)
		}
	}
	add("rule 2 after decoding: an unknown name is found first", obj{"target": "throughput", "pareto_objectives": []any{"bogus", "goodput"}}, spica.ErrUnknownTarget)

	// pareto_objectives is an array of names.
	for _, v := range []any{"throughput_per_gpu", 2, true, obj{}, obj{"throughput": 1}} {
		add("pareto_objectives: not an array", obj{"target": "pareto", "pareto_objectives": v}, spica.ErrInvalidParetoObjectives)
	}
	for _, v := range []any{"", "Goodput", "bogus", "pareto ", 3, 1.5, true, []any{}, obj{}} {
		add("pareto_objectives: an element not a name", obj{"target": "pareto", "pareto_objectives": []any{"throughput", v}}, spica.ErrUnknownTarget)
		add("pareto_objectives: an element not a name, first", obj{"target": "pareto", "pareto_objectives": []any{v, "throughput", "e2e_latency"}}, spica.ErrUnknownTarget)
	}

	// Rule 3: at least two, no pareto, no repeats, in that order.
	add("rule 3: absent list is the default pair", obj{"target": "pareto"}, nil)
	add("rule 3: the default pair, written out", obj{"target": "pareto", "pareto_objectives": []string{"throughput_per_gpu", "throughput_per_user"}}, nil)
	add("rule 3: 0 objectives", obj{"target": "pareto", "pareto_objectives": []string{}}, spica.ErrInvalidParetoObjectives)
	for _, n := range names {
		add("rule 3: 1 objective", obj{"target": "pareto", "pareto_objectives": []string{n}, "sla": e2e}, spica.ErrInvalidParetoObjectives)
		add("rule 3: 2, a repeat", obj{"target": "pareto", "pareto_objectives": []string{n, n}, "sla": e2e}, spica.ErrInvalidParetoObjectives)
	}
	for i, a := range objectiveNames {
		for _, b := range objectiveNames[i+1:] {
			pair := []string{a, b}
			var want error
			if needsSLA(pair) {
				want = spica.ErrSLARequired
			}
			add("rule 3: 2 distinct", obj{"target": "pareto", "pareto_objectives": pair}, want)
			add("rule 3: 2 distinct, reversed, with an SLA", obj{"target": "pareto", "pareto_objectives": []string{b, a}, "sla": e2e}, nil)
		}
		add("rule 3: pareto first of 2", obj{"target": "pareto", "pareto_objectives": []string{"pareto", a}, "sla": e2e}, spica.ErrInvalidParetoObjectives)
		add("rule 3: pareto last of 2", obj{"target": "pareto", "pareto_objectives": []string{a, "pareto"}, "sla": e2e}, spica.ErrInvalidParetoObjectives)
	}
	six := objectiveNames
	rev := []string{"goodput_per_gpu", "goodput", "e2e_latency", "throughput_per_user", "throughput_per_gpu", "throughput"}
	add("rule 3: 6 distinct, the most allowed", obj{"target": "pareto", "pareto_objectives": six, "sla": e2e}, nil)
	add("rule 3: 6 distinct, reversed", obj{"target": "pareto", "pareto_objectives": rev, "sla": obj{"ttft_ms": 1, "itl_ms": 1}}, nil)
	add("rule 3: 6 distinct without an SLA (rule 5)", obj{"target": "pareto", "pareto_objectives": six}, spica.ErrSLARequired)
	add("rule 3: 5 distinct without goodput", obj{"target": "pareto", "pareto_objectives": six[:4]}, nil)
	add("rule 3: 6 with a repeat", obj{"target": "pareto", "pareto_objectives": append(six[:5:5], "throughput"), "sla": e2e}, spica.ErrInvalidParetoObjectives)
	add("rule 3: 7, pareto last", obj{"target": "pareto", "pareto_objectives": names, "sla": e2e}, spica.ErrInvalidParetoObjectives)
	add("rule 3: 7, pareto first", obj{"target": "pareto", "pareto_objectives": append([]string{"pareto"}, six...), "sla": e2e}, spica.ErrInvalidParetoObjectives)
	add("rule 3: 7, a repeat", obj{"target": "pareto", "pareto_objectives": append(six[:6:6], "e2e_latency"), "sla": e2e}, spica.ErrInvalidParetoObjectives)
	add("rule 3: 8, pareto and a repeat", obj{"target": "pareto", "pareto_objectives": append(names[:7:7], "throughput"), "sla": e2e}, spica.ErrInvalidParetoObjectives)
	add("rule 3: a repeat and pareto", obj{"target": "pareto", "pareto_objectives": []string{"throughput", "throughput", "pareto"}}, spica.ErrInvalidParetoObjectives)
	add("rule 3: a repeat, not adjacent", obj{"target": "pareto", "pareto_objectives": []string{"e2e_latency", "throughput", "e2e_latency"}}, spica.ErrInvalidParetoObjectives)
	add("rule 3: only pareto, twice", obj{"target": "pareto", "pareto_objectives": []string{"pareto", "pareto"}}, spica.ErrInvalidParetoObjectives)
	add("rule 3: an unknown name beside pareto", obj{"target": "pareto", "pareto_objectives": []string{"pareto", "bogus"}}, spica.ErrUnknownTarget)

	// Rule 4: each set bound a finite number > 0, under any target. JSON
	// has no NaN or infinity; a number too large for a float64 fails to
	// decode in the API server before its schema, so it is left out.
	good := []string{"5e-324", "4.9e-324", "1e-300", "2.2250738585072014e-308", "0.001", "0.5", "1", "1.0", "1e3", "1E3", "250", "100000000000000000000", "9223372036854775807", "1e308", "1.7976931348623157e308"}
	bad := []string{"0", "0.0", "-0", "-0.0", "0e10", "-5e-324", "-1", "-0.5", "-1e308", "-9223372036854775808", `"5"`, `""`, "true", "[]", "{}", "[1]"}
	for _, f := range []string{"ttft_ms", "itl_ms", "e2e_ms"} {
		// Under goodput the other bounds make the SLA satisfying, so only
		// f decides.
		rest := map[string]string{"ttft_ms": `,"itl_ms":1`, "itl_ms": `,"ttft_ms":1`, "e2e_ms": ""}[f]
		// beside is a satisfying SLA without f.
		beside := map[string]string{"ttft_ms": `"e2e_ms":2`, "itl_ms": `"e2e_ms":2`, "e2e_ms": `"ttft_ms":2,"itl_ms":3`}[f]
		for _, v := range good {
			cs = append(cs,
				goalCase{"rule 4: " + f + " > 0, no target", `{"sla":{"` + f + `":` + v + `}}`, nil},
				goalCase{"rule 4: " + f + " > 0 under pareto", `{"target":"pareto","sla":{"` + f + `":` + v + `}}`, nil},
				goalCase{"rule 4: " + f + " > 0 under goodput", `{"target":"goodput","sla":{"` + f + `":` + v + rest + `}}`, nil})
		}
		for _, v := range bad {
			cs = append(cs,
				goalCase{"rule 4: " + f + " not > 0 or not a number", `{"target":"throughput","sla":{"` + f + `":` + v + `}}`, spica.ErrInvalidSLA},
				goalCase{"rule 4: " + f + " bad under goodput_per_gpu", `{"target":"goodput_per_gpu","sla":{"` + f + `":` + v + rest + `}}`, spica.ErrInvalidSLA},
				goalCase{"rule 4: " + f + " bad beside a satisfying bound", `{"target":"goodput","sla":{` + beside + `,"` + f + `":` + v + `}}`, spica.ErrInvalidSLA})
		}
	}
	for _, v := range []any{5, 0, "e2e_ms", true, []any{}, []any{obj{"e2e_ms": 1}}} {
		add("rule 4: sla not an object", obj{"sla": v}, spica.ErrInvalidSLA)
		add("rule 4: sla not an object, under goodput", obj{"target": "goodput", "sla": v}, spica.ErrInvalidSLA)
	}

	// Rule 5: an SLA of e2e_ms, or ttft_ms and itl_ms, iff goodput or
	// goodput_per_gpu is an effective objective; any SLA is allowed
	// otherwise (ParseGoal's rule, which §14's "an SLA iff a goodput
	// target" overstates).
	slas := []struct {
		sla        any // nil: no sla key
		satisfying bool
	}{
		{nil, false}, {obj{}, false}, {obj{"ttft_ms": 1}, false}, {obj{"itl_ms": 1}, false},
		{obj{"e2e_ms": 1}, true}, {obj{"ttft_ms": 1, "itl_ms": 1}, true}, {obj{"ttft_ms": 1, "e2e_ms": 1}, true},
		{obj{"itl_ms": 1, "e2e_ms": 1}, true}, {obj{"ttft_ms": 1, "itl_ms": 1, "e2e_ms": 1}, true},
		{obj{"ttft_ms": 5e-324, "itl_ms": 5e-324}, true}, {obj{"e2e_ms": math.MaxFloat64}, true},
	}
	goals := []struct {
		goal      obj
		effective []string
	}{
		{obj{}, []string{"throughput"}},
		{obj{"target": "e2e_latency"}, []string{"e2e_latency"}},
		{obj{"target": "goodput"}, []string{"goodput"}},
		{obj{"target": "goodput_per_gpu"}, []string{"goodput_per_gpu"}},
		{obj{"target": "pareto"}, []string{"throughput_per_gpu", "throughput_per_user"}},
		{obj{"target": "pareto", "pareto_objectives": []string{"throughput", "e2e_latency"}}, []string{"throughput", "e2e_latency"}},
		{obj{"target": "pareto", "pareto_objectives": []string{"goodput", "throughput"}}, []string{"goodput", "throughput"}},
		{obj{"target": "pareto", "pareto_objectives": []string{"throughput_per_gpu", "goodput_per_gpu"}}, []string{"throughput_per_gpu", "goodput_per_gpu"}},
		{obj{"target": "pareto", "pareto_objectives": []string{"goodput_per_gpu", "goodput"}}, []string{"goodput_per_gpu", "goodput"}},
		{obj{"target": "pareto", "pareto_objectives": []string{"e2e_latency", "throughput_per_user", "goodput", "throughput"}}, []string{"e2e_latency", "throughput_per_user", "goodput", "throughput"}},
	}
	for _, g := range goals {
		for _, s := range slas {
			doc := obj{}
			for k, v := range g.goal {
				doc[k] = v
			}
			if s.sla != nil {
				doc["sla"] = s.sla
			}
			var want error
			if needsSLA(g.effective) && !s.satisfying {
				want = spica.ErrSLARequired
			}
			add(fmt.Sprintf("rule 5: effective %v", g.effective), doc, want)
		}
	}
	return cs
}

// sentinels are the error classes the hand corpus must reach: every
// ParseGoal error but the unknown and repeated keys the API server settles
// before its schema.
var sentinels = []error{spica.ErrInvalidGoal, spica.ErrUnknownTarget, spica.ErrInvalidParetoObjectives, spica.ErrInvalidSLA, spica.ErrSLARequired}

// TestCRDAgreesWithParseGoal: on the hand corpus, ParseGoal gives each
// goal the answer worked out from its rule, and the CRD (defaulting, schema,
// list types, CEL, as the API server runs them) accepts a goal iff
// ParseGoal does, with ParseGoal's message where an SLA is required. Every
// error class of sentinels is reached.
func TestCRDAgreesWithParseGoal(t *testing.T) {
	a := newAPIServer(t)
	seen := map[string]bool{}
	reached := map[error]int{}
	var accepted int
	for _, c := range handCorpus(t) {
		if seen[c.doc] {
			continue
		}
		seen[c.doc] = true
		_, perr := spica.ParseGoal([]byte(c.doc))
		switch {
		case c.want == nil && perr != nil:
			t.Errorf("%s: goal %s: ParseGoal says %v, want no error", c.rule, c.doc, perr)
		case c.want != nil && !errors.Is(perr, c.want):
			t.Errorf("%s: goal %s: ParseGoal says %v, want an error wrapping %q", c.rule, c.doc, perr, c.want)
		}
		for _, s := range sentinels {
			if errors.Is(perr, s) {
				reached[s]++
			}
		}
		errs := a.create(t, c.doc)
		if (perr == nil) != (len(errs) == 0) {
			t.Errorf("%s: goal %s: ParseGoal says %v; the CRD says %v", c.rule, c.doc, perr, errs)
		}
		if perr == nil {
			accepted++
		}
		// Where the SLA is missing the CRD says what ParseGoal says,
		// culprits and all.
		var se *spica.Error
		if errors.Is(perr, spica.ErrSLARequired) && errors.As(perr, &se) &&
			!slices.ContainsFunc(errs, func(e *field.Error) bool { return e.Detail == se.Msg }) {
			t.Errorf("%s: goal %s: the CRD says %v, want an error saying %q", c.rule, c.doc, errs, se.Msg)
		}
	}
	for _, s := range sentinels {
		if reached[s] == 0 {
			t.Errorf("no goal of the hand corpus fails ParseGoal with %q", s)
		}
	}
	t.Logf("hand corpus: %d distinct goals, %d accepted; rejected by class: %v", len(seen), accepted, reached)
}

// goalDoc draws what a manifest's goal may hold, as the API server decodes
// it (maps, slices, strings, bools, int64 and float64), biased to the edges
// of ParseGoal's rules: mostly well-formed goals whose objective lists are 0
// to 8 names long with pareto and repeats now and then, SLA bounds at 0,
// beside it and at the float64 extremes, and now and then a wrong type or a
// near-miss name anywhere. Null and unknown keys are left out (the API
// server settles them before its schema).
func goalDoc() *rapid.Generator[any] {
	badName := rapid.SampledFrom([]any{"", "Throughput", "PARETO", "goodput ", "goodput-per-gpu", "throughput_per", "e2e"})
	notString := rapid.SampledFrom([]any{int64(0), int64(6), -1.5, true, []any{}, map[string]any{}})
	name := rapid.Custom(func(t *rapid.T) any {
		switch rapid.IntRange(0, 19).Draw(t, "name kind") {
		case 0:
			return badName.Draw(t, "bad name")
		case 1:
			return notString.Draw(t, "not a string")
		default:
			return rapid.SampledFrom(names).Draw(t, "name")
		}
	})
	positive := rapid.SampledFrom([]any{5e-324, 1e-300, 0.001, 0.5, int64(1), 1.5, int64(250), 2500.0, 1e308, math.MaxFloat64, int64(math.MaxInt64)})
	notPositive := rapid.SampledFrom([]any{int64(0), 0.0, math.Copysign(0, -1), -5e-324, int64(-1), -0.5, -1e308, "5", true, []any{}, map[string]any{}})
	bound := rapid.Custom(func(t *rapid.T) any {
		switch rapid.IntRange(0, 9).Draw(t, "bound kind") {
		case 0:
			return notPositive.Draw(t, "not positive")
		case 1, 2:
			return rapid.Float64Range(1e-9, 1e9).Draw(t, "float")
		case 3:
			return rapid.Int64Range(1, 1e6).Draw(t, "int")
		default:
			return positive.Draw(t, "positive")
		}
	})
	sla := rapid.Custom(func(t *rapid.T) any {
		if rapid.IntRange(0, 19).Draw(t, "sla kind") == 0 {
			return rapid.SampledFrom([]any{int64(5), "e2e_ms", true, []any{}}).Draw(t, "sla not an object")
		}
		s := map[string]any{}
		for _, f := range []string{"ttft_ms", "itl_ms", "e2e_ms"} {
			if rapid.Bool().Draw(t, "set "+f) {
				s[f] = bound.Draw(t, f)
			}
		}
		return s
	})
	objectives := rapid.Custom(func(t *rapid.T) any {
		switch rapid.IntRange(0, 19).Draw(t, "objectives kind") {
		case 0:
			return rapid.SampledFrom([]any{"throughput_per_gpu", int64(2), true, map[string]any{}}).Draw(t, "objectives not a list")
		case 1, 2, 3, 4, 5, 6, 7, 8:
			// Distinct names, the lists the CRD can accept: a prefix of
			// a permutation of the six, now and then with one more name.
			perm := rapid.Permutation(objectiveNames).Draw(t, "permutation")
			l := make([]any, 0, 8)
			for _, n := range perm[:rapid.IntRange(0, 6).Draw(t, "distinct")] {
				l = append(l, n)
			}
			if rapid.IntRange(0, 3).Draw(t, "one more") == 0 {
				l = append(l, name.Draw(t, "extra"))
			}
			return l
		default:
			return rapid.SliceOfN(name, 0, 8).Draw(t, "names")
		}
	})
	return rapid.Custom(func(t *rapid.T) any {
		if rapid.IntRange(0, 49).Draw(t, "goal kind") == 0 {
			return rapid.SampledFrom([]any{int64(5), "pareto", true, []any{}}).Draw(t, "goal not an object")
		}
		g := map[string]any{}
		if rapid.IntRange(0, 4).Draw(t, "target set") > 0 {
			g["target"] = name.Draw(t, "target")
		}
		if rapid.Bool().Draw(t, "sla set") {
			g["sla"] = sla.Draw(t, "sla")
		}
		// Objectives mostly under pareto, where their own rules count.
		if g["target"] == "pareto" && rapid.IntRange(0, 3).Draw(t, "objectives set") > 0 ||
			rapid.IntRange(0, 9).Draw(t, "objectives elsewhere") == 0 {
			g["pareto_objectives"] = objectives.Draw(t, "objectives")
		}
		return g
	})
}

// generatedRounds × rapid's checks per round (100 unless -rapid.checks
// says otherwise, a fifth of that under -short) is the number of generated
// goals: 25 × 100 = 2500.
const generatedRounds = 25

// TestCRDAgreesWithParseGoalGenerated: on goals drawn by goalDoc, the CRD
// accepts a goal iff ParseGoal does. Both answers are printed for a goal
// they disagree on. The draw must give both answers often (at least a
// tenth of the goals each), or the agreement would say little.
func TestCRDAgreesWithParseGoalGenerated(t *testing.T) {
	a := newAPIServer(t)
	gen := goalDoc()
	var total, accepted int
	for range generatedRounds {
		rapid.Check(t, func(rt *rapid.T) {
			doc, err := json.Marshal(gen.Draw(rt, "goal"))
			if err != nil {
				rt.Fatalf("drawn goal does not encode: %v", err)
			}
			total++
			_, perr := spica.ParseGoal(doc)
			errs := a.create(t, string(doc))
			if (perr == nil) != (len(errs) == 0) {
				var crd []string
				for _, e := range errs {
					crd = append(crd, e.Error())
				}
				rt.Fatalf("goal %s: ParseGoal says %v; the CRD says [%s]", doc, perr, strings.Join(crd, "; "))
			}
			if perr == nil {
				accepted++
			}
		})
	}
	if accepted < total/10 || total-accepted < total/10 {
		t.Errorf("of %d generated goals ParseGoal accepts %d: want at least a tenth on each side", total, accepted)
	}
	t.Logf("generated corpus: %d goals, %d accepted, %d rejected", total, accepted, total-accepted)
}
