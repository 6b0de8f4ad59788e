// Package spica decides what "better" means when a search sweeps
// LLM-serving deployment configurations.
//
// A search orchestrator replays a workload against each candidate
// configuration (engine parallelism, batching, planner policy, …) and gets
// one report of metrics per candidate. This package turns those reports into
// scores, ranks candidates for a scalar goal, traces the Pareto front for a
// multi-objective goal, follows a sweep's progress, picks the best k
// configurations and draws the result. It imports only the standard library.
// The flow, step by step:
//
// # 1. Goal
//
// An [OptimizationGoal] names a target and, when needed, an SLA:
//
//	{"target": "goodput_per_gpu", "sla": {"ttft_ms": 500, "itl_ms": 50}}
//	{"target": "pareto", "pareto_objectives": ["throughput_per_gpu", "throughput_per_user"]}
//
// The goal block is optional: [ParseGoal] of empty input is the default goal,
// maximize throughput with no SLA, which is also the zero OptimizationGoal.
// Decoding is strict (unknown, case-mismatched and repeated keys are errors)
// because a misspelled key in a sweep's configuration must not silently fall
// back to a default. The seven targets are:
//
//	target               direction  value read from a report
//	throughput           maximize   output_throughput_tok_s
//	throughput_per_gpu   maximize   output_throughput_tok_s / avg_gpu
//	throughput_per_user  maximize   mean_output_token_throughput_per_user
//	e2e_latency          minimize   mean_e2e_latency_ms
//	goodput              maximize   goodput_output_throughput_tok_s       (needs an SLA)
//	goodput_per_gpu      maximize   goodput_output_throughput_tok_s / avg_gpu (needs an SLA)
//	pareto               per objective  one value per objective
//
// In a service the goal is a block of a config file. Embed OptimizationGoal
// in the config struct; it decodes from JSON with encoding/json and from
// YAML with gopkg.in/yaml.v3, gopkg.in/yaml.v2's UnmarshalStrict or
// sigs.k8s.io/yaml's UnmarshalStrict under the same rules (the package imports
// none of them; see [OptimizationGoal.UnmarshalYAML]). The non-strict
// Unmarshal of yaml.v2 and of sigs.k8s.io/yaml fold a repeated key (the last
// value wins) before this package sees the goal, so there "target:
// throughput" then "target: goodput" passes as goodput:
//
//	name: chat
//	workload: sharegpt
//	goal:
//	  target: pareto
//	  pareto_objectives: [throughput_per_gpu, throughput_per_user, e2e_latency]
//
// A bad field comes back as an [*Error] whose Path, relative to the goal (such as
// "sla.ttft_ms" or "pareto_objectives[1]"), the service can show its user.
//
// The SLA ([SLATarget]: ttft_ms with itl_ms, or e2e_ms) is not a feasibility
// gate: the replay counts only the requests that meet it into the goodput
// metric, so the goodput targets require one and no other target reads it.
// The only feasibility rule is the GPU budget, [IsFeasible].
//
// # 2. Reports
//
// A [Report] is the flat JSON object of metrics a replay writes;
// [ParseReport] reads it, including the NaN and Infinity tokens of Python's
// json module. The per-GPU targets divide by the time-averaged number of
// provisioned GPUs,
//
//	avg_gpu = gpu_hours / (duration_ms / 3_600_000)
//
// which is the fixed GPU count of a static deployment and the average over
// startup, serving and drain of an autoscaled one ([AvgGPU]). Missing keys
// are never flattering: a maximized metric reads 0, a missing latency reads
// +Inf, and a per-GPU value is 0 when avg_gpu is 0 (missing gpu_hours or
// duration_ms) and NaN when either is NaN or +Inf.
//
// # 3. Candidates
//
// For a scalar goal, [ObjectiveValue] is the raw value in natural units and
// [ScoreReport] is the score, negated for e2e_latency so that higher is
// always better. For a pareto goal, [ObjectiveVector] gives one raw value per
// objective. [MakeCandidate] bundles either with the configuration and the
// GPUs it uses into a [Candidate]. Every function on candidates reads a
// candidate's value for a target by one rule: its Objectives entry, else the
// value of its Metrics as a report, else an error naming the candidate.
//
// # 4. Rank or front
//
// [Rank] orders candidates of a scalar goal: best score first, ties toward
// fewer GPUs, then input order, NaN last. [ParetoFront] returns the
// candidates of a pareto goal that no other candidate dominates, sorted by
// the last objective (the x-axis of the usual tokens/s per GPU against
// tokens/s per user plot). NaN is worse than every number in every
// direction, so both orders are total and deterministic. The front is
// mergeable, and [NonDominated] is the engine underneath, on a plain
// row-major matrix, for pools of millions of candidates; [ObjectiveMatrix]
// turns candidates into that matrix (n rows by dims columns, one direction
// per column), the input of every function below. [ParetoLayers] and
// [NonDominatedSort] give the layers behind the front, [BestSubjectTo]
// answers "the best tokens/s per GPU at >= 50 tokens/s per user",
// [SubjectTo] keeps the candidates that meet such bounds (so
// ParetoFront(SubjectTo(…)) is the front under constraints), and
// [ParetoArchive] keeps the running front of a sweep whose evaluators add
// candidates concurrently.
//
// # 5. Hypervolume history
//
// [Hypervolume] measures the region the rows dominate up to a reference
// point, the standard yardstick of a multi-objective search;
// [ReferencePoint] places the usual automatic one (a tenth of the front's
// span beyond its worst value in each column, as botorch and Optuna do), and
// [HypervolumeContributions] says what each row adds. With the rows in
// evaluation order, [HypervolumeHistory] is the convergence curve: the
// hypervolume after each evaluation, computed incrementally. A curve that
// has stopped rising says the sweep has stopped finding better trade-offs.
//
// # 6. Pick k
//
// A deployment needs a few configurations, not the whole front. [SelectN]
// keeps the best k by NSGA-II survival (whole layers, then the most
// isolated rows of the next by [CrowdingDistance]), which spreads the choice
// along the front. [HypervolumeSubset] keeps the k whose hypervolume is
// largest, which covers the trade-off best: exactly for two objectives,
// greedily within a factor 1 − 1/e of the best for more.
//
// # 7. Picture
//
// [FrontSVG] draws candidates on two targets as a standalone SVG: the
// dominated ones muted, the front as a staircase in the targets' directions,
// a tooltip on every point, axes in tok/s, tok/s/gpu, tok/s/user or ms.
// [HistorySVG] draws a hypervolume history as a step line. Both write the
// same bytes for the same input, with the standard library only.
//
// # Errors
//
// Every error is an [*Error] that wraps one of the package's sentinels, such
// as [ErrUnknownTarget] or [ErrSLARequired], for [errors.Is], and says where
// the fault is (Path, such as "sla.e2e_ms" or "candidate 3.objectives.e2e_latency")
// and what it is. No function panics on bad input, and none modifies its
// arguments.
package spica
