package spica_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/spica-search/spica"
)

// The example sweep as the matrix the matrix functions take: one row per
// candidate, the resolved pareto objectives of the default goal as
// columns. By hand from the reports (avg_gpu = gpu_hours over the hours the
// run lasted, here one): tp1 1200/1 = 1200 tok/s/gpu at 60 tok/s/user, tp2
// 3000/2 = 1500 at 45, tp4 4800/4 = 1200 at 80, tp8 6400/8 = 800 at 95,
// autoscaled 2400/3 = 800 at 40. tp4 dominates tp1 (same per GPU, more per
// user) and tp1 the autoscaled run, so the front is rows 1, 2 and 3.
func ExampleObjectiveMatrix() {
	goal := spica.OptimizationGoal{Target: spica.TargetPareto}
	cands := candidates(goal)
	values, maximize, err := spica.ObjectiveMatrix(cands, goal.ResolvedParetoObjectives())
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, c := range cands {
		fmt.Println(c.Config["name"], values[2*i:2*i+2])
	}
	fmt.Println("maximize:", maximize)
	front, err := spica.NonDominated(values, 2, maximize)
	fmt.Println("front rows:", front, err)
	// Output:
	// tp1 [1200 60]
	// tp2 [1500 45]
	// tp4 [1200 80]
	// tp8 [800 95]
	// autoscaled [800 40]
	// maximize: [true true]
	// front rows: [1 2 3] <nil>
}

// A caller branches on the sentinel with errors.Is and shows the user where
// the fault is with errors.As. The bound -5 starts at byte 40 of the
// document: `{"target": "goodput", "sla": {"e2e_ms": ` is 40 bytes.
func ExampleError() {
	_, err := spica.ParseGoal([]byte(`{"target": "goodput", "sla": {"e2e_ms": -5}}`))
	var e *spica.Error
	if errors.As(err, &e) {
		fmt.Println("invalid SLA:", errors.Is(err, spica.ErrInvalidSLA))
		fmt.Println("path:", e.Path)
		fmt.Println("offset:", e.Offset)
		fmt.Println("msg:", e.Msg)
	}
	fmt.Println(err)
	// Output:
	// invalid SLA: true
	// path: sla.e2e_ms
	// offset: 40
	// msg: is -5, want a finite number > 0 (or unset)
	// spica: sla.e2e_ms: is -5, want a finite number > 0 (or unset) (at byte 40)
}

// A YAML library calls UnmarshalYAML with a function that decodes the goal's
// node; here that function hands over the tree gopkg.in/yaml.v3 builds for
//
//	target: goodput
//	sla: {ttft_ms: 500, itl_ms: 50}
//
// which yamlv3.Unmarshal(data, &cfg) does for a goal field of cfg (the
// interop module runs the real library). The same rules as JSON apply: a
// misspelled key is an error naming it, with no byte offset (-1), since
// only the library knows the lines.
func ExampleOptimizationGoal_UnmarshalYAML() {
	yamlNode := func(tree map[string]any) func(any) error {
		return func(v any) error {
			p, ok := v.(*any)
			if !ok {
				return fmt.Errorf("this stand-in decodes into *any only, not %T", v)
			}
			*p = tree
			return nil
		}
	}
	var g spica.OptimizationGoal
	err := g.UnmarshalYAML(yamlNode(map[string]any{"target": "goodput", "sla": map[string]any{"ttft_ms": 500, "itl_ms": 50}}))
	fmt.Println(g.Target, g.SLA.TTFTMs, g.SLA.ITLMs, err)

	err = g.UnmarshalYAML(yamlNode(map[string]any{"target": "goodput", "sla": map[string]any{"ttft": 500}}))
	var e *spica.Error
	if errors.As(err, &e) {
		fmt.Println(errors.Is(err, spica.ErrUnknownField), e.Path, e.Offset)
	}
	// Output:
	// goodput 500 50 <nil>
	// true sla.ttft -1
}

// MarshalYAML returns the value a YAML library writes: the keys of the JSON
// encoding, here printed as JSON; an unset SLA and a nil objective list are
// left out.
func ExampleOptimizationGoal_MarshalYAML() {
	for _, g := range []spica.OptimizationGoal{
		{Target: spica.TargetGoodput, SLA: spica.SLATarget{TTFTMs: 500, ITLMs: 50}},
		{Target: spica.TargetPareto, ParetoObjectives: []spica.OptimizationTarget{spica.TargetThroughputPerGPU, spica.TargetE2ELatency}},
	} {
		v, err := g.MarshalYAML()
		if err != nil {
			fmt.Println(err)
			continue
		}
		data, err := json.Marshal(v)
		fmt.Println(string(data), err)
	}
	// Output:
	// {"target":"goodput","sla":{"ttft_ms":500,"itl_ms":50}} <nil>
	// {"target":"pareto","pareto_objectives":["throughput_per_gpu","e2e_latency"]} <nil>
}

// A candidate encodes with its keys in snake case, a non-finite float as
// the string Python's float() reads back ("NaN"), and map keys sorted as
// encoding/json sorts them; decoding gives it back, NaN included. A
// negative GPU count would not decode, so it does not encode.
func ExampleCandidate_MarshalJSON() {
	c := spica.Candidate{
		Config:     map[string]any{"tp": 2},
		UsedGPUs:   2,
		Score:      1500,
		Metrics:    map[string]float64{"gpu_hours": 2},
		Objectives: map[string]float64{"throughput_per_gpu": 1500, "e2e_latency": math.NaN()},
	}
	data, err := json.Marshal(c)
	fmt.Println(string(data), err)

	var back spica.Candidate
	err = json.Unmarshal(data, &back)
	fmt.Println(back.UsedGPUs, back.Score, back.Objectives["throughput_per_gpu"], math.IsNaN(back.Objectives["e2e_latency"]), err)

	_, err = json.Marshal(spica.Candidate{UsedGPUs: -1})
	fmt.Println(err)
	// Output:
	// {"config":{"tp":2},"used_gpus":2,"score":1500,"metrics":{"gpu_hours":2},"objectives":{"e2e_latency":"NaN","throughput_per_gpu":1500}} <nil>
	// 2 1500 1500 true <nil>
	// json: error calling MarshalJSON for type spica.Candidate: spica: used_gpus: is -1, want a non-negative integer
}

// Decoding a candidate Python wrote: the bare NaN token is read where a
// float is expected (called directly; through encoding/json, pass the line
// through NormalizeJSON first), and a failed run's null score is an error
// naming the field rather than a 0 that would rank first. The null starts
// at byte 47: `{"config": {"tp": 2}, "used_gpus": 2, "score": ` is 47
// bytes.
func ExampleCandidate_UnmarshalJSON() {
	var c spica.Candidate
	err := c.UnmarshalJSON([]byte(`{"config": {"tp": 2}, "used_gpus": 2, "score": 3.5, "metrics": {"mean_e2e_latency_ms": NaN}}`))
	fmt.Println(c.Config["tp"], c.UsedGPUs, c.Score, math.IsNaN(c.Metrics["mean_e2e_latency_ms"]), err)

	err = c.UnmarshalJSON([]byte(`{"config": {"tp": 2}, "used_gpus": 2, "score": null}`))
	fmt.Println(errors.Is(err, spica.ErrInvalidCandidate), err)
	// Output:
	// 2 2 3.5 true <nil>
	// true spica: score: is null, want a number (at byte 47)
}
