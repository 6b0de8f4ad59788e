// Package bench reads the outputs of the serving benchmark clients people
// already run — vLLM's `vllm bench serve --save-result`, SGLang's
// bench_serving, NVIDIA AIPerf and GenAI-Perf, LLMPerf and trtllm-bench —
// into [spica.Report]s, so that every goal, rank and Pareto front of
// package spica works on them unchanged, the way image/png decodes into
// an image.Image.
//
// Each client names, scales and defines its metrics its own way: seconds
// or milliseconds, "tokens/s per user" as a mean of per-gap rates, a
// reciprocal of mean TPOT or tokens over the whole latency, goodput in
// requests/s. A [Run] holds the report in spica's keys and units, a Meta
// map ready to be a candidate's config, and Notes that say how each key
// was obtained and why any is missing:
//
//	runs, err := bench.ReadFiles("results/tp4/*.json", bench.Options{GPUs: 4})
//	...
//	for _, run := range runs {
//		c, err := spica.MakeCandidate(run.Meta, run.Report, goal)
//		...
//	}
//
// The rules every reader follows (SPEC §13):
//
//   - Times are milliseconds, rates tokens/s. With a GPU count
//     (Options.GPUs, or trtllm-bench's world size),
//     gpu_hours = GPUs × duration_ms / 3 600 000, so spica.AvgGPU is that
//     count, and Meta["used_gpus"] holds it. Without one the per-GPU
//     targets have nothing to divide by: a note says so.
//   - The per-user rate (mean_output_token_throughput_per_user) is the
//     replay's definition — the mean over every positive inter-token gap of
//     1000/gap_ms — when the document holds per-token gaps; else the tool's
//     own per-user figure when it measures the generation phase; else
//     1000 / mean_tpot_ms. A note names which.
//   - A run in which no request completed keeps its counts, has throughput
//     0, and has no latency or per-user key (so e2e_latency scores it
//     worst), never the 0 ms latencies some tools write then.
//   - goodput_output_throughput_tok_s is computed only from per-request
//     records and only under Options.SLA; a requests/s goodput is never
//     turned into tokens/s.
//   - No statistic stands in for another: a missing mean is a missing key,
//     never its median.
//
// Input may hold Python's bare NaN, Infinity and -Infinity, numbers and
// "inf"/"nan" written as strings, null statistics, keys no reader knows,
// and JSON lines with blank lines. Errors are [*spica.Error]s: a value that
// must be a number and is not names the tool's key as Path with its byte
// offset and wraps spica.ErrInvalidReport; a bad line of JSON lines is
// named in the message. No input makes a function of this package panic.
//
// The package parses JSON in one pass into a flat list of nodes pointing
// into the input, never into map[string]any: reading a result file costs
// less than encoding/json's generic decoding of the same bytes.
package bench
