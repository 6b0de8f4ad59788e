package bench

import (
	"strings"

	"github.com/spica-search/spica"
)

// readLLMPerf maps LLMPerf's {model}_{in}_{out}_summary.json (the
// token_benchmark_ray.py summary, version "2023-08-31" and later): flat
// keys results_<metric>_<stat>, every time in seconds, integer statistics
// sometimes written as strings ("550") and a one-sample stddev as NaN.
//
// Keys read: results_num_completed_requests (completed),
// results_number_errors (with it: num_requests),
// results_num_completed_requests_per_min (duration = completed / (per
// minute / 60), LLMPerf writing no duration),
// results_mean_output_throughput_token_per_s (system tok/s),
// results_ttft_s_mean and results_end_to_end_latency_s_mean (× 1000).
// LLMPerf's inter-token latency is e2e / output tokens, TTFT included, so
// it is not a TPOT and mean_tpot_ms is left out; its per-request
// throughput is output tokens / e2e, TTFT included too, so it is not used
// as the per-user rate, which is then left out (no TPOT to fall back on).
// The keys that do not start "results_" (model, version,
// num_concurrent_requests, mean_input_tokens …) go to Meta.
//
// Read from the ray-project/llmperf-leaderboard summaries in bench-samples
// (raw_data/summary) and ray-project/llmperf token_benchmark_ray.py's
// metrics as FORMATS.md records them.
func readLLMPerf(r *reader, obj int) {
	r.metaScalars(obj, func(key string) bool { return strings.HasPrefix(key, "results_") })
	completed, hasCompleted := r.field(obj, "", "results_num_completed_requests")
	errored, hasErrored := r.field(obj, "", "results_number_errors")
	if hasCompleted {
		r.completed = completed
		r.set(keyCompleted, completed)
		if hasErrored {
			r.set(keyNumRequests, completed+errored)
		}
	}
	perMin, hasPerMin := r.field(obj, "", "results_num_completed_requests_per_min")
	if hasCompleted && hasPerMin && perMin > 0 {
		r.set(spica.MetricDurationMs, completed/(perMin/60)*1000)
		r.notef("duration_ms is results_num_completed_requests / (results_num_completed_requests_per_min / 60) × 1000 (LLMPerf writes no duration)")
	} else {
		r.notef("duration_ms left out: it needs results_num_completed_requests and a positive results_num_completed_requests_per_min")
	}
	r.mapped(obj, "", "results_mean_output_throughput_token_per_s", spica.MetricOutputThroughput, 1)
	r.mapped(obj, "", "results_ttft_s_mean", spica.MetricMeanTTFT, 1000)
	r.mapped(obj, "", "results_end_to_end_latency_s_mean", spica.MetricMeanE2ELatency, 1000)
	r.notef("%s left out: LLMPerf's inter-token latency is e2e / output tokens, TTFT included, not a TPOT", spica.MetricMeanTPOT)
	r.notef("results_request_output_throughput_token_per_s is output tokens / e2e, TTFT included: not used as the per-user rate")
}
