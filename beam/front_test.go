package spicabeam

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/google/go-cmp/cmp"
	"github.com/spica-search/spica"
)

// The tests run pipelines on prism, Beam's local runner, in this process
// (its workers are goroutines reached over loopback). Pass -runner=direct
// to run them on the older direct runner instead.
func TestMain(m *testing.M) { ptest.MainWithDefault(m, "prism") }

func init() {
	register.DoFn2x0[int, func(Item)](&genShardFn{})
	register.DoFn1x0[[]Item](&sinkFn{})
}

// sinks holds what sinkFn saw, by key. The local runners run the workers
// in the test's process, so a pipeline can hand its output back this way.
var sinks sync.Map // string → [][]Item

// sinkFn records every front it sees under Key.
type sinkFn struct {
	Key string `json:"key"`
}

var sinkMu sync.Mutex

func (fn *sinkFn) ProcessElement(front []Item) {
	sinkMu.Lock()
	defer sinkMu.Unlock()
	old, _ := sinks.Load(fn.Key)
	got, _ := old.([][]Item)
	sinks.Store(fn.Key, append(got, front))
}

// runFront runs ParetoFront on the items that build adds to a pipeline and
// returns its outputs (exactly one is expected).
func runFront(t *testing.T, objectives []spica.OptimizationTarget, build func(s beam.Scope) beam.PCollection) [][]Item {
	t.Helper()
	key := t.Name()
	sinks.Delete(key)
	p, s := beam.NewPipelineWithRoot()
	front := ParetoFront(s, build(s), objectives)
	beam.ParDo0(s, &sinkFn{Key: key}, front)
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline failed: %v", err)
	}
	got, _ := sinks.Load(key)
	out, _ := got.([][]Item)
	return out
}

// candJSON is the JSON of a candidate named name with the given objectives.
func candJSON(t *testing.T, name string, objectives map[string]float64) []byte {
	t.Helper()
	b, err := json.Marshal(spica.Candidate{Config: map[string]any{"name": name}, Metrics: map[string]float64{}, Objectives: objectives})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func names(t *testing.T, items []Item) []string {
	t.Helper()
	cands, err := Candidates(items)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(cands))
	for i, c := range cands {
		out[i] = fmt.Sprint(c.Config["name"])
	}
	return out
}

// TestParetoFrontByHand checks a ten-candidate pool in two sources whose
// front was worked out by hand; the items arrive in an order unrelated to
// their places, so only the places can order the ties.
func TestParetoFrontByHand(t *testing.T) {
	objs := []spica.OptimizationTarget{spica.TargetThroughputPerGPU, spica.TargetE2ELatency}
	nan := math.NaN()
	pool := []struct {
		name     string
		source   string
		index    int64
		tpg, lat float64
	}{
		{"A", "a", 1, 100, 50},
		{"B", "a", 2, 80, 30},
		{"C", "a", 3, 100, 60}, // A dominates: same throughput, slower
		{"D", "b", 1, 120, 90}, // equal to H, kept too
		{"E", "a", 4, 80, 30},  // equal to B, kept too
		{"F", "b", 2, nan, 10}, // NaN throughput is worst, but nothing is as fast
		{"G", "b", 3, 90, nan}, // A dominates: NaN latency is worst
		{"H", "a", 5, 120, 90}, // ties D on the x-axis; a:5 comes before b:1
		{"I", "b", 4, 110, 95}, // D dominates
		{"J", "b", 5, 60, 20},  // only F is faster, and F's throughput is NaN
	}
	var items []Item
	for i := len(pool) - 1; i >= 0; i-- {
		c := pool[i]
		items = append(items, Item{Source: c.source, Index: c.index, JSON: candJSON(t, c.name,
			map[string]float64{"throughput_per_gpu": c.tpg, "e2e_latency": c.lat})})
	}
	// By latency, the x-axis, ascending: F 10, J 20, B and E 30 (a:2 before
	// a:4), A 50, H and D 90 (a:5 before b:1).
	want := []string{"F", "J", "B", "E", "A", "H", "D"}

	got := runFront(t, objs, func(s beam.Scope) beam.PCollection { return beam.CreateList(s, items) })
	if len(got) != 1 {
		t.Fatalf("got %d outputs, want 1", len(got))
	}
	if diff := cmp.Diff(want, names(t, got[0])); diff != "" {
		t.Errorf("front names (-want +got):\n%s", diff)
	}
}

// genShardFn emits shard number shard of the pool that genPool makes.
type genShardFn struct {
	Seed     uint64 `json:"seed"`
	PerShard int    `json:"per_shard"`
	Dims     int    `json:"dims"`
}

func (fn *genShardFn) ProcessElement(shard int, emit func(Item)) {
	for _, it := range genShard(fn.Seed, shard, fn.PerShard, fn.Dims) {
		emit(it)
	}
}

// poolObjectives are the objective lists of the generated pools, each
// mixing e2e_latency (minimized) with maximized targets, the x-axis
// maximized in one and minimized in another.
var poolObjectives = map[int][]spica.OptimizationTarget{
	2: {spica.TargetThroughputPerGPU, spica.TargetE2ELatency},
	3: {spica.TargetE2ELatency, spica.TargetThroughput, spica.TargetThroughputPerUser},
	4: {spica.TargetThroughputPerUser, spica.TargetGoodput, spica.TargetE2ELatency, spica.TargetThroughputPerGPU},
}

// genShard makes shard number shard of a pool: perShard candidates at
// Source "shard-NN" and Index 0, 1, … Their objective vectors lie near a
// sphere in the good corner (so the front is large) on a grid of 64 steps
// per axis (so exact ties and equal vectors are common); one in fifty
// values is NaN. Each carries a config of mixed shape and its own
// metrics, and one in two hundred carries no Objectives, only Metrics.
func genShard(seed uint64, shard, perShard, dims int) []Item {
	rng := rand.New(rand.NewPCG(seed, uint64(shard)))
	objs := poolObjectives[dims]
	items := make([]Item, perShard)
	g := make([]float64, dims)
	for i := range items {
		norm := 0.0
		for j := range g {
			g[j] = math.Abs(rng.NormFloat64())
			norm += g[j] * g[j]
		}
		r := 1 - 0.3*rng.Float64()*rng.Float64()
		obj := make(map[string]float64, dims)
		for j, t := range objs {
			v := math.Round(64*r*g[j]/math.Sqrt(norm)) / 64
			if t == spica.TargetE2ELatency {
				v = 1000 * (2 - v) // minimized: the best are the smallest
			} else {
				v *= 500
			}
			if rng.IntN(50) == 0 {
				v = math.NaN()
			}
			obj[t.String()] = v
		}
		c := spica.Candidate{
			Config: map[string]any{
				"shard": shard, "i": i, "engine": []any{"tp", float64(int(1) << rng.IntN(4))},
				"planner": map[string]any{"policy": "load", "enabled": rng.IntN(2) == 0, "note": nil},
			},
			UsedGPUs:   1 + rng.IntN(8),
			Score:      obj[objs[0].String()],
			Metrics:    map[string]float64{"output_throughput_tok_s": obj[objs[0].String()], "mean_e2e_latency_ms": 1000, "avg_gpu": 2},
			Objectives: obj,
		}
		if rng.IntN(200) == 0 {
			c.Objectives = nil
		}
		b, err := json.Marshal(c)
		if err != nil {
			panic(err) // the generator makes only encodable candidates
		}
		items[i] = Item{Source: fmt.Sprintf("shard-%02d", shard), Index: int64(i), JSON: b}
	}
	return items
}

// genPool is the whole pool in pool order: shards in order, then indices.
func genPool(seed uint64, shards, perShard, dims int) []Item {
	var pool []Item
	for k := range shards {
		pool = append(pool, genShard(seed, k, perShard, dims)...)
	}
	return pool
}

// shardedPool adds the generated pool to a pipeline as shards made by
// separate workers.
func shardedPool(s beam.Scope, seed uint64, shards, perShard, dims int) beam.PCollection {
	nums := make([]int, shards)
	for k := range nums {
		nums[k] = k
	}
	return beam.ParDo(s, &genShardFn{Seed: seed, PerShard: perShard, Dims: dims}, beam.Reshuffle(s, beam.CreateList(s, nums)))
}

// wantFront is spica.ParetoFront of the whole pool, as items.
func wantFront(t interface {
	Helper()
	Fatal(...any)
}, pool []Item, objectives []spica.OptimizationTarget) []Item {
	t.Helper()
	cands, err := Candidates(pool)
	if err != nil {
		t.Fatal(err)
	}
	front, err := spica.ParetoFront(cands, objectives)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ItemsOf(front)
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// TestParetoFrontLargePools compares the pipeline's front of 1e5
// candidates in 8 and 10 shards with spica.ParetoFront of the whole pool,
// JSON for JSON.
func TestParetoFrontLargePools(t *testing.T) {
	for _, tc := range []struct{ dims, shards, perShard int }{
		{2, 8, 12500},
		{3, 10, 10000},
		{4, 8, 12500},
	} {
		t.Run(fmt.Sprintf("d=%d/shards=%d", tc.dims, tc.shards), func(t *testing.T) {
			objs := poolObjectives[tc.dims]
			seed := uint64(tc.dims)
			pool := genPool(seed, tc.shards, tc.perShard, tc.dims)
			want := wantFront(t, pool, objs)
			got := runFront(t, objs, func(s beam.Scope) beam.PCollection {
				return shardedPool(s, seed, tc.shards, tc.perShard, tc.dims)
			})
			if len(got) != 1 {
				t.Fatalf("got %d outputs, want 1", len(got))
			}
			// Compare the JSON of each member, and the size first so a
			// failure says something short.
			if len(got[0]) != len(want) {
				t.Fatalf("front has %d members, want %d", len(got[0]), len(want))
			}
			var wantJSON, gotJSON []string
			for i := range want {
				wantJSON = append(wantJSON, string(want[i].JSON))
				gotJSON = append(gotJSON, string(got[0][i].JSON))
			}
			if diff := cmp.Diff(wantJSON, gotJSON); diff != "" {
				t.Errorf("front (-want +got):\n%s", diff)
			}
			t.Logf("pool %d, front %d", len(pool), len(want))
		})
	}
}

// TestParetoFrontEmptyPool checks that an empty pool gives one, empty,
// front.
func TestParetoFrontEmptyPool(t *testing.T) {
	got := runFront(t, poolObjectives[2], func(s beam.Scope) beam.PCollection {
		return beam.CreateList(s, []Item{})
	})
	if len(got) != 1 || len(got[0]) != 0 {
		t.Fatalf("got %v, want one empty front", got)
	}
}

// TestParetoFrontBadCandidate checks that a pipeline fed a candidate
// without a value for an objective fails and names where it was read.
func TestParetoFrontBadCandidate(t *testing.T) {
	objs := poolObjectives[2]
	items := []Item{
		{Source: "pool.jsonl", Index: 1, JSON: candJSON(t, "ok", map[string]float64{"throughput_per_gpu": 1, "e2e_latency": 2})},
		{Source: "pool.jsonl", Index: 2, JSON: []byte(`{"config":{},"used_gpus":0,"score":0,"metrics":null,"objectives":{"e2e_latency":3}}`)},
	}
	p, s := beam.NewPipelineWithRoot()
	ParetoFront(s, beam.CreateList(s, items), objs)
	err := ptest.Run(p)
	if err == nil || !strings.Contains(err.Error(), "pool.jsonl:2") || !strings.Contains(err.Error(), "throughput_per_gpu") {
		t.Fatalf("err = %v, want a failure naming pool.jsonl:2 and throughput_per_gpu", err)
	}
}

func TestTryParetoFrontBadObjectives(t *testing.T) {
	for _, objs := range [][]spica.OptimizationTarget{
		nil,
		{spica.TargetE2ELatency, spica.TargetE2ELatency},
		{spica.TargetThroughput, spica.TargetPareto},
	} {
		p, s := beam.NewPipelineWithRoot()
		_, err := TryParetoFront(s, beam.CreateList(s, []Item{}), objs)
		if !errors.Is(err, spica.ErrInvalidParetoObjectives) {
			t.Errorf("TryParetoFront(%v) err = %v, want one wrapping ErrInvalidParetoObjectives", objs, err)
		}
		_ = p
	}
}

// TestCandidatesReadPythonTokens reads a line as Python's json module
// writes it, with bare NaN and Infinity, and keeps its bytes.
func TestCandidatesReadPythonTokens(t *testing.T) {
	line := `{"config": {"tp": 2}, "used_gpus": 2, "score": NaN, "metrics": {}, "objectives": {"throughput": NaN, "e2e_latency": Infinity}}`
	items := []Item{{Source: "py.jsonl", Index: 1, JSON: []byte(line)}}
	got, err := Candidates(items)
	if err != nil {
		t.Fatal(err)
	}
	c := got[0]
	if c.UsedGPUs != 2 || !math.IsNaN(c.Score) || !math.IsNaN(c.Objectives["throughput"]) || !math.IsInf(c.Objectives["e2e_latency"], 1) {
		t.Errorf("decoded %+v, want used_gpus 2, score NaN, throughput NaN, e2e_latency +Inf", c)
	}
	if string(items[0].JSON) != line {
		t.Errorf("item's bytes changed to %s", items[0].JSON)
	}
	if _, err := Candidates([]Item{{Source: "bad.jsonl", Index: 3, JSON: []byte(`{"score": NaNa}`)}}); err == nil || !strings.Contains(err.Error(), "bad.jsonl:3") {
		t.Errorf("malformed line: err = %v, want one naming bad.jsonl:3", err)
	}
}

// TestAddInputNamesTheLineNotCandidate0 is issue 26's defect 7, Beam item:
// a candidate without a value was reported as "candidate 0" whatever its
// line, since the check asks the library about a list of one. The error
// names the item's place, and the spica error inside it the field.
func TestAddInputNamesTheLineNotCandidate0(t *testing.T) {
	fn := &frontFn{Objectives: poolObjectives[2]}
	for _, index := range []int64{2, 5} {
		it := Item{Source: "pool.jsonl", Index: index, JSON: []byte(`{"objectives":{"e2e_latency":3}}`)}
		_, err := fn.AddInput(fn.CreateAccumulator(), it)
		var e *spica.Error
		if !errors.As(err, &e) || !errors.Is(err, spica.ErrInvalidCandidate) || e.Path != "objectives.throughput_per_gpu" {
			t.Fatalf("line %d: %v (%#v); want ErrInvalidCandidate at objectives.throughput_per_gpu", index, err, e)
		}
		if msg := err.Error(); !strings.Contains(msg, fmt.Sprintf("pool.jsonl:%d", index)) || strings.Contains(msg, "candidate 0") {
			t.Errorf("line %d: %q, want it to name pool.jsonl:%d and not candidate 0", index, msg, index)
		}
	}
}

// TestCandidatesRejectBareNaNInConfig is defect 7's other Beam item: a
// line with a bare NaN in its config was read through NormalizeJSON, which
// turned it into the string "NaN", where the library rejects the line (a
// config is standard JSON, read as encoding/json reads it). Beam agrees
// with spica.Candidate.UnmarshalJSON on such lines, and still reads bare
// tokens where floats are expected.
func TestCandidatesRejectBareNaNInConfig(t *testing.T) {
	for _, line := range []string{
		`{"config": {"tp": NaN}, "used_gpus": 1, "score": 1}`,
		`{"config": {"tp": [1, -Infinity]}, "used_gpus": 1, "score": 1}`,
	} {
		var c spica.Candidate
		libErr := c.UnmarshalJSON([]byte(line))
		if !errors.Is(libErr, spica.ErrInvalidCandidate) {
			t.Fatalf("the library accepts %s: %+v, %v", line, c, libErr)
		}
		got, err := Candidates([]Item{{Source: "py.jsonl", Index: 4, JSON: []byte(line)}})
		if !errors.Is(err, spica.ErrInvalidCandidate) || !strings.Contains(err.Error(), "py.jsonl:4") {
			t.Errorf("%s: %+v, %v; want an error at py.jsonl:4 wrapping ErrInvalidCandidate, as the library's %v", line, got, err, libErr)
		}
	}
}
