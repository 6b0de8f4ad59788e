package bench

import (
	"math"

	"github.com/spica-search/spica"
)

// readTRTLLM maps `trtllm-bench throughput --report_json` (TensorRT-LLM
// 0.17 and later): nested objects engine, world_info, request_info,
// performance and, for streaming runs, streaming_metrics.
//
// Keys read: world_info.world_size (the GPU count, used when
// Options.GPUs is 0), request_info.num_requests (trtllm-bench's
// statistics cover the requests that finished, so it is both
// completed_requests and num_requests), performance.total_latency_ms
// (last end − first start: the duration), performance.
// system_output_throughput_tok_s, performance.avg_request_latency_ms
// (end-to-end), streaming_metrics.avg_ttft_ms, streaming_metrics.
// avg_tpot_ms and streaming_metrics.token_output_speed_tok_s, the
// generation-phase tokens/s per user, used as the per-user rate.
// performance.output_throughput_per_user_tok_s includes the context phase
// and is not used; without streaming_metrics the TTFT, TPOT and per-user
// keys are left out, with notes. Meta holds engine.model, engine.version,
// engine.backend and world_info's sizes.
//
// Read from NVIDIA/TensorRT-LLM tensorrt_llm/bench/dataclasses/reporting.py
// (get_statistics_dict). No real report is in bench-samples: the tests'
// fixtures are written from that source.
func readTRTLLM(r *reader, obj int) {
	world := r.at(obj, "world_info", "world_info")
	if ws, ok := r.field(world, "world_info.", "world_size"); ok {
		if ws >= 1 && ws == math.Trunc(ws) && ws <= 1<<20 {
			r.gpus = int(ws)
		} else {
			r.fail("world_info.world_size", r.d.nodes[r.d.field(world, "world_size")].off, "is %v, want a GPU count ≥ 1", ws)
		}
	}
	req := r.at(obj, "request_info", "request_info")
	if n, ok := r.field(req, "request_info.", "num_requests"); ok {
		r.completed = n
		r.set(keyCompleted, n)
		r.set(keyNumRequests, n)
	}
	perf := r.at(obj, "performance", "performance")
	r.mapped(perf, "performance.", "total_latency_ms", spica.MetricDurationMs, 1)
	r.mapped(perf, "performance.", "system_output_throughput_tok_s", spica.MetricOutputThroughput, 1)
	r.mapped(perf, "performance.", "avg_request_latency_ms", spica.MetricMeanE2ELatency, 1)
	stream := r.at(obj, "streaming_metrics", "streaming_metrics")
	if stream == noNode || r.d.nodes[stream].kind != kindObject {
		r.notef("mean_ttft_ms, mean_tpot_ms and %s left out: no streaming_metrics (a non-streaming run)", spica.MetricThroughputPerUser)
		r.perUser = true // nothing to fall back on: finish must not note it twice
	} else {
		r.mapped(stream, "streaming_metrics.", "avg_ttft_ms", spica.MetricMeanTTFT, 1)
		r.mapped(stream, "streaming_metrics.", "avg_tpot_ms", spica.MetricMeanTPOT, 1)
		if v, ok := r.field(stream, "streaming_metrics.", "token_output_speed_tok_s"); ok {
			r.set(spica.MetricThroughputPerUser, v)
			r.perUser = true
			r.keyNotef(spica.MetricThroughputPerUser, "%s is streaming_metrics.token_output_speed_tok_s, the generation-phase tokens/s per user", spica.MetricThroughputPerUser)
		}
	}
	r.metaAt(obj, "model", "engine", "model")
	r.metaAt(obj, "version", "engine", "version")
	r.metaAt(obj, "backend", "engine", "backend")
	for _, k := range []string{"tp_size", "pp_size", "ep_size", "world_size", "max_batch_size", "max_num_tokens"} {
		r.metaAt(world, k, k)
	}
}
