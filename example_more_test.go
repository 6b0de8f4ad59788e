package spica_test

import (
	"flag"
	"fmt"
	"log/slog"
	"os"

	"github.com/spica-search/spica"
)

// tp2's report from the example sweep: 3000 tok/s on 2 GPUs for an hour
// (2 GPU-hours over 3 600 000 ms), 45 tok/s per user, 1800 ms end to end.
const tp2Report = `{"output_throughput_tok_s": 3000, "mean_output_token_throughput_per_user": 45,
  "mean_e2e_latency_ms": 1800, "gpu_hours": 2, "duration_ms": 3600000}`

// Raw values, in each target's units and unsigned: 3000 / avg_gpu 2 = 1500
// tok/s/gpu; the latency as written; goodput has no key in this report, and
// a maximized target reads 0 when its key is missing.
func ExampleObjectiveValue() {
	r, err := spica.ParseReport([]byte(tp2Report))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range []spica.OptimizationTarget{spica.TargetThroughputPerGPU, spica.TargetE2ELatency, spica.TargetGoodput} {
		v, err := spica.ObjectiveValue(r, t)
		fmt.Println(t, v, err)
	}
	_, err = spica.ObjectiveValue(r, spica.TargetPareto)
	fmt.Println(err)
	// Output:
	// throughput_per_gpu 1500 <nil>
	// e2e_latency 1800 <nil>
	// goodput 0 <nil>
	// spica: pareto is multi-objective; use ObjectiveVector or ParetoFront
}

// One value per objective, keyed by name, as a pareto candidate carries
// them: 1500 tok/s/gpu (3000 / 2) and 45 tok/s/user.
func ExampleObjectiveVector() {
	r, err := spica.ParseReport([]byte(tp2Report))
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := spica.ObjectiveVector(r, spica.DefaultParetoObjectives())
	fmt.Println(v, err)
	// Output:
	// map[throughput_per_gpu:1500 throughput_per_user:45] <nil>
}

// The one feasibility rule: the GPUs used fit the budget.
func ExampleIsFeasible() {
	fmt.Println(spica.IsFeasible(8, 8), spica.IsFeasible(9, 8))
	// Output:
	// true false
}

// The report keys the package reads, and the targets in canonical order
// with their directions.
func ExampleTargets() {
	fmt.Println(spica.MetricKeys())
	for _, t := range spica.Targets() {
		maximize, err := t.Maximize()
		fmt.Println(t, maximize, t.NeedsSLA(), err)
	}
	// Output:
	// [output_throughput_tok_s mean_ttft_ms mean_tpot_ms mean_e2e_latency_ms mean_output_token_throughput_per_user goodput_output_throughput_tok_s gpu_hours duration_ms planner_total_ticks]
	// throughput true false <nil>
	// throughput_per_gpu true false <nil>
	// throughput_per_user true false <nil>
	// e2e_latency false false <nil>
	// goodput true true <nil>
	// goodput_per_gpu true true <nil>
	// pareto false false spica: pareto optimizes one direction per objective
}

// A target is a flag value through flag.TextVar, by its text form
// (UnmarshalText and MarshalText); an unknown name is refused with the
// valid ones.
func ExampleOptimizationTarget_UnmarshalText() {
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	fs.SetOutput(os.Stdout)
	var target spica.OptimizationTarget
	fs.TextVar(&target, "target", spica.TargetThroughput, "what to optimize")
	err := fs.Parse([]string{"-target", "goodput_per_gpu"})
	text, _ := target.MarshalText()
	fmt.Println(string(text), target.IsValid(), err)
	// Output:
	// goodput_per_gpu true <nil>
}

// An SLA is satisfying with the end-to-end bound alone, or with both the
// time to first token and the inter-token latency; a bound of 0 is unset,
// a negative one invalid.
func ExampleSLATarget_Satisfying() {
	for _, s := range []spica.SLATarget{{}, {E2EMs: 2000}, {TTFTMs: 500}, {TTFTMs: 500, ITLMs: 50}, {E2EMs: -1}} {
		fmt.Println(s.IsZero(), s.Satisfying(), s.Validate())
	}
	// Output:
	// true false <nil>
	// false true <nil>
	// false false <nil>
	// false true <nil>
	// false false spica: e2e_ms: is -1, want a finite number > 0 (or unset)
}

// Validate checks a goal built in code as ParseGoal checks one read from a
// file; the effective objectives are what it optimizes.
func ExampleOptimizationGoal_Validate() {
	g := spica.OptimizationGoal{Target: spica.TargetPareto, ParetoObjectives: []spica.OptimizationTarget{spica.TargetGoodputPerGPU, spica.TargetE2ELatency}}
	fmt.Println(g.IsPareto(), g.EffectiveObjectives(), g.NeedsSLA(), g.Validate())
	g.SLA = spica.SLATarget{E2EMs: 2000}
	fmt.Println(g.Validate())
	// Output:
	// true [goodput_per_gpu e2e_latency] true spica: sla: [goodput_per_gpu] require an SLA target (ttft_ms+itl_ms or e2e_ms)
	// <nil>
}

// A goal logs as a group: its target, the resolved objectives of a pareto
// goal, and the SLA bounds that are set (the time attribute is dropped
// here so that the output is fixed).
func ExampleOptimizationGoal_LogValue() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{}
			}
			return a
		},
	}))
	g := spica.OptimizationGoal{Target: spica.TargetPareto, SLA: spica.SLATarget{E2EMs: 2000}}
	logger.Info("search", "goal", g)
	// Output:
	// level=INFO msg=search goal.target=pareto goal.pareto_objectives="[throughput_per_gpu throughput_per_user]" goal.sla.e2e_ms=2000
}

// DeepCopy gives a goal whose objective list is its own.
func ExampleOptimizationGoal_DeepCopy() {
	g := &spica.OptimizationGoal{Target: spica.TargetPareto, ParetoObjectives: []spica.OptimizationTarget{spica.TargetThroughput, spica.TargetE2ELatency}}
	c := g.DeepCopy()
	c.ParetoObjectives[0] = spica.TargetGoodput
	fmt.Println(g.ParetoObjectives, c.ParetoObjectives)
	// Output:
	// [throughput e2e_latency] [goodput e2e_latency]
}
