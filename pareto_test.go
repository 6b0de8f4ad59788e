package spica

import (
	"errors"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/spica-search/spica/internal/testkit"
)

// refFront is the brute-force O(n²) front of the pool, in the order the
// SPEC requires: by the last objective's raw value ascending, NaN last, ties
// in input order.
func refFront(cands []Candidate, objs []OptimizationTarget) []Candidate {
	maximize := make([]bool, len(objs))
	for i, t := range objs {
		maximize[i], _ = t.Maximize()
	}
	vec := func(c Candidate) []float64 {
		v := make([]float64, len(objs))
		for i, t := range objs {
			v[i] = specValue(c, t)
		}
		return v
	}
	var front []Candidate
	for i, c := range cands {
		dominated := false
		for j, d := range cands {
			if j != i && testkit.Dominates(vec(d), vec(c), maximize) {
				dominated = true
				break
			}
		}
		if !dominated {
			front = append(front, c)
		}
	}
	last := objs[len(objs)-1]
	slices.SortStableFunc(front, func(a, b Candidate) int {
		x, y := specValue(a, last), specValue(b, last)
		switch {
		case math.IsNaN(x) && math.IsNaN(y):
			return 0
		case math.IsNaN(x):
			return 1
		case math.IsNaN(y):
			return -1
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	return front
}

// specValue is a candidate's value for t as SPEC §6 words it:
// Objectives[t.String()] when present, else ObjectiveValue of Metrics read
// as a report. The pools of these tests always have one or the other.
func specValue(c Candidate, t OptimizationTarget) float64 {
	if v, ok := c.Objectives[t.String()]; ok {
		return v
	}
	if c.Metrics == nil {
		panic("test pool candidate without values")
	}
	v, err := ObjectiveValue(Report(c.Metrics), t)
	if err != nil {
		panic(err)
	}
	return v
}

// scalarMetrics draws the Metrics of a candidate made under a scalar goal
// (nil Objectives), from which every objective is read by the §6 rule;
// keys are sometimes missing, so missing-value defaults take part too.
func scalarMetrics(draw func() float64, keep func() bool) map[string]float64 {
	m := map[string]float64{}
	for _, k := range []string{MetricOutputThroughput, MetricThroughputPerUser, MetricMeanE2ELatency, MetricGoodput} {
		if keep() {
			m[k] = draw()
		}
	}
	if keep() {
		m[MetricGPUHours], m[MetricDurationMs] = math.Abs(draw()), 3_600_000
	}
	return m
}

func TestDominates(t *testing.T) {
	nan := math.NaN()
	perGPU, perUser, lat := TargetThroughputPerGPU, TargetThroughputPerUser, TargetE2ELatency
	v := func(g, u float64) map[string]float64 {
		return map[string]float64{"throughput_per_gpu": g, "throughput_per_user": u}
	}
	both := []OptimizationTarget{perGPU, perUser}
	tests := []struct {
		name string
		a, b map[string]float64
		objs []OptimizationTarget
		want bool
	}{
		{"better in both", v(2, 2), v(1, 1), both, true},
		{"better in one, equal in the other", v(2, 1), v(1, 1), both, true},
		{"equal vectors do not dominate", v(1, 1), v(1, 1), both, false},
		{"a trade-off does not dominate", v(2, 0), v(1, 1), both, false},
		{"worse does not dominate", v(1, 1), v(2, 2), both, false},
		{"-0 equals 0", v(math.Copysign(0, -1), 1), v(0, 1), both, false},
		{"a number beats NaN", v(-1e300, 1), v(nan, 1), both, true},
		{"NaN never beats a number", v(nan, 5), v(0, 1), both, false},
		{"NaN ties NaN", v(nan, 2), v(nan, 1), both, true},
		{"-Inf beats NaN when maximizing", v(math.Inf(-1), 1), v(nan, 1), both, true},
		{"lower latency is better", map[string]float64{"e2e_latency": 100}, map[string]float64{"e2e_latency": 200}, []OptimizationTarget{lat}, true},
		{"+Inf latency beats NaN latency", map[string]float64{"e2e_latency": math.Inf(1)}, map[string]float64{"e2e_latency": nan}, []OptimizationTarget{lat}, true},
		{"only the listed objectives count", map[string]float64{"e2e_latency": 1, "throughput_per_gpu": 1}, map[string]float64{"e2e_latency": 2, "throughput_per_gpu": 9}, []OptimizationTarget{lat}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Dominates(tt.a, tt.b, tt.objs)
			if err != nil || got != tt.want {
				t.Errorf("Dominates = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestDominatesErrors(t *testing.T) {
	full := map[string]float64{"throughput_per_gpu": 1, "throughput_per_user": 1}
	part := map[string]float64{"throughput_per_gpu": 1}
	worse := map[string]float64{"throughput_per_gpu": 0}
	both := DefaultParetoObjectives()
	tests := []struct {
		name     string
		a, b     map[string]float64
		objs     []OptimizationTarget
		sentinel error
		path     string
	}{
		{"missing key in b", full, part, both, ErrInvalidCandidate, "b.throughput_per_user"},
		{"missing key in a", nil, full, both, ErrInvalidCandidate, "a.throughput_per_gpu"},
		// Issue 9, defect 1: the first objective already says a does not
		// dominate b, but b lacks the second: still an error.
		{"missing key after a deciding objective", worse, full, both, ErrInvalidCandidate, "a.throughput_per_user"},
		{"missing key after a strictly better objective", full, worse, both, ErrInvalidCandidate, "b.throughput_per_user"},
		{"no objectives", full, full, nil, ErrInvalidParetoObjectives, "objectives"},
		{"pareto among them", full, full, []OptimizationTarget{TargetThroughputPerGPU, TargetPareto}, ErrInvalidParetoObjectives, "objectives[1]"},
		{"a repeat", full, full, []OptimizationTarget{TargetThroughputPerGPU, TargetThroughputPerGPU}, ErrInvalidParetoObjectives, "objectives[1]"},
		{"out of range", full, full, []OptimizationTarget{77}, ErrUnknownTarget, "objectives[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Dominates(tt.a, tt.b, tt.objs)
			var e *Error
			if got || !errors.As(err, &e) || !errors.Is(err, tt.sentinel) || e.Path != tt.path {
				t.Fatalf("Dominates = %v, %v; want an *Error wrapping %v at %q", got, err, tt.sentinel, tt.path)
			}
			if strings.Contains(e.Msg, "pareto_objectives") {
				t.Errorf("message %q speaks of the goal's field, not of the caller's objectives", e.Msg)
			}
		})
	}
}

func TestDominatesAllocatesNothing(t *testing.T) {
	a := map[string]float64{"throughput_per_gpu": 2, "throughput_per_user": 1, "e2e_latency": 3}
	b := map[string]float64{"throughput_per_gpu": 1, "throughput_per_user": 1, "e2e_latency": 3}
	objs := []OptimizationTarget{TargetThroughputPerGPU, TargetThroughputPerUser, TargetE2ELatency}
	if n := testing.AllocsPerRun(100, func() { _, _ = Dominates(a, b, objs) }); n != 0 {
		t.Errorf("Dominates allocates %v times per call", n)
	}
}

// objectivesGen draws a valid objective list of 1–4 scalar targets in any
// order, so directions are mixed whenever e2e_latency is drawn.
func objectivesGen() *rapid.Generator[[]OptimizationTarget] {
	scalar := []OptimizationTarget{TargetThroughput, TargetThroughputPerGPU, TargetThroughputPerUser, TargetE2ELatency, TargetGoodput, TargetGoodputPerGPU}
	return rapid.Custom(func(t *rapid.T) []OptimizationTarget {
		perm := rapid.Permutation(scalar).Draw(t, "perm")
		return perm[:rapid.IntRange(1, 4).Draw(t, "dims")]
	})
}

// poolGen draws candidates over objs with values from a small set, so exact
// ties, duplicates, NaN, ±Inf and -0.0 are common; some candidates are a
// scalar goal's (nil Objectives, values read from Metrics).
func poolGen(objs []OptimizationTarget, maxN int) *rapid.Generator[[]Candidate] {
	value := rapid.SampledFrom([]float64{math.NaN(), math.Inf(-1), -1, math.Copysign(0, -1), 0, 1, 2, 3, math.Inf(1)})
	return rapid.Custom(func(t *rapid.T) []Candidate {
		n := rapid.IntRange(0, maxN).Draw(t, "n")
		pool := make([]Candidate, n)
		for i := range pool {
			pool[i].Config = map[string]any{"id": i}
			pool[i].UsedGPUs = i
			if rapid.IntRange(0, 9).Draw(t, "scalar") == 0 {
				pool[i].Metrics = scalarMetrics(func() float64 { return value.Draw(t, "m") }, func() bool { return rapid.Bool().Draw(t, "keep") })
				continue
			}
			pool[i].Objectives = map[string]float64{}
			for _, o := range objs {
				pool[i].Objectives[o.String()] = value.Draw(t, "v")
			}
		}
		return pool
	})
}

func ids(cands []Candidate) []int {
	out := make([]int, len(cands))
	for i, c := range cands {
		out[i] = c.Config["id"].(int)
	}
	return out
}

func TestDominanceIsAStrictPartialOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		objs := objectivesGen().Draw(t, "objs")
		pool := poolGen(objs, 3).Filter(func(p []Candidate) bool {
			return len(p) == 3 && p[0].Objectives != nil && p[1].Objectives != nil && p[2].Objectives != nil
		}).Draw(t, "pool")
		a, b, c := pool[0].Objectives, pool[1].Objectives, pool[2].Objectives
		dom := func(x, y map[string]float64) bool {
			d, err := Dominates(x, y, objs)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
		if dom(a, a) {
			t.Fatalf("irreflexivity: %v dominates itself", a)
		}
		if dom(a, b) && dom(b, a) {
			t.Fatalf("asymmetry: %v and %v dominate each other", a, b)
		}
		if dom(a, b) && dom(b, c) && !dom(a, c) {
			t.Fatalf("transitivity: %v > %v > %v but not %v > %v", a, b, c, a, c)
		}
	})
}

func TestParetoFrontMatchesOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		objs := objectivesGen().Draw(t, "objs")
		pool := poolGen(objs, 40).Draw(t, "pool")
		orig := cloneCandidates(pool)
		got, err := ParetoFront(pool, objs)
		if err != nil {
			t.Fatal(err)
		}
		want := refFront(pool, objs)
		if diff := cmp.Diff(ids(want), ids(got)); diff != "" {
			t.Fatalf("front mismatch (-oracle +got):\n%s", diff)
		}
		if diff := cmp.Diff(orig, pool, sameFloat); diff != "" {
			t.Fatalf("ParetoFront modified its input:\n%s", diff)
		}
		again, err := ParetoFront(got, objs)
		if err != nil || !slices.Equal(ids(again), ids(got)) {
			t.Fatalf("the front of the front %v differs from the front %v (%v)", ids(again), ids(got), err)
		}
	})
}

func TestParetoFrontIsMergeable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		objs := objectivesGen().Draw(t, "objs")
		pool := poolGen(objs, 40).Draw(t, "pool")
		cut := rapid.IntRange(0, len(pool)).Draw(t, "cut")
		fa, errA := ParetoFront(pool[:cut], objs)
		fb, errB := ParetoFront(pool[cut:], objs)
		whole, errW := ParetoFront(pool, objs)
		if err := errors.Join(errA, errB, errW); err != nil {
			t.Fatal(err)
		}
		// The merged pool keeps input order (A before B), so even the
		// tie order must agree, not only the set.
		merged, err := ParetoFront(append(fa, fb...), objs)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(ids(whole), ids(merged)); diff != "" {
			t.Fatalf("front(A∪B) != front(front(A)∪front(B)) (-whole +merged):\n%s", diff)
		}
	})
}

func cloneCandidates(cands []Candidate) []Candidate {
	out := make([]Candidate, len(cands))
	for i, c := range cands {
		out[i] = c
		out[i].Objectives = maps.Clone(c.Objectives)
		out[i].Metrics = maps.Clone(c.Metrics)
	}
	return out
}

func TestParetoFrontByHand(t *testing.T) {
	c := func(id int, lat, perUser float64) Candidate {
		return Candidate{Config: map[string]any{"id": id}, Objectives: map[string]float64{"e2e_latency": lat, "throughput_per_user": perUser}}
	}
	objs := []OptimizationTarget{TargetE2ELatency, TargetThroughputPerUser} // minimize, maximize
	pool := []Candidate{
		c(0, 100, 10),        // front
		c(1, 100, 10),        // duplicate of 0: kept
		c(2, 120, 10),        // dominated by 0 (slower, same per-user)
		c(3, 90, 5),          // front: fastest
		c(4, 300, 40),        // front: best per-user
		c(5, math.NaN(), 40), // dominated by 4 (NaN latency is worst)
		{Config: map[string]any{"id": 6}, Metrics: map[string]float64{}}, // scalar: no latency reads +Inf, dominated
		c(7, 200, 40), // front: dominates 4 (faster, same per-user)
	}
	got, err := ParetoFront(pool, objs)
	if err != nil {
		t.Fatal(err)
	}
	// 4 is dominated by 7. Sorted by per-user ascending, ties in input order.
	if diff := cmp.Diff([]int{3, 0, 1, 7}, ids(got)); diff != "" {
		t.Errorf("front mismatch (-want +got):\n%s", diff)
	}
	empty, err := ParetoFront(nil, objs)
	if err != nil || empty == nil || len(empty) != 0 {
		t.Errorf("ParetoFront(nil) = %v, %v; want an empty slice", empty, err)
	}
}

func TestParetoFrontErrors(t *testing.T) {
	good := Candidate{Objectives: map[string]float64{"throughput_per_gpu": 1, "throughput_per_user": 1}}
	bad := Candidate{Objectives: map[string]float64{"throughput_per_gpu": 1}}
	scalar := Candidate{Metrics: map[string]float64{}} // every value by the §6 rule
	empty := Candidate{Objectives: map[string]float64{}}
	three := []OptimizationTarget{TargetThroughput, TargetGoodput, TargetThroughputPerUser}
	tests := []struct {
		name     string
		cands    []Candidate
		objs     []OptimizationTarget
		sentinel error
		path     string
	}{
		{"a candidate lacking a value", []Candidate{good, scalar, bad}, DefaultParetoObjectives(), ErrInvalidCandidate, "candidate 2.objectives.throughput_per_user"},
		// The matrix is read x-axis first, but the error names the first
		// missing objective in the order the caller gave.
		{"the first missing in the caller's order", []Candidate{scalar, empty}, three, ErrInvalidCandidate, "candidate 1.objectives.throughput"},
		{"a candidate with neither map", []Candidate{good, {}}, DefaultParetoObjectives(), ErrInvalidCandidate, "candidate 1.objectives.throughput_per_gpu"},
		{"no objectives", []Candidate{good}, nil, ErrInvalidParetoObjectives, "objectives"},
		{"pareto among them", []Candidate{good}, []OptimizationTarget{TargetPareto, TargetThroughput}, ErrInvalidParetoObjectives, "objectives[0]"},
		{"a repeat", []Candidate{good}, []OptimizationTarget{TargetThroughput, TargetThroughput}, ErrInvalidParetoObjectives, "objectives[1]"},
		{"out of range", []Candidate{good}, []OptimizationTarget{TargetThroughput, 8}, ErrUnknownTarget, "objectives[1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParetoFront(tt.cands, tt.objs)
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, tt.sentinel) || e.Path != tt.path || e.Offset != -1 {
				t.Fatalf("error = %v; want an *Error wrapping %v at %q", err, tt.sentinel, tt.path)
			}
		})
	}
	// One objective is enough here, and the message counts it in the
	// singular; a goal's pareto_objectives need two, in the plural.
	_, err := ParetoFront([]Candidate{good}, []OptimizationTarget{})
	if want := "spica: objectives: needs at least 1 objective, got 0 []"; err == nil || err.Error() != want {
		t.Errorf("no objectives: %v, want %q", err, want)
	}
	_, err = ParseGoal([]byte(`{"target": "pareto", "pareto_objectives": ["throughput"]}`))
	if want := "spica: pareto_objectives: needs at least 2 objectives, got 1 [throughput]"; err == nil || err.Error() != want {
		t.Errorf("one pareto objective: %v, want %q", err, want)
	}
}

// TestParetoFrontReadsMetricsOfScalarCandidates is issue 8's case: a
// front over candidates made under a scalar goal was empty, with no error,
// though every value is in Metrics.
func TestParetoFrontReadsMetricsOfScalarCandidates(t *testing.T) {
	// One hour per run, so avg_gpu = gpu_hours: 1200/1, 3000/2, 4800/4 tok/s/gpu.
	run := func(tput, perUser, gpus float64) map[string]float64 {
		return map[string]float64{MetricOutputThroughput: tput, MetricThroughputPerUser: perUser, MetricGPUHours: gpus, MetricDurationMs: 3_600_000}
	}
	goal := OptimizationGoal{Target: TargetThroughput}
	var cands []Candidate
	for i, m := range []map[string]float64{run(1200, 60, 1), run(3000, 45, 2), run(4800, 80, 4), run(2000, 40, 2)} {
		c, err := MakeCandidate(map[string]any{"id": i}, Report(m), goal)
		if err != nil {
			t.Fatal(err)
		}
		cands = append(cands, c)
	}
	front, err := ParetoFront(cands, DefaultParetoObjectives())
	if err != nil {
		t.Fatal(err)
	}
	// (1200, 60), (1500, 45), (1200, 80), (1000, 40): (1200, 60) and
	// (1000, 40) are dominated by (1200, 80); by per-user ascending: 1, 2.
	if diff := cmp.Diff([]int{1, 2}, ids(front)); diff != "" {
		t.Errorf("front (-want +got):\n%s", diff)
	}
}

// TestMatrixShapeErrors holds every matrix function to the shape rules
// they share (checkMatrix).
func TestMatrixShapeErrors(t *testing.T) {
	funcs := []struct {
		name       string
		directions bool // takes a maximize list
		call       func(values []float64, dims int, maximize []bool) error
	}{
		{"NonDominated", true, func(v []float64, d int, m []bool) error { _, err := NonDominated(v, d, m); return err }},
		{"NonDominatedSort", true, func(v []float64, d int, m []bool) error { _, err := NonDominatedSort(v, d, m); return err }},
		{"CrowdingDistance", false, func(v []float64, d int, _ []bool) error { _, err := CrowdingDistance(v, d); return err }},
		{"Hypervolume", true, func(v []float64, d int, m []bool) error {
			_, err := Hypervolume(v, d, m, make([]float64, max(d, 0)))
			return err
		}},
		{"HypervolumeContributions", true, func(v []float64, d int, m []bool) error {
			_, err := HypervolumeContributions(v, d, m, make([]float64, max(d, 0)))
			return err
		}},
	}
	tests := []struct {
		name       string
		values     []float64
		dims       int
		maximize   []bool
		directions bool // only functions with directions can get this wrong
		msg        string
	}{
		{"zero dims", []float64{1}, 0, nil, false, "dims: is 0"},
		{"negative dims", nil, -2, nil, false, "dims: is -2"},
		{"a ragged last row", []float64{1, 2, 3}, 2, []bool{true, true}, false, "not a multiple"},
		{"a short direction list", []float64{1, 2}, 2, []bool{true}, true, "maximize: has length 1"},
	}
	for _, f := range funcs {
		for _, tt := range tests {
			if tt.directions && !f.directions {
				continue
			}
			t.Run(f.name+"/"+tt.name, func(t *testing.T) {
				if err := f.call(tt.values, tt.dims, tt.maximize); !errors.Is(err, ErrInvalidMatrix) || !strings.Contains(err.Error(), tt.msg) {
					t.Errorf("error = %v, want ErrInvalidMatrix saying %q", err, tt.msg)
				}
			})
		}
	}
	got, err := NonDominated(nil, 3, []bool{true, false, true})
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("empty matrix: %v, %v", got, err)
	}
}

// TestParetoFrontLargePoolsMatchOracle takes pools past the sizes where
// the engine switches to its radix sort and pre-filter, with few distinct
// values (so long runs of copies), NaN and ±Inf, in every mix of
// directions, some candidates scalar.
func TestParetoFrontLargePoolsMatchOracle(t *testing.T) {
	palette := []float64{math.NaN(), math.Inf(-1), -2, math.Copysign(0, -1), 0, 1, 2.5, 3, math.Inf(1)}
	objsets := [][]OptimizationTarget{
		{TargetThroughputPerGPU, TargetThroughputPerUser},
		{TargetE2ELatency, TargetThroughputPerUser},
		{TargetThroughputPerGPU, TargetE2ELatency},
		{TargetThroughputPerUser, TargetE2ELatency, TargetGoodput},
	}
	rapid.Check(t, func(t *rapid.T) {
		objs := rapid.SampledFrom(objsets).Draw(t, "objs")
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		n := rapid.IntRange(200, 1200).Draw(t, "n")
		distinct := rapid.IntRange(2, len(palette)).Draw(t, "distinct")
		spread := rapid.Bool().Draw(t, "continuous") // else values come from the palette
		pool := make([]Candidate, n)
		for i := range pool {
			pool[i].Config = map[string]any{"id": i}
			if rng.IntN(20) == 0 {
				pool[i].Metrics = scalarMetrics(func() float64 { return palette[rng.IntN(distinct)] }, func() bool { return rng.IntN(4) != 0 })
				continue
			}
			pool[i].Objectives = map[string]float64{}
			for _, o := range objs {
				v := palette[rng.IntN(distinct)]
				if spread && rng.IntN(50) != 0 {
					v = rng.Float64()
				}
				pool[i].Objectives[o.String()] = v
			}
		}
		got, err := ParetoFront(pool, objs)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(ids(refFront(pool, objs)), ids(got)); diff != "" {
			t.Fatalf("front mismatch (-oracle +got):\n%s", diff)
		}
	})
}

// TestParetoFrontAllocations holds ParetoFront to a constant number of
// allocations, whatever the size of the pool or of its front: slices, not
// anything per candidate. A scalar candidate in the pool has its values
// read from Metrics.
func TestParetoFrontAllocations(t *testing.T) {
	for _, d := range []int{1, 2, 3, 4} {
		for _, shape := range []string{"uniform", "sphere"} {
			cands := benchCandidates(shape, 5000, d)
			cands[7] = Candidate{Metrics: map[string]float64{}}
			allocs := testing.AllocsPerRun(3, func() {
				if _, err := ParetoFront(cands, benchObjectives[:d]); err != nil {
					t.Fatal(err)
				}
			})
			if allocs > 25 {
				t.Errorf("%s d=%d: %v allocations per call, want a constant few", shape, d, allocs)
			}
		}
	}
}

// TestGatherInPoolOrder pins the rule gatherInPoolOrder documents; both
// ways of gathering give the same front (TestParetoFrontMatchesOracle
// runs each), so only this test can tell them apart.
func TestGatherInPoolOrder(t *testing.T) {
	for _, tt := range []struct {
		front, pool int
		want        bool
	}{
		{25, 100, false}, // a quarter exactly
		{26, 100, true},
		{3, 10, true}, // 10/4 is 2
		{2, 10, false},
		{0, 0, false},
		{math.MaxInt32, math.MaxInt32, true},
		{math.MaxInt32 + 1, math.MaxInt32 + 1, false},
	} {
		if got := gatherInPoolOrder(tt.front, tt.pool); got != tt.want {
			t.Errorf("gatherInPoolOrder(%d, %d) = %v, want %v", tt.front, tt.pool, got, tt.want)
		}
	}
}
