package spica

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

// TestCandidateNeverEncodesWhatItRejects is issue 26's defect 7, first
// item: Candidate{UsedGPUs: -1} encoded to {"used_gpus":-1,...}, which
// UnmarshalJSON rejects. Every candidate either fails to encode, with an
// error naming used_gpus, or decodes back.
func TestCandidateNeverEncodesWhatItRejects(t *testing.T) {
	_, err := json.Marshal(Candidate{UsedGPUs: -1})
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrInvalidCandidate) || e.Path != "used_gpus" {
		t.Fatalf("json.Marshal(Candidate{UsedGPUs: -1}) = %v (%#v); want ErrInvalidCandidate at used_gpus", err, e)
	}
	rapid.Check(t, func(t *rapid.T) {
		c := Candidate{UsedGPUs: rapid.IntRange(math.MinInt, math.MaxInt).Draw(t, "gpus")}
		data, err := c.MarshalJSON()
		if c.UsedGPUs < 0 {
			if !errors.Is(err, ErrInvalidCandidate) {
				t.Fatalf("UsedGPUs %d encoded as %s, %v", c.UsedGPUs, data, err)
			}
			return
		}
		var back Candidate
		if err != nil || back.UnmarshalJSON(data) != nil || back.UsedGPUs != c.UsedGPUs {
			t.Fatalf("UsedGPUs %d: %s, %v; back %d", c.UsedGPUs, data, err, back.UsedGPUs)
		}
	})
}

// TestParetoArchiveOwnsItsCandidates is defect 7's archive item: the
// archive kept the caller's maps, so editing them after Add changed what
// Front() returned, and the front no longer equalled ParetoFront(Front()).
func TestParetoArchiveOwnsItsCandidates(t *testing.T) {
	objs := []OptimizationTarget{TargetThroughputPerGPU, TargetThroughputPerUser}
	a, err := NewParetoArchive(objs)
	if err != nil {
		t.Fatal(err)
	}
	// (gpu, user) = (10, 1), (5, 5), (1, 10): a front of three.
	cands := []Candidate{
		{Config: map[string]any{"name": "a"}, Objectives: map[string]float64{"throughput_per_gpu": 10, "throughput_per_user": 1}},
		{Config: map[string]any{"name": "b"}, Metrics: map[string]float64{"gpu_hours": 1}, Objectives: map[string]float64{"throughput_per_gpu": 5, "throughput_per_user": 5}},
		{Config: map[string]any{"name": "c"}, Objectives: map[string]float64{"throughput_per_gpu": 1, "throughput_per_user": 10}},
	}
	for _, c := range cands {
		if ok, err := a.Add(c); !ok || err != nil {
			t.Fatalf("Add(%v) = %v, %v", c.Config, ok, err)
		}
	}
	want := a.Front()
	// Make b dominate a and c, edit a config, drop a metric.
	cands[1].Objectives["throughput_per_gpu"], cands[1].Objectives["throughput_per_user"] = 100, 100
	cands[0].Config["name"] = "edited"
	delete(cands[1].Metrics, "gpu_hours")
	got := a.Front()
	if diff := cmp.Diff(want, got, cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("Front() changed with the caller's maps (-before +after):\n%s", diff)
	}
	pf, err := ParetoFront(got, objs)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, pf); diff != "" {
		t.Errorf("Front() != ParetoFront(Front()) (-front +ParetoFront):\n%s", diff)
	}
	// Nor do the maps Front returns belong to the archive.
	got[0].Objectives["throughput_per_user"] = 1000
	got[0].Config["name"] = "edited"
	if diff := cmp.Diff(want, a.Front()); diff != "" {
		t.Errorf("editing Front()'s result changed the archive (-before +after):\n%s", diff)
	}
}

// TestFrontSVGNamesItsOwnParameters is defect 7's FrontSVG item: x == y was
// reported at "objectives[1]", a parameter FrontSVG does not have.
func TestFrontSVGNamesItsOwnParameters(t *testing.T) {
	cands := []Candidate{{Objectives: map[string]float64{"throughput": 1, "e2e_latency": 2}}}
	for _, tt := range []struct {
		name     string
		x, y     OptimizationTarget
		sentinel error
		path     string
	}{
		{"x == y", TargetThroughput, TargetThroughput, ErrInvalidParetoObjectives, "y"},
		{"x pareto", TargetPareto, TargetThroughput, ErrInvalidParetoObjectives, "x"},
		{"y pareto", TargetThroughput, TargetPareto, ErrInvalidParetoObjectives, "y"},
		{"x unknown", OptimizationTarget(99), TargetThroughput, ErrUnknownTarget, "x"},
		{"y unknown", TargetThroughput, OptimizationTarget(99), ErrUnknownTarget, "y"},
	} {
		var b bytes.Buffer
		err := FrontSVG(&b, cands, tt.x, tt.y, PlotOptions{})
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, tt.sentinel) || e.Path != tt.path {
			t.Errorf("%s: %v (%#v); want %v at %q", tt.name, err, e, tt.sentinel, tt.path)
		}
		if b.Len() != 0 {
			t.Errorf("%s: wrote %d bytes before failing", tt.name, b.Len())
		}
	}
}
