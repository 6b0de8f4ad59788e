// Package spica decides what "better" means when a search sweeps
// LLM-serving deployment configurations.
//
// A search orchestrator replays a workload against each candidate
// configuration (engine parallelism, batching, planner policy, …) and gets
// one report of metrics per candidate. This package turns those reports into
// scores, ranks candidates for a scalar goal, and traces the Pareto front
// for a multi-objective goal. It imports only the standard library.
//
// # Goal
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
// The SLA ([SLATarget]: ttft_ms with itl_ms, or e2e_ms) is not a feasibility
// gate: the replay counts only the requests that meet it into the goodput
// metric, so the goodput targets require one and no other target reads it.
// The only feasibility rule is the GPU budget, [IsFeasible].
//
// # Report
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
// # Score or vector
//
// For a scalar goal, [ObjectiveValue] is the raw value in natural units and
// [ScoreReport] is the score, negated for e2e_latency so that higher is
// always better. For a pareto goal, [ObjectiveVector] gives one raw value per
// objective. [MakeCandidate] bundles either with the configuration and the
// GPUs it uses into a [Candidate].
//
// # Rank or front
//
// [Rank] orders candidates of a scalar goal: best score first, ties toward
// fewer GPUs, then input order, NaN last. [ParetoFront] returns the
// candidates of a pareto goal that no other candidate dominates, sorted by
// the last objective (the x-axis of the usual tokens/s per GPU against
// tokens/s per user plot). NaN is worse than every number in every
// direction, so both orders are total and deterministic. The front is
// mergeable, and [NonDominated] is the engine underneath, on a plain
// row-major matrix, for pools of millions of candidates.
//
// # Beyond the front
//
// A search needs more than the front, and the same conventions hold (a
// row-major matrix of n rows by dims columns, one direction per column, NaN
// worst):
//
//   - [NonDominatedSort] and [ParetoLayers] give non-domination layers, the
//     best N configurations when the front alone has fewer;
//     [CrowdingDistance] breaks ties within a layer toward spread;
//   - [Hypervolume] measures the region a front dominates up to a reference
//     point, the standard convergence curve of a multi-objective search
//     round by round, and [HypervolumeContributions] what each row adds;
//   - [BestSubjectTo] answers "the best tokens/s per GPU at >= 50 tokens/s
//     per user";
//   - [ParetoArchive] keeps the running front of a sweep whose evaluators
//     add candidates concurrently.
//
// # Errors
//
// Every error wraps one of the package's sentinels, such as
// [ErrUnknownTarget] or [ErrSLARequired], for [errors.Is], and its message
// names the field, key or value at fault. No function panics on bad input,
// and none modifies its arguments.
package spica
