package spica

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
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
			v[i] = c.Objectives[t.String()]
		}
		return v
	}
	var front []Candidate
	for i, c := range cands {
		if c.Objectives == nil {
			continue
		}
		dominated := false
		for j, d := range cands {
			if j != i && d.Objectives != nil && oracleDominates(vec(d), vec(c), maximize) {
				dominated = true
				break
			}
		}
		if !dominated {
			front = append(front, c)
		}
	}
	last := objs[len(objs)-1].String()
	slices.SortStableFunc(front, func(a, b Candidate) int {
		x, y := a.Objectives[last], b.Objectives[last]
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
	both := DefaultParetoObjectives()
	if _, err := Dominates(full, part, both); !errors.Is(err, ErrInvalidCandidate) || !strings.Contains(err.Error(), `"throughput_per_user"`) {
		t.Errorf("missing key in b: %v", err)
	}
	if _, err := Dominates(nil, full, both); !errors.Is(err, ErrInvalidCandidate) || !strings.Contains(err.Error(), `"throughput_per_gpu"`) {
		t.Errorf("missing key in a: %v", err)
	}
	for _, objs := range [][]OptimizationTarget{nil, {}, {TargetPareto}, {TargetThroughputPerGPU, TargetThroughputPerGPU}, {77}} {
		if _, err := Dominates(full, full, objs); !errors.Is(err, ErrInvalidParetoObjectives) {
			t.Errorf("objectives %v: error = %v, want ErrInvalidParetoObjectives", objs, err)
		}
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
// ties, duplicates, NaN, ±Inf and -0.0 are common; some candidates have nil
// Objectives and must be ignored.
func poolGen(objs []OptimizationTarget, maxN int) *rapid.Generator[[]Candidate] {
	value := rapid.SampledFrom([]float64{math.NaN(), math.Inf(-1), -1, math.Copysign(0, -1), 0, 1, 2, 3, math.Inf(1)})
	return rapid.Custom(func(t *rapid.T) []Candidate {
		n := rapid.IntRange(0, maxN).Draw(t, "n")
		pool := make([]Candidate, n)
		for i := range pool {
			pool[i].Config = map[string]any{"id": i}
			pool[i].UsedGPUs = i
			if rapid.IntRange(0, 9).Draw(t, "scalar") == 0 {
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
		if c.Objectives != nil {
			out[i].Objectives = make(map[string]float64)
			for k, v := range c.Objectives {
				out[i].Objectives[k] = v
			}
		}
	}
	return out
}

func TestParetoFrontByHand(t *testing.T) {
	c := func(id int, lat, perUser float64) Candidate {
		return Candidate{Config: map[string]any{"id": id}, Objectives: map[string]float64{"e2e_latency": lat, "throughput_per_user": perUser}}
	}
	objs := []OptimizationTarget{TargetE2ELatency, TargetThroughputPerUser} // minimize, maximize
	pool := []Candidate{
		c(0, 100, 10),                     // front
		c(1, 100, 10),                     // duplicate of 0: kept
		c(2, 120, 10),                     // dominated by 0 (slower, same per-user)
		c(3, 90, 5),                       // front: fastest
		c(4, 300, 40),                     // front: best per-user
		c(5, math.NaN(), 40),              // dominated by 4 (NaN latency is worst)
		{Config: map[string]any{"id": 6}}, // scalar candidate: not in the pool
		c(7, 200, 40),                     // front: dominates 4 (faster, same per-user)
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
	_, err := ParetoFront([]Candidate{good, {}, bad}, DefaultParetoObjectives())
	if !errors.Is(err, ErrInvalidCandidate) || !strings.Contains(err.Error(), "candidate 2") || !strings.Contains(err.Error(), `"throughput_per_user"`) {
		t.Errorf("error = %v, want ErrInvalidCandidate naming candidate 2 and the key", err)
	}
	// The matrix is read x-axis first, but the error names the first missing
	// objective in the order the caller gave.
	empty := Candidate{Objectives: map[string]float64{}}
	objs := []OptimizationTarget{TargetThroughput, TargetGoodput, TargetThroughputPerUser}
	_, err = ParetoFront([]Candidate{{}, empty}, objs)
	if !errors.Is(err, ErrInvalidCandidate) || !strings.Contains(err.Error(), `candidate 1 lacks objective "throughput"`) {
		t.Errorf("error = %v, want ErrInvalidCandidate naming candidate 1 and \"throughput\"", err)
	}
	for _, objs := range [][]OptimizationTarget{nil, {TargetPareto, TargetThroughput}, {TargetThroughput, TargetThroughput}, {TargetThroughput, 8}} {
		if _, err := ParetoFront([]Candidate{good}, objs); !errors.Is(err, ErrInvalidParetoObjectives) {
			t.Errorf("objectives %v: error = %v, want ErrInvalidParetoObjectives", objs, err)
		}
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
// anything per candidate. Scalar candidates in the pool take the path that
// maps rows back to candidates.
func TestParetoFrontAllocations(t *testing.T) {
	for _, d := range []int{1, 2, 3, 4} {
		for _, shape := range []string{"uniform", "sphere"} {
			cands := benchCandidates(shape, 5000, d)
			cands[7].Objectives = nil
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
