package bench

import (
	"github.com/spica-search/spica"
)

// readGenAIPerf maps GenAI-Perf's <prefix>_genai_perf.json (default
// profile_export_genai_perf.json): the metric-object shape of AIPerf
// ({"unit", "avg", …} per metric) plus input_config, flat in older
// releases (model, endpoint_type, streaming, concurrency) and nested in
// newer ones (model_names, endpoint.{type, streaming},
// perf_analyzer.stimulus.concurrency).
//
// Keys read (avg; times by their unit, ms as written): request_latency
// (end-to-end), time_to_first_token, inter_token_latency (per request
// (latency − TTFT)/(output tokens − 1), so its mean is the mean TPOT),
// output_token_throughput, request_count (completed) and
// request_throughput (requests/s). GenAI-Perf writes no duration: it is
// request_count / request_throughput. Its per-user figure is
// output_token_throughput_per_user (1/ITL per request, averaged); the
// older output_token_throughput_per_request is output tokens over the
// whole request latency, TTFT included, so it is not used and the rate
// falls back to 1000 / mean_tpot_ms. A non-streaming run
// (streaming false) times the first token at the end of the response:
// its time_to_first_token equals request_latency and is left out.
// request_goodput is requests/s and is not used.
//
// Read from triton-inference-server/perf_analyzer
// genai-perf/genai_perf/profile_data_parser/llm_profile_data_parser.py
// (inter-token latency and per-request throughput formulas) and the three
// exports in bench-samples.
func readGenAIPerf(r *reader, obj int) {
	completed, hasCompleted := r.metricAvg(obj, "", "request_count", false)
	if hasCompleted {
		r.completed = completed
		r.set(keyCompleted, completed)
	}
	rps, hasRPS := r.metricAvg(obj, "", "request_throughput", false)
	if hasCompleted && hasRPS && rps > 0 {
		r.set(spica.MetricDurationMs, completed/rps*1000)
		r.notef("duration_ms is request_count / request_throughput × 1000 (GenAI-Perf writes no duration)")
	} else {
		r.notef("duration_ms left out: it needs request_count and a positive request_throughput")
	}
	r.avgInto(obj, "", spica.MetricOutputThroughput, false, "output_token_throughput")
	r.avgInto(obj, "", spica.MetricMeanE2ELatency, true, "request_latency")
	r.avgInto(obj, "", spica.MetricMeanTPOT, true, "inter_token_latency")
	cfg := r.d.field(obj, "input_config")
	streaming := r.d.path(cfg, "endpoint", "streaming")
	if streaming == noNode {
		streaming = r.d.field(cfg, "streaming")
	}
	if streaming != noNode && r.d.nodes[streaming].kind == kindFalse {
		r.notef("%s left out: a non-streaming run's time_to_first_token is the whole response", spica.MetricMeanTTFT)
	} else {
		r.avgInto(obj, "", spica.MetricMeanTTFT, true, "time_to_first_token")
	}
	if v, ok := r.metricAvg(obj, "", "output_token_throughput_per_user", false); ok {
		r.set(spica.MetricThroughputPerUser, v)
		r.perUser = true
		r.keyNotef(spica.MetricThroughputPerUser, "%s is %s's output_token_throughput_per_user avg (1/ITL per request, averaged)", spica.MetricThroughputPerUser, r.tool)
	} else if r.d.field(obj, "output_token_throughput_per_request") != noNode {
		r.notef("output_token_throughput_per_request is output tokens / request latency, TTFT included: not used as the per-user rate")
	}
	if r.d.field(obj, "request_goodput") != noNode {
		r.notef("request_goodput is requests/s: not used for %s", spica.MetricGoodput)
	}
	r.metaFirst(cfg, "model", "model_names")
	r.metaFirst(cfg, "model", "model")
	r.metaAt(cfg, "backend", "endpoint", "backend")
	r.metaAt(cfg, "backend", "backend")
	r.metaAt(cfg, "endpoint_type", "endpoint", "type")
	r.metaAt(cfg, "endpoint_type", "endpoint_type")
	if streaming != noNode {
		if v, ok := r.metaValue(streaming); ok {
			r.meta["streaming"] = v
		}
	}
	r.metaAt(cfg, "concurrency", "perf_analyzer", "stimulus", "concurrency")
	r.metaAt(cfg, "concurrency", "concurrency")
	r.metaAt(cfg, "request_rate", "perf_analyzer", "stimulus", "request_rate")
	r.metaAt(cfg, "request_rate", "request_rate")
}
