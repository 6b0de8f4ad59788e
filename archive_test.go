package spica

import (
	"errors"
	"fmt"
	"math"
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

// TestParetoArchiveStateMachine drives an archive with random sequences of
// adds, copies of earlier candidates and invalid candidates, and after
// every step compares it with its model: ParetoFront of everything added.
func TestParetoArchiveStateMachine(t *testing.T) {
	value := rapid.SampledFrom([]float64{math.NaN(), math.Inf(-1), -1, math.Copysign(0, -1), 0, 1, 2, 3, math.Inf(1)})
	rapid.Check(t, func(t *rapid.T) {
		objs := objectivesGen().Draw(t, "objs")
		a, err := NewParetoArchive(objs)
		if err != nil {
			t.Fatal(err)
		}
		var added []Candidate // the model
		offer := func(t *rapid.T, obj map[string]float64) {
			c := Candidate{Config: map[string]any{"id": len(added)}, Objectives: obj}
			admitted, err := a.Add(c)
			if err != nil {
				t.Fatalf("Add(%v): %v", obj, err)
			}
			added = append(added, c)
			want, _ := ParetoFront(added, objs)
			if onFront := slices.Contains(ids(want), len(added)-1); admitted != onFront {
				t.Fatalf("Add(%v) admitted = %v, on the front of all added: %v", obj, admitted, onFront)
			}
		}
		t.Repeat(map[string]func(*rapid.T){
			"add": func(t *rapid.T) {
				obj := map[string]float64{}
				for _, o := range objs {
					obj[o.String()] = value.Draw(t, o.String())
				}
				offer(t, obj)
			},
			"add a copy of an earlier candidate": func(t *rapid.T) {
				if len(added) == 0 {
					t.Skip("nothing added yet")
				}
				offer(t, added[rapid.IntRange(0, len(added)-1).Draw(t, "copy of")].Objectives)
			},
			"add a candidate lacking an objective": func(t *rapid.T) {
				obj := map[string]float64{}
				skip := rapid.IntRange(0, len(objs)).Draw(t, "lacks") // len(objs): nil Objectives
				for i, o := range objs {
					if i != skip {
						obj[o.String()] = 1
					}
				}
				if skip == len(objs) {
					obj = nil
				}
				before := a.Front()
				if _, err := a.Add(Candidate{Objectives: obj}); !errors.Is(err, ErrInvalidCandidate) {
					t.Fatalf("Add(%v) error = %v, want ErrInvalidCandidate", obj, err)
				}
				if diff := cmp.Diff(ids(before), ids(a.Front())); diff != "" {
					t.Fatalf("a failed Add changed the front (-before +after):\n%s", diff)
				}
			},
			"": func(t *rapid.T) {
				want, _ := ParetoFront(added, objs)
				if diff := cmp.Diff(ids(want), ids(a.Front())); diff != "" {
					t.Fatalf("Front() differs from ParetoFront of all added (-want +got):\n%s", diff)
				}
				if a.Len() != len(want) {
					t.Fatalf("Len() = %d, want %d", a.Len(), len(want))
				}
			},
		})
	})
}

// TestParetoArchiveReadersDuringWrites runs readers calling Front and Len
// while writers Add. Every snapshot a reader sees must be a front of some
// of the candidates (no member dominates another), in the last objective's
// order, and no longer than what was offered; at the end the archive holds
// the front of everything.
func TestParetoArchiveReadersDuringWrites(t *testing.T) {
	objs := []OptimizationTarget{TargetThroughput, TargetE2ELatency, TargetGoodput}
	const n, writers, readers = 3000, 4, 4
	pool := make([]Candidate, n)
	for i := range pool {
		// A shell near a sphere, with a dominated point now and then, so
		// members come and go.
		u, v := float64(i%97)/97, float64(i%89)/89
		r := 1.0
		if i%7 == 0 {
			r = 0.9
		}
		pool[i] = Candidate{Config: map[string]any{"id": i}, Objectives: map[string]float64{
			"throughput": r * math.Cos(u) * math.Cos(v), "e2e_latency": 2 - r*math.Sin(u)*math.Cos(v), "goodput": r * math.Sin(v),
		}}
	}
	a, err := NewParetoArchive(objs)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var done sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, writers+readers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += writers {
				if _, err := a.Add(pool[i]); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for range readers {
		done.Add(1)
		go func() {
			defer done.Done()
			for reads := 0; ; reads++ {
				select {
				case <-stop:
					if reads > 0 {
						return
					}
				default:
				}
				front := a.Front()
				if l := a.Len(); l < 0 || l > n || len(front) > n {
					errs <- fmt.Errorf("Len() = %d, len(Front()) = %d with %d candidates", l, len(front), n)
					return
				}
				for i, p := range front {
					if i > 0 && compareAxis(front[i-1].Objectives["goodput"], p.Objectives["goodput"]) > 0 {
						errs <- fmt.Errorf("Front() not sorted by goodput at %d", i)
						return
					}
					for _, q := range front {
						if d, _ := Dominates(q.Objectives, p.Objectives, objs); d {
							errs <- fmt.Errorf("a snapshot holds %v dominated by %v", p.Objectives, q.Objectives)
							return
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	done.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	want, _ := ParetoFront(pool, objs)
	if diff := cmp.Diff(sortedIDs(want), sortedIDs(a.Front())); diff != "" {
		t.Fatalf("final front differs (-want +got):\n%s", diff)
	}
}
