package spica

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/spica-search/spica/internal/testkit"
)

func TestParetoLayersArePeeledFronts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		objs := objectivesGen().Draw(t, "objs")
		pool := poolGen(objs, 40).Draw(t, "pool")
		orig := cloneCandidates(pool)
		layers, err := ParetoLayers(pool, objs)
		if err != nil {
			t.Fatal(err)
		}
		// Peel with ParetoFront (itself checked against the brute-force
		// oracle): each layer is the front of what the layers before left.
		rest := slices.Clone(pool)
		for k, layer := range layers {
			front, err := ParetoFront(rest, objs)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(ids(front), ids(layer)); diff != "" {
				t.Fatalf("layer %d is not the front of the rest (-front +layer):\n%s", k, diff)
			}
			onLayer := map[int]bool{}
			for _, id := range ids(layer) {
				onLayer[id] = true
			}
			rest = slices.DeleteFunc(rest, func(c Candidate) bool { return onLayer[c.Config["id"].(int)] })
		}
		if len(rest) != 0 {
			t.Fatalf("%d candidates are in no layer", len(rest))
		}
		if diff := cmp.Diff(orig, pool, sameFloat); diff != "" {
			t.Fatalf("ParetoLayers modified its input:\n%s", diff)
		}
	})
}

func TestParetoLayersErrors(t *testing.T) {
	var e *Error
	_, err := ParetoLayers([]Candidate{{Score: 1}}, DefaultParetoObjectives())
	if !errors.As(err, &e) || !errors.Is(err, ErrInvalidCandidate) || e.Path != "candidate 0.objectives.throughput_per_gpu" {
		t.Errorf("neither Objectives nor Metrics: %v", err)
	}
	bad := []Candidate{{Metrics: map[string]float64{}}, {Objectives: map[string]float64{"throughput_per_gpu": 1}}}
	if _, err := ParetoLayers(bad, DefaultParetoObjectives()); !errors.As(err, &e) || !errors.Is(err, ErrInvalidCandidate) || e.Path != "candidate 1.objectives.throughput_per_user" {
		t.Errorf("missing key: %v", err)
	}
	if _, err := ParetoLayers(nil, []OptimizationTarget{TargetPareto}); !errors.Is(err, ErrInvalidParetoObjectives) {
		t.Errorf("bad objectives: %v", err)
	}
	layers, err := ParetoLayers(nil, DefaultParetoObjectives())
	if err != nil || layers == nil || len(layers) != 0 {
		t.Errorf("no candidates: %v, %v; want no layers", layers, err)
	}
}

// TestNonDominatedSortAllocations holds a warm call on a thousand rows of
// two columns to its result, one slice: the rest of the small path's memory
// is pooled (issue 29). Under the race detector, whose sync.Pool drops a
// quarter of what it is given, only the lower bound holds; .ci/run runs
// this test once more without -race.
func TestNonDominatedSortAllocations(t *testing.T) {
	for _, shape := range []string{"line", "sphere", "uniform"} {
		values := testkit.Matrix(shape, 1000, 2)
		maximize := []bool{false, false}
		run := func() {
			if _, err := NonDominatedSort(values, 2, maximize); err != nil {
				t.Fatal(err)
			}
		}
		run()
		if got := testing.AllocsPerRun(20, run); got != 1 && !(raceEnabled && got > 1) {
			t.Errorf("%s, 1000 rows, 2 columns: %v allocations a call, want 1 (the result)", shape, got)
		}
	}
}
