package spica

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/spica-search/spica/internal/testkit"
)

func TestBestSubjectTo(t *testing.T) {
	nan := math.NaN()
	c := func(id, gpus int, perGPU, perUser, lat float64) Candidate {
		return Candidate{Config: map[string]any{"id": id}, UsedGPUs: gpus,
			Objectives: map[string]float64{"throughput_per_gpu": perGPU, "throughput_per_user": perUser, "e2e_latency": lat}}
	}
	pool := []Candidate{
		c(0, 8, 2000, 30, 900),  // fastest per GPU, too slow per user
		c(1, 4, 1500, 50, 1200), // exactly at the bound: bounds are inclusive
		c(2, 2, 1500, 60, 1000), // ties 1 on per-GPU, fewer GPUs: wins
		c(3, 2, 1500, 70, 800),  // ties 2 entirely but comes later
		c(4, 1, 1400, 90, 500),
		c(5, 1, nan, 99, 400), // NaN per-GPU: worst objective
		// A scalar goal's candidate, read from Metrics: 500 tok/s/gpu, 55
		// tok/s/user, 950 ms; eligible, never the best here.
		{Config: map[string]any{"id": 6}, UsedGPUs: 0, Score: 1e9, Metrics: map[string]float64{
			MetricOutputThroughput: 500, MetricGPUHours: 1, MetricDurationMs: 3_600_000, MetricThroughputPerUser: 55, MetricMeanE2ELatency: 950}},
		c(7, 1, 1800, nan, 100), // NaN per-user never meets a bound
	}
	perGPU, perUser, lat := TargetThroughputPerGPU, TargetThroughputPerUser, TargetE2ELatency
	tests := []struct {
		name   string
		obj    OptimizationTarget
		bounds []Bound
		want   int // id, -1 for none
	}{
		{"no bounds: the best objective", perGPU, nil, 0},
		{"best tok/s/gpu at >= 50 tok/s/user", perGPU, []Bound{{perUser, 50}}, 2},
		{"a latency bound is an upper bound", perGPU, []Bound{{perUser, 50}, {lat, 900}}, 3},
		{"minimizing latency under a per-GPU floor", lat, []Bound{{perGPU, 1500}}, 7},
		{"a NaN per-user value fails even a floor of 0", lat, []Bound{{perGPU, 1500}, {perUser, 0}}, 3},
		{"a NaN objective is chosen only when nothing else qualifies", perGPU, []Bound{{perUser, 95}}, 5},
		{"an unreachable bound selects nothing", perGPU, []Bound{{perUser, 1000}}, -1},
		{"+Inf bound on a minimized target admits every number", perGPU, []Bound{{lat, math.Inf(1)}}, 0},
		{"-Inf bound on a maximized target still excludes NaN", perUser, []Bound{{perUser, math.Inf(-1)}, {perGPU, 1800}}, 0},
		{"a scalar goal's candidate competes by its Metrics", perUser, []Bound{{lat, 950}, {perUser, 50}, {perGPU, 500}}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := BestSubjectTo(pool, tt.obj, tt.bounds...)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want < 0 {
				if ok {
					t.Fatalf("got candidate %v, want none", got.Config["id"])
				}
				return
			}
			if !ok || got.Config["id"] != tt.want {
				t.Fatalf("got %v (%v), want candidate %d", got.Config["id"], ok, tt.want)
			}
		})
	}
	if _, ok, err := BestSubjectTo(nil, perGPU); ok || err != nil {
		t.Errorf("empty pool: %v, %v", ok, err)
	}
	// Which candidates meet lat <= 950 and perUser >= 55: 3 (800, 70),
	// 4 (500, 90), 5 (400, 99) and the scalar 6 (950, 55), by its Metrics.
	got, err := SubjectTo(pool, Bound{lat, 950}, Bound{perUser, 55})
	if err != nil || !cmp.Equal(ids(got), []int{3, 4, 5, 6}) {
		t.Errorf("SubjectTo = %v, %v; want [3 4 5 6]", ids(got), err)
	}
}

func TestBestSubjectToErrors(t *testing.T) {
	pool := []Candidate{
		{Objectives: map[string]float64{"throughput_per_gpu": 1, "throughput_per_user": 1}},
		{Objectives: map[string]float64{"throughput_per_gpu": 1}},
	}
	tests := []struct {
		name     string
		obj      OptimizationTarget
		bounds   []Bound
		sentinel error
		path     string
	}{
		{"pareto objective", TargetPareto, nil, ErrNoScalarDirection, "objective"},
		{"unknown objective", 12, nil, ErrUnknownTarget, "objective"},
		{"pareto bound", TargetThroughputPerGPU, []Bound{{TargetPareto, 1}}, ErrNoScalarDirection, "bounds[0]"},
		{"unknown bound", TargetThroughputPerGPU, []Bound{{TargetThroughput, 1}, {99, 1}}, ErrUnknownTarget, "bounds[1]"},
		{"NaN bound", TargetThroughputPerGPU, []Bound{{TargetThroughputPerUser, math.NaN()}}, ErrInvalidBound, "bounds[0]"},
		{"missing bound key", TargetThroughputPerGPU, []Bound{{TargetThroughputPerUser, 0}}, ErrInvalidCandidate, "candidate 1.objectives.throughput_per_user"},
		{"missing objective key", TargetE2ELatency, nil, ErrInvalidCandidate, "candidate 0.objectives.e2e_latency"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ok, err := BestSubjectTo(pool, tt.obj, tt.bounds...)
			var e *Error
			if ok || !errors.As(err, &e) || !errors.Is(err, tt.sentinel) || e.Path != tt.path {
				t.Fatalf("got %v, %v; want an *Error wrapping %v at %q", ok, err, tt.sentinel, tt.path)
			}
			if tt.obj != TargetE2ELatency { // SubjectTo has no objective: the same bound errors
				if _, err := SubjectTo(pool, tt.bounds...); len(tt.bounds) > 0 && (!errors.As(err, &e) || !errors.Is(err, tt.sentinel) || e.Path != tt.path) {
					t.Errorf("SubjectTo error = %v; want %v at %q", err, tt.sentinel, tt.path)
				}
			}
		})
	}
}

// oracleMeets is the bound rule in the SPEC's words: the value is a number
// at least as good as every bound in the bound target's direction.
func oracleMeets(c Candidate, bounds []Bound) bool {
	for _, b := range bounds {
		maximize, _ := b.Target.Maximize()
		v := specValue(c, b.Target)
		if math.IsNaN(v) || testkit.Better(b.Value, v, maximize) {
			return false
		}
	}
	return true
}

func boundsGen(objs []OptimizationTarget) *rapid.Generator[[]Bound] {
	value := rapid.SampledFrom([]float64{math.Inf(-1), -1, 0, 1, 2, math.Inf(1)})
	return rapid.Custom(func(t *rapid.T) []Bound {
		var bounds []Bound
		for range rapid.IntRange(0, 3).Draw(t, "bounds") {
			bounds = append(bounds, Bound{rapid.SampledFrom(objs).Draw(t, "target"), value.Draw(t, "value")})
		}
		return bounds
	})
}

func TestSubjectToMatchesBruteForceFilter(t *testing.T) {
	objs := []OptimizationTarget{TargetThroughputPerGPU, TargetThroughputPerUser, TargetE2ELatency}
	rapid.Check(t, func(t *rapid.T) {
		pool := poolGen(objs, 25).Draw(t, "pool")
		bounds := boundsGen(objs).Draw(t, "bounds")
		orig := cloneCandidates(pool)
		got, err := SubjectTo(pool, bounds...)
		if err != nil {
			t.Fatal(err)
		}
		want := []Candidate{}
		for _, c := range pool {
			if oracleMeets(c, bounds) {
				want = append(want, c)
			}
		}
		if diff := cmp.Diff(ids(want), ids(got)); diff != "" {
			t.Fatalf("SubjectTo (-oracle +got):\n%s", diff)
		}
		if diff := cmp.Diff(orig, pool, sameFloat); diff != "" {
			t.Fatalf("SubjectTo modified its input:\n%s", diff)
		}
	})
}

func TestSubjectToWithoutBoundsCopies(t *testing.T) {
	pool := []Candidate{{Config: map[string]any{"id": 0}}, {Config: map[string]any{"id": 1}}}
	got, err := SubjectTo(pool)
	if err != nil || !cmp.Equal(ids(got), []int{0, 1}) {
		t.Fatalf("SubjectTo(pool) = %v, %v", ids(got), err)
	}
	got[0] = Candidate{Config: map[string]any{"id": 9}}
	if pool[0].Config["id"] != 0 {
		t.Error("the result shares its backing array with the input")
	}
}

func TestBestSubjectToMatchesOracle(t *testing.T) {
	objs := []OptimizationTarget{TargetThroughputPerGPU, TargetThroughputPerUser, TargetE2ELatency}
	rapid.Check(t, func(t *rapid.T) {
		pool := poolGen(objs, 25).Draw(t, "pool")
		for i := range pool {
			pool[i].UsedGPUs = rapid.IntRange(0, 2).Draw(t, "gpus")
		}
		obj := rapid.SampledFrom(objs).Draw(t, "objective")
		bounds := boundsGen(objs).Draw(t, "bounds")
		orig := cloneCandidates(pool)
		got, ok, err := BestSubjectTo(pool, obj, bounds...)
		if err != nil {
			t.Fatal(err)
		}
		// Oracle: filter by the SPEC's words, then scan for the best.
		best := -1
		for i, c := range pool {
			if !oracleMeets(c, bounds) {
				continue
			}
			if best < 0 {
				best = i
				continue
			}
			maximize, _ := obj.Maximize()
			v, bv := specValue(c, obj), specValue(pool[best], obj)
			if testkit.Better(v, bv, maximize) || !testkit.Better(bv, v, maximize) && c.UsedGPUs < pool[best].UsedGPUs {
				best = i
			}
		}
		if (best >= 0) != ok {
			t.Fatalf("found = %v, oracle found %v", ok, best >= 0)
		}
		if ok && got.Config["id"] != best {
			t.Fatalf("got candidate %v, oracle %d", got.Config["id"], best)
		}
		if diff := cmp.Diff(orig, pool, sameFloat); diff != "" {
			t.Fatalf("BestSubjectTo modified its input:\n%s", diff)
		}
	})
}
