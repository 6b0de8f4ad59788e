package bench

// readSGLang maps one line of `python -m sglang.bench_serving
// --output-file F.jsonl`, which appends a JSON object per run: the
// 2024 writer (median-only TTFT and ITL, request_rate written as the bare
// token Infinity when unlimited) and the newer ones (tag, server_info,
// total_throughput, a refactored writer's total_input / total_output).
//
// Keys read, in SGLang's units: duration (s), completed, output_throughput
// (tok/s), mean_ttft_ms, mean_tpot_ms, mean_e2e_latency_ms. Older files
// hold only median_ttft_ms: the mean is then left out, with a note, never
// replaced by the median. SGLang counts no failures in its summary, so
// num_requests is known only from the per-request arrays. The per-user
// rate is 1000 / mean_tpot_ms, unless --output-details kept input_lens,
// output_lens, ttfts and itls (seconds): then every key is computed from
// them (end-to-end latency as TTFT + the sum of the gaps, SGLang keeping no
// latency array) and the per-user rate is the replay's mean over every
// positive gap of 1000/gap_ms. NaN statistics (nothing completed) are
// numbers, and with completed 0 the run is a failed one (see [Run]).
//
// Read from the four datacrunch-research/h200-benchmarks outputs in
// bench-samples and FORMATS.md's reading of sgl-project/sglang
// python/sglang/bench_serving.py, whose result dictionary copies vLLM's
// benchmark_serving.py.
func readSGLang(r *reader, obj int) {
	readServing(r, obj, servingKeys{
		e2e:    "mean_e2e_latency_ms",
		e2eHow: "SGLang's older writers keep only medians",
	})
}
