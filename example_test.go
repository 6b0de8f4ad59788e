package spica_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/spica-search/spica"
)

// sweep is what a search orchestrator holds after replaying a workload
// against five deployment configurations for one hour each (duration_ms =
// 3 600 000), so avg_gpu equals gpu_hours. "autoscaled" provisioned between
// 2 and 4 GPUs, 3 on average.
var sweep = []struct {
	config string
	report string
}{
	{`{"name": "tp1", "used_gpus": 1}`, `{"output_throughput_tok_s": 1200, "mean_output_token_throughput_per_user": 60,
	  "mean_e2e_latency_ms": 2100, "gpu_hours": 1, "duration_ms": 3600000, "num_requests": 512}`},
	{`{"name": "tp2", "used_gpus": 2}`, `{"output_throughput_tok_s": 3000, "mean_output_token_throughput_per_user": 45,
	  "mean_e2e_latency_ms": 1800, "gpu_hours": 2, "duration_ms": 3600000, "num_requests": 512}`},
	{`{"name": "tp4", "used_gpus": 4}`, `{"output_throughput_tok_s": 4800, "mean_output_token_throughput_per_user": 80,
	  "mean_e2e_latency_ms": 1200, "gpu_hours": 4, "duration_ms": 3600000, "num_requests": 512}`},
	{`{"name": "tp8", "used_gpus": 8}`, `{"output_throughput_tok_s": 6400, "mean_output_token_throughput_per_user": 95,
	  "mean_e2e_latency_ms": 900, "gpu_hours": 8, "duration_ms": 3600000, "num_requests": 512}`},
	{`{"name": "autoscaled", "used_gpus": 4}`, `{"output_throughput_tok_s": 2400, "mean_output_token_throughput_per_user": 40,
	  "mean_e2e_latency_ms": NaN, "gpu_hours": 3, "duration_ms": 3600000, "num_requests": 512}`},
}

// candidates scores the sweep under goal, as an orchestrator would.
func candidates(goal spica.OptimizationGoal) []spica.Candidate {
	var cands []spica.Candidate
	for _, s := range sweep {
		var config map[string]any
		if err := json.Unmarshal([]byte(s.config), &config); err != nil {
			panic(err)
		}
		report, err := spica.ParseReport([]byte(s.report))
		if err != nil {
			panic(err)
		}
		c, err := spica.MakeCandidate(config, report, goal)
		if err != nil {
			panic(err)
		}
		cands = append(cands, c)
	}
	return cands
}

// TestExampleSweep is the README's first command: under
// `go test -run Example -v .` it shows the library's main job on the sweep
// above, the ranking for a scalar goal and the front for the default pareto
// goal, and checks both against numbers worked out by hand from the reports.
func TestExampleSweep(t *testing.T) {
	var b strings.Builder
	for _, target := range []string{"throughput_per_gpu", "e2e_latency"} {
		goal, err := spica.ParseGoal([]byte(`{"target": "` + target + `"}`))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "ranked by %s (score: higher is better):\n", goal.Target)
		for i, c := range spica.Rank(candidates(goal)) {
			fmt.Fprintf(&b, "  %d. %-10s score %6.0f  GPUs %d\n", i+1, c.Config["name"], c.Score, c.UsedGPUs)
		}
	}
	goal := spica.OptimizationGoal{Target: spica.TargetPareto}
	front, err := spica.ParetoFront(candidates(goal), goal.ResolvedParetoObjectives())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "Pareto front of %v, left to right:\n", goal.ResolvedParetoObjectives())
	for _, c := range front {
		fmt.Fprintf(&b, "  %-4s %4.0f tok/s/gpu  %2.0f tok/s/user\n", c.Config["name"], c.Objectives["throughput_per_gpu"], c.Objectives["throughput_per_user"])
	}
	t.Log("\n" + b.String())

	// By hand: tok/s/gpu = throughput / gpu_hours (each run lasts an hour);
	// the autoscaled report's NaN latency scores NaN and ranks last.
	const want = `ranked by throughput_per_gpu (score: higher is better):
  1. tp2        score   1500  GPUs 2
  2. tp1        score   1200  GPUs 1
  3. tp4        score   1200  GPUs 4
  4. autoscaled score    800  GPUs 4
  5. tp8        score    800  GPUs 8
ranked by e2e_latency (score: higher is better):
  1. tp8        score   -900  GPUs 8
  2. tp4        score  -1200  GPUs 4
  3. tp2        score  -1800  GPUs 2
  4. tp1        score  -2100  GPUs 1
  5. autoscaled score    NaN  GPUs 4
Pareto front of [throughput_per_gpu throughput_per_user], left to right:
  tp2  1500 tok/s/gpu  45 tok/s/user
  tp4  1200 tok/s/gpu  80 tok/s/user
  tp8   800 tok/s/gpu  95 tok/s/user
`
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// The per-GPU ranking of the sweep: tp1 and tp4 both make 1200 tok/s/gpu,
// and the tie goes to the one using fewer GPUs.
func ExampleRank() {
	goal, err := spica.ParseGoal([]byte(`{"target": "throughput_per_gpu"}`))
	if err != nil {
		panic(err)
	}
	for i, c := range spica.Rank(candidates(goal)) {
		fmt.Printf("%d. %-10s %4.0f tok/s/gpu on %d GPUs\n", i+1, c.Config["name"], c.Score, c.UsedGPUs)
	}
	// Output:
	// 1. tp2        1500 tok/s/gpu on 2 GPUs
	// 2. tp1        1200 tok/s/gpu on 1 GPUs
	// 3. tp4        1200 tok/s/gpu on 4 GPUs
	// 4. autoscaled  800 tok/s/gpu on 4 GPUs
	// 5. tp8         800 tok/s/gpu on 8 GPUs
}

// The default pareto goal traces tokens/s per GPU against tokens/s per user.
// tp1 is dominated by tp4 (same 1200 tok/s/gpu, more tok/s/user) and the
// autoscaled run by tp2; the front reads left to right along tok/s/user.
func ExampleParetoFront() {
	goal, err := spica.ParseGoal([]byte(`{"target": "pareto"}`))
	if err != nil {
		panic(err)
	}
	front, err := spica.ParetoFront(candidates(goal), goal.ResolvedParetoObjectives())
	if err != nil {
		panic(err)
	}
	for _, c := range front {
		fmt.Printf("%-4s %4.0f tok/s/gpu at %2.0f tok/s/user\n",
			c.Config["name"], c.Objectives["throughput_per_gpu"], c.Objectives["throughput_per_user"])
	}
	// Output:
	// tp2  1500 tok/s/gpu at 45 tok/s/user
	// tp4  1200 tok/s/gpu at 80 tok/s/user
	// tp8   800 tok/s/gpu at 95 tok/s/user
}

func ExampleParseGoal() {
	goal, err := spica.ParseGoal([]byte(`{"target": "goodput", "sla": {"ttft_ms": 500, "itl_ms": 50}}`))
	fmt.Println(goal.Target, goal.SLA.TTFTMs, goal.SLA.ITLMs, goal.PlannerOptimizationTarget(), err)

	// The goal block is optional.
	goal, err = spica.ParseGoal(nil)
	fmt.Println(goal.Target, err)

	// Goodput without a satisfying SLA is refused.
	_, err = spica.ParseGoal([]byte(`{"target": "goodput", "sla": {"ttft_ms": 500}}`))
	fmt.Println(errors.Is(err, spica.ErrSLARequired), err)

	// A misspelled key is an error, not a silent default; the error says
	// where, for a service to point its user at the field.
	_, err = spica.ParseGoal([]byte(`{"Target": "e2e_latency"}`))
	var e *spica.Error
	fmt.Println(errors.Is(err, spica.ErrUnknownField), errors.As(err, &e), e.Path, e.Offset)
	// Output:
	// goodput 500 50 sla <nil>
	// throughput <nil>
	// true spica: sla: [goodput] require an SLA target (ttft_ms+itl_ms or e2e_ms)
	// true true Target 1
}

// A 2-GPU deployment measured for 2 s: gpu_hours = 2·2/3600, so avg_gpu = 2
// and 200 tok/s is 100 tok/s/gpu. Latency is minimized, so its score is
// negated; a report without latency scores -Inf, never best.
func ExampleScoreReport() {
	report := spica.Report{
		spica.MetricOutputThroughput: 200,
		spica.MetricMeanE2ELatency:   850,
		spica.MetricGPUHours:         2.0 * 2 / 3600,
		spica.MetricDurationMs:       2000,
	}
	for _, t := range []spica.OptimizationTarget{spica.TargetThroughput, spica.TargetThroughputPerGPU, spica.TargetE2ELatency} {
		score, _ := spica.ScoreReport(report, t)
		fmt.Println(t, score)
	}
	score, _ := spica.ScoreReport(spica.Report{}, spica.TargetE2ELatency)
	fmt.Println("no latency:", score)
	// Output:
	// throughput 200
	// throughput_per_gpu 100
	// e2e_latency -850
	// no latency: -Inf
}

func ExampleMakeCandidate() {
	report, err := spica.ParseReport([]byte(`{"output_throughput_tok_s": 3000, "mean_output_token_throughput_per_user": 45,
		"gpu_hours": 2, "duration_ms": 3600000, "engine": "vllm"}`))
	if err != nil {
		panic(err)
	}
	config := map[string]any{"tp": 2, "used_gpus": 2.0} // 2.0 as encoding/json decodes it
	goal := spica.OptimizationGoal{Target: spica.TargetPareto}
	c, err := spica.MakeCandidate(config, report, goal)
	if err != nil {
		panic(err)
	}
	fmt.Println(c.UsedGPUs, c.Score, c.Objectives)
	fmt.Println(c.Metrics)
	// Output:
	// 2 1500 map[throughput_per_gpu:1500 throughput_per_user:45]
	// map[duration_ms:3.6e+06 gpu_hours:2 mean_output_token_throughput_per_user:45 output_throughput_tok_s:3000]
}

// Python's json module writes NaN and Infinity as bare tokens; they are read
// as those values, and keys the package does not read may hold anything.
func ExampleParseReport() {
	r, err := spica.ParseReport([]byte(`{"mean_e2e_latency_ms": NaN, "duration_ms": Infinity, "engine": {"name": "sglang"}}`))
	fmt.Println(r, err)
	_, err = spica.ParseReport([]byte(`{"gpu_hours": "2"}`))
	fmt.Println(err)
	// Output:
	// map[duration_ms:+Inf mean_e2e_latency_ms:NaN] <nil>
	// spica: gpu_hours: must be a number or null, got a string (at byte 14)
}

func ExampleAvgGPU() {
	// An autoscaled run of 30 minutes that provisioned 1.5 GPU-hours.
	fmt.Println(spica.AvgGPU(spica.Report{spica.MetricGPUHours: 1.5, spica.MetricDurationMs: 1_800_000}))
	fmt.Println(spica.AvgGPU(spica.Report{spica.MetricGPUHours: 1.5})) // no duration
	// Output:
	// 3
	// 0
}

func ExampleDominates() {
	objs := spica.DefaultParetoObjectives()
	a := map[string]float64{"throughput_per_gpu": 1200, "throughput_per_user": 80}
	b := map[string]float64{"throughput_per_gpu": 1200, "throughput_per_user": 60}
	ab, _ := spica.Dominates(a, b, objs)
	ba, _ := spica.Dominates(b, a, objs)
	aa, _ := spica.Dominates(a, a, objs)
	fmt.Println(ab, ba, aa)
	// Output: true false false
}

// NonDominated works on a plain row-major matrix: here tokens/s per GPU
// (maximized) against mean end-to-end latency in ms (minimized).
func ExampleNonDominated() {
	values := []float64{
		1500, 1800,
		1200, 1200,
		1200, 1300, // dominated by the row above: same throughput, slower
		800, 900,
		700, 2500, // dominated by every other row
	}
	rows, err := spica.NonDominated(values, 2, []bool{true, false})
	fmt.Println(rows, err)
	// Output: [0 1 3] <nil>
}

func ExampleOptimizationGoal_SamplerObjectives() {
	goal := spica.OptimizationGoal{
		Target:           spica.TargetPareto,
		ParetoObjectives: []spica.OptimizationTarget{spica.TargetGoodputPerGPU, spica.TargetE2ELatency},
		SLA:              spica.SLATarget{E2EMs: 3000},
	}
	objs, err := goal.SamplerObjectives()
	fmt.Println(objs, err)
	// Output: [{goodput_per_gpu true} {e2e_latency false}] <nil>
}

func ExampleParseOptimizationTarget() {
	t, err := spica.ParseOptimizationTarget("e2e_latency")
	fmt.Println(t, t.PlannerOptimizationTarget(), err)
	_, err = spica.ParseOptimizationTarget("latency")
	fmt.Println(err)
	// Output:
	// e2e_latency latency <nil>
	// spica: unknown target "latency" (valid: throughput, throughput_per_gpu, throughput_per_user, e2e_latency, goodput, goodput_per_gpu, pareto)
}

// The operator's question: the best tokens/s per GPU at no less than 50
// tokens/s per user. tp2 is faster per GPU but too slow per user; tp1 and
// tp4 tie at 1200 tok/s/gpu and the tie goes to fewer GPUs.
func ExampleBestSubjectTo() {
	cands := candidates(spica.OptimizationGoal{Target: spica.TargetPareto})
	best, ok, err := spica.BestSubjectTo(cands, spica.TargetThroughputPerGPU,
		spica.Bound{Target: spica.TargetThroughputPerUser, Value: 50})
	fmt.Println(best.Config["name"], best.Objectives["throughput_per_gpu"], ok, err)
	// Output: tp1 1200 true <nil>
}

// A sweep feeds its candidates to the archive as they are evaluated: tp4
// evicts tp1 (same tok/s/gpu, more tok/s/user) and the autoscaled run is
// refused, being dominated by tp2.
func ExampleParetoArchive() {
	archive, err := spica.NewParetoArchive(spica.DefaultParetoObjectives())
	if err != nil {
		panic(err)
	}
	for _, c := range candidates(spica.OptimizationGoal{Target: spica.TargetPareto}) {
		admitted, err := archive.Add(c)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-10s admitted=%-5v front size %d\n", c.Config["name"], admitted, archive.Len())
	}
	for _, c := range archive.Front() {
		fmt.Print(c.Config["name"], " ")
	}
	fmt.Println()
	// Output:
	// tp1        admitted=true  front size 1
	// tp2        admitted=true  front size 2
	// tp4        admitted=true  front size 2
	// tp8        admitted=true  front size 3
	// autoscaled admitted=false front size 3
	// tp2 tp4 tp8
}

// Beyond the front: the sweep in non-domination layers, for when the best N
// configurations are wanted and the front has fewer. tp1 is dominated only
// by tp4, the autoscaled run also by tp1.
func ExampleParetoLayers() {
	goal := spica.OptimizationGoal{Target: spica.TargetPareto}
	layers, err := spica.ParetoLayers(candidates(goal), goal.ResolvedParetoObjectives())
	if err != nil {
		panic(err)
	}
	for k, layer := range layers {
		fmt.Print("layer ", k, ":")
		for _, c := range layer {
			fmt.Print(" ", c.Config["name"])
		}
		fmt.Println()
	}
	// Output:
	// layer 0: tp2 tp4 tp8
	// layer 1: tp1
	// layer 2: autoscaled
}

func ExampleNonDominatedSort() {
	// Latency (lower is better) and throughput (higher is better).
	values := []float64{
		10, 100,
		20, 150,
		15, 90, // beaten by row 0 on both
		30, 140, // beaten by row 1 on both
		25, 80, // beaten by row 2, itself in layer 1
	}
	layers, err := spica.NonDominatedSort(values, 2, []bool{false, true})
	if err != nil {
		panic(err)
	}
	fmt.Println(layers)
	// Output: [0 0 1 1 2]
}

func ExampleCrowdingDistance() {
	// A front of four rows. The ends of each column are kept at any cost;
	// the middle rows are scored by the room around them, so a selection
	// that prefers larger distances keeps the front spread out. Row 1 gets
	// (4−1)/(8−1) + (9−4)/(9−1), row 2 gets (8−2)/(8−1) + (5−1)/(9−1).
	values := []float64{
		1, 9,
		2, 5,
		4, 4,
		8, 1,
	}
	dist, err := spica.CrowdingDistance(values, 2)
	if err != nil {
		panic(err)
	}
	for _, d := range dist {
		fmt.Printf("%.4f\n", d)
	}
	// Output:
	// +Inf
	// 1.0536
	// 1.3571
	// +Inf
}

// Latency (minimized) against throughput (maximized), measured from the
// worst acceptable point, 100 ms at 10 tokens/s. The third row is dominated
// by the second and adds nothing.
var latencyThroughput = []float64{
	20, 30,
	50, 60,
	60, 40,
}

func ExampleHypervolume() {
	hv, err := spica.Hypervolume(latencyThroughput, 2, []bool{false, true}, []float64{100, 10})
	fmt.Println(hv, err)
	// Output: 3100 <nil>
}

func ExampleHypervolumeContributions() {
	// Removing the second row would uncover part of the third, so the second
	// loses less than the area only the first two rows separate.
	c, err := spica.HypervolumeContributions(latencyThroughput, 2, []bool{false, true}, []float64{100, 10})
	fmt.Println(c, err)
	// Output: [600 1100 0] <nil>
}

// Python's json module writes non-finite floats as bare tokens, which
// encoding/json refuses; NormalizeJSON turns them into strings that
// Report and Candidate read back as the floats, so the record splits with
// encoding/json. Strings are left alone.
func ExampleNormalizeJSON() {
	record := []byte(`{"run": 3, "trace_report": {"mean_e2e_latency_ms": NaN, "duration_ms": Infinity, "note": "NaN stays"}}`)
	norm, err := spica.NormalizeJSON(record)
	fmt.Println(string(norm), err)
	var rec struct {
		Run    int          `json:"run"`
		Report spica.Report `json:"trace_report"`
	}
	err = json.Unmarshal(norm, &rec)
	fmt.Println(rec.Run, rec.Report, err)
	// Output:
	// {"run": 3, "trace_report": {"mean_e2e_latency_ms": "NaN", "duration_ms": "Infinity", "note": "NaN stays"}} <nil>
	// 3 map[duration_ms:+Inf mean_e2e_latency_ms:NaN] <nil>
}

// A service embeds the goal block in its own config and decodes it with
// encoding/json; the goal's rules hold inside it, and a bad field comes back
// as an *Error whose Path and Offset (relative to the goal) point the user
// at it. The package doc shows the YAML version of the same config.
func ExampleOptimizationGoal_UnmarshalJSON() {
	type ServiceConfig struct {
		Name     string                 `json:"name"`
		Goal     spica.OptimizationGoal `json:"goal"`
		Workload string                 `json:"workload"`
	}
	var cfg ServiceConfig
	err := json.Unmarshal([]byte(`{"name": "chat", "workload": "sharegpt",
		"goal": {"target": "pareto", "pareto_objectives": ["throughput_per_gpu", "throughput_per_user", "e2e_latency"]}}`), &cfg)
	fmt.Println(cfg.Name, cfg.Goal.ResolvedParetoObjectives(), err)

	err = json.Unmarshal([]byte(`{"name": "chat", "goal": {"target": "goodput", "sla": {"ttft_ms": 0}}}`), &cfg)
	var e *spica.Error
	if errors.As(err, &e) {
		fmt.Println(e.Path, e.Offset, errors.Is(err, spica.ErrInvalidSLA))
		fmt.Println(err)
	}
	// Output:
	// chat [throughput_per_gpu throughput_per_user e2e_latency] <nil>
	// sla.ttft_ms 41 true
	// spica: sla.ttft_ms: is 0, want a number > 0 (omit the key or use null to leave it unset) (at byte 41)
}

// The front under constraints: of the sweep scored for a scalar goal, the
// runs at >= 50 tok/s/user within 1500 ms (tp4: 80, 1200 ms; tp8: 95,
// 900 ms; tp1 is too slow at 2100 ms, tp2 at 45 tok/s/user, the NaN latency
// of autoscaled meets no bound), then their front, each value read from
// Metrics since the goal was scalar.
func ExampleSubjectTo() {
	goal := spica.OptimizationGoal{Target: spica.TargetThroughputPerGPU}
	kept, err := spica.SubjectTo(candidates(goal),
		spica.Bound{Target: spica.TargetThroughputPerUser, Value: 50},
		spica.Bound{Target: spica.TargetE2ELatency, Value: 1500})
	if err != nil {
		panic(err)
	}
	for _, c := range kept {
		fmt.Printf("%s %4.0f tok/s/gpu %2.0f tok/s/user %4.0f ms\n", c.Config["name"], c.Score,
			c.Metrics[spica.MetricThroughputPerUser], c.Metrics[spica.MetricMeanE2ELatency])
	}
	front, err := spica.ParetoFront(kept, spica.DefaultParetoObjectives())
	for _, c := range front {
		fmt.Print(c.Config["name"], " ")
	}
	fmt.Println(err)
	// Output:
	// tp4 1200 tok/s/gpu 80 tok/s/user 1200 ms
	// tp8  800 tok/s/gpu 95 tok/s/user  900 ms
	// tp4 tp8 <nil>
}
