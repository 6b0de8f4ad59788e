package spica

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestObjectiveMatrix(t *testing.T) {
	// A report of 1200 tok/s over 1 h on 2 GPUs: 600 tok/s/gpu.
	scalar := Candidate{Metrics: map[string]float64{
		MetricOutputThroughput: 1200, MetricGPUHours: 2, MetricDurationMs: 3_600_000,
		MetricThroughputPerUser: 40,
	}}
	pareto := Candidate{
		Objectives: map[string]float64{"throughput_per_gpu": 900, "throughput_per_user": math.NaN()},
		Metrics:    map[string]float64{MetricMeanE2ELatency: 250},
	}
	objs := []OptimizationTarget{TargetThroughputPerGPU, TargetThroughputPerUser, TargetE2ELatency}
	values, maximize, err := ObjectiveMatrix([]Candidate{scalar, pareto}, objs)
	if err != nil {
		t.Fatal(err)
	}
	// Row 0 from Metrics alone; the missing latency reads +Inf, as it scores.
	// Row 1 from Objectives first, the latency from Metrics.
	want := []float64{600, 40, math.Inf(1), 900, math.NaN(), 250}
	if diff := cmp.Diff(want, values, cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]bool{true, true, false}, maximize); diff != "" {
		t.Errorf("maximize (-want +got):\n%s", diff)
	}
}

func TestObjectiveMatrixNamesTheCandidateWithoutAValue(t *testing.T) {
	cands := []Candidate{
		{Objectives: map[string]float64{"throughput": 1}},
		{Objectives: map[string]float64{"e2e_latency": 1}}, // no Metrics to fall back on
	}
	_, _, err := ObjectiveMatrix(cands, []OptimizationTarget{TargetThroughput})
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrInvalidCandidate) {
		t.Fatalf("err = %v, want an *Error wrapping ErrInvalidCandidate", err)
	}
	if e.Path != "candidate 1.objectives.throughput" || e.Offset != -1 {
		t.Errorf("Path, Offset = %q, %d; want %q, -1", e.Path, e.Offset, "candidate 1.objectives.throughput")
	}
}

func TestObjectiveMatrixEmpty(t *testing.T) {
	values, maximize, err := ObjectiveMatrix(nil, []OptimizationTarget{TargetE2ELatency})
	if err != nil || len(values) != 0 || !cmp.Equal(maximize, []bool{false}) {
		t.Errorf("got %v, %v, %v; want no rows, [false], nil", values, maximize, err)
	}
}
