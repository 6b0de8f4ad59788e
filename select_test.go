package spica

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
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
		{Config: map[string]any{"id": 6}, UsedGPUs: 0, Score: 1e9}, // scalar candidate: never eligible
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
		msg      string
	}{
		{"pareto objective", TargetPareto, nil, ErrNoScalarDirection, "objective"},
		{"unknown objective", 12, nil, ErrUnknownTarget, "OptimizationTarget(12)"},
		{"pareto bound", TargetThroughputPerGPU, []Bound{{TargetPareto, 1}}, ErrNoScalarDirection, "bounds[0]"},
		{"unknown bound", TargetThroughputPerGPU, []Bound{{TargetThroughput, 1}, {99, 1}}, ErrUnknownTarget, "bounds[1]"},
		{"NaN bound", TargetThroughputPerGPU, []Bound{{TargetThroughputPerUser, math.NaN()}}, ErrInvalidBound, "bounds[0] (throughput_per_user) is NaN"},
		{"missing bound key", TargetThroughputPerGPU, []Bound{{TargetThroughputPerUser, 0}}, ErrInvalidCandidate, `candidate 1 lacks objective "throughput_per_user"`},
		{"missing objective key", TargetE2ELatency, nil, ErrInvalidCandidate, `candidate 0 lacks objective "e2e_latency"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ok, err := BestSubjectTo(pool, tt.obj, tt.bounds...)
			if ok || !errors.Is(err, tt.sentinel) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("got %v, %v; want %v saying %q", ok, err, tt.sentinel, tt.msg)
			}
		})
	}
}

func TestBestSubjectToMatchesOracle(t *testing.T) {
	objs := []OptimizationTarget{TargetThroughputPerGPU, TargetThroughputPerUser, TargetE2ELatency}
	bound := rapid.SampledFrom([]float64{math.Inf(-1), -1, 0, 1, 2, math.Inf(1)})
	rapid.Check(t, func(t *rapid.T) {
		pool := poolGen(objs, 25).Draw(t, "pool")
		for i := range pool {
			pool[i].UsedGPUs = rapid.IntRange(0, 2).Draw(t, "gpus")
		}
		obj := rapid.SampledFrom(objs).Draw(t, "objective")
		var bounds []Bound
		for range rapid.IntRange(0, 3).Draw(t, "bounds") {
			bounds = append(bounds, Bound{rapid.SampledFrom(objs).Draw(t, "target"), bound.Draw(t, "value")})
		}
		orig := cloneCandidates(pool)
		got, ok, err := BestSubjectTo(pool, obj, bounds...)
		if err != nil {
			t.Fatal(err)
		}
		// Oracle: filter by the SPEC's words, then scan for the best.
		best := -1
		for i, c := range pool {
			if c.Objectives == nil {
				continue
			}
			meets := true
			for _, b := range bounds {
				max, _ := b.Target.Maximize()
				v := c.Objectives[b.Target.String()]
				meets = meets && !math.IsNaN(v) && !oracleBetter(b.Value, v, max)
			}
			if !meets {
				continue
			}
			if best < 0 {
				best = i
				continue
			}
			max, _ := obj.Maximize()
			v, bv := c.Objectives[obj.String()], pool[best].Objectives[obj.String()]
			if oracleBetter(v, bv, max) || !oracleBetter(bv, v, max) && c.UsedGPUs < pool[best].UsedGPUs {
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
