package spica

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestParetoArchiveEqualsParetoFrontOfAllAdded(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		objs := objectivesGen().Draw(t, "objs")
		pool := poolGen(objs, 40).Draw(t, "pool")
		a, err := NewParetoArchive(objs)
		if err != nil {
			t.Fatal(err)
		}
		var added []Candidate
		for _, c := range pool {
			admitted, err := a.Add(c)
			if err != nil {
				t.Fatal(err)
			}
			added = append(added, c)
			want, _ := ParetoFront(added, objs)
			// Admitted exactly when the newcomer is on the front of all so far.
			if onFront := slices.Contains(ids(want), c.Config["id"].(int)); admitted != onFront {
				t.Fatalf("Add(%v) admitted = %v, but on the front: %v", c.Objectives, admitted, onFront)
			}
			if diff := cmp.Diff(ids(want), ids(a.Front())); diff != "" {
				t.Fatalf("Front() differs from ParetoFront of all added (-want +got):\n%s", diff)
			}
			if a.Len() != len(want) {
				t.Fatalf("Len() = %d, want %d", a.Len(), len(want))
			}
		}
	})
}

func TestParetoArchiveConcurrentAdd(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		objs := objectivesGen().Draw(t, "objs")
		pool := poolGen(objs, 200).Draw(t, "pool")
		a, err := NewParetoArchive(objs)
		if err != nil {
			t.Fatal(err)
		}
		const workers = 8
		var wg sync.WaitGroup
		errs := make([]error, workers)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < len(pool); i += workers {
					if _, err := a.Add(pool[i]); err != nil {
						errs[w] = err
					}
					_ = a.Len()
				}
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		// The order of addition is up to the scheduler, so compare sets;
		// the order along the last objective is checked separately.
		want, _ := ParetoFront(pool, objs)
		got := a.Front()
		if diff := cmp.Diff(sortedIDs(want), sortedIDs(got)); diff != "" {
			t.Fatalf("concurrent front differs (-want +got):\n%s", diff)
		}
		last := objs[len(objs)-1]
		if !slices.IsSortedFunc(got, func(p, q Candidate) int { return compareAxis(specValue(p, last), specValue(q, last)) }) {
			t.Fatalf("Front() is not sorted by %s", last)
		}
	})
}

func sortedIDs(cands []Candidate) []int {
	s := ids(cands)
	slices.Sort(s)
	return s
}

func TestParetoArchiveErrors(t *testing.T) {
	for _, tt := range []struct {
		objs     []OptimizationTarget
		sentinel error
	}{
		{nil, ErrInvalidParetoObjectives},
		{[]OptimizationTarget{TargetPareto}, ErrInvalidParetoObjectives},
		{[]OptimizationTarget{TargetE2ELatency, TargetE2ELatency}, ErrInvalidParetoObjectives},
		{[]OptimizationTarget{10}, ErrUnknownTarget},
	} {
		if _, err := NewParetoArchive(tt.objs); !errors.Is(err, tt.sentinel) {
			t.Errorf("NewParetoArchive(%v) error = %v, want %v", tt.objs, err, tt.sentinel)
		}
	}
	objs := []OptimizationTarget{TargetE2ELatency, TargetThroughput}
	a, err := NewParetoArchive(objs)
	if err != nil {
		t.Fatal(err)
	}
	objs[0] = TargetGoodput // the archive keeps its own copy
	var e *Error
	if _, err := a.Add(Candidate{Score: 1}); !errors.As(err, &e) || !errors.Is(err, ErrInvalidCandidate) || e.Path != "candidate.objectives.e2e_latency" {
		t.Errorf("neither Objectives nor Metrics: %v", err)
	}
	if _, err := a.Add(Candidate{Objectives: map[string]float64{"e2e_latency": 1, "goodput": 1}}); !errors.As(err, &e) || !errors.Is(err, ErrInvalidCandidate) || e.Path != "candidate.objectives.throughput" {
		t.Errorf("missing key: %v", err)
	}
	if a.Len() != 0 {
		t.Errorf("failed adds changed the archive: Len() = %d", a.Len())
	}
	// A scalar goal's candidate is read from its Metrics: latency 5 ms and
	// no throughput key, so throughput 0.
	if ok, err := a.Add(Candidate{Metrics: map[string]float64{MetricMeanE2ELatency: 5}}); !ok || err != nil {
		t.Errorf("Add of a scalar goal's candidate = %v, %v; want admitted", ok, err)
	}
	if f := a.Front(); len(f) != 1 || f[0].Metrics[MetricMeanE2ELatency] != 5 {
		t.Errorf("Front() = %v", f)
	}
	var zero ParetoArchive
	if _, err := zero.Add(Candidate{Objectives: map[string]float64{}}); !errors.Is(err, ErrInvalidParetoObjectives) {
		t.Errorf("zero archive Add: %v", err)
	}
	if f := zero.Front(); len(f) != 0 || zero.Len() != 0 {
		t.Errorf("zero archive Front() = %v", f)
	}
}
