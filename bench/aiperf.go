package bench

import (
	"math"

	"github.com/spica-search/spica"
)

// readAIPerf maps NVIDIA AIPerf's profile_export_aiperf.json: an object of
// metric objects {"unit", "avg", "min", "max", "p1" … "p99", "std"} at the
// top level (AIPerf 0.2 and later, with or without schema_version and
// aiperf_version), or, in the pre-1.0 export, under "records" keyed by
// tag (ttft, ttst, …) with a header and a count.
//
// Keys read (the avg of each; times converted by the metric's unit, "ms",
// "ns" or "sec"): benchmark_duration, request_count (completed),
// error_request_count (with request_count: num_requests),
// output_token_throughput, time_to_first_token (pre-1.0: ttft),
// request_latency (the end-to-end latency), inter_token_latency — AIPerf's
// ITL is per request (request_latency − TTFT)/(output tokens − 1), so its
// mean is the mean TPOT — and output_token_throughput_per_user, AIPerf's
// own per-user figure (1/ITL per request, averaged), used as the per-user
// rate. goodput is requests/s and is not used. Non-streaming runs have no
// TTFT, ITL or per-user entries: those keys are left out, with notes (the
// per-user rate then has no TPOT to fall back on either). Meta holds the
// model, endpoint type, streaming, concurrency, request rate and count of
// input_config, and the version and time keys. The per-request
// profile_export.jsonl is read by [ReadRequests].
//
// Read from ai-dynamo/aiperf aiperf/metrics/types/inter_token_latency_metric.py
// (the ITL formula above) and the two exports in bench-samples.
func readAIPerf(r *reader, obj int) {
	c, prefix := obj, ""
	if i := r.at(obj, "records", "records"); i != noNode && r.d.nodes[i].kind == kindObject {
		c, prefix = i, "records."
	}
	completed, hasCompleted := r.metricAvg(c, prefix, "request_count", false)
	errored, hasErrored := r.metricAvg(c, prefix, "error_request_count", false)
	switch {
	case hasCompleted:
		r.completed = completed
		r.set(keyCompleted, completed)
		if hasErrored {
			r.set(keyNumRequests, completed+errored)
		}
	case hasErrored && errored > 0:
		// AIPerf leaves out the count of valid requests when there is none.
		r.completed = 0
		r.set(keyCompleted, 0)
		r.set(keyNumRequests, errored)
	}
	r.avgInto(c, prefix, spica.MetricDurationMs, true, "benchmark_duration")
	r.avgInto(c, prefix, spica.MetricOutputThroughput, false, "output_token_throughput")
	r.avgInto(c, prefix, spica.MetricMeanTTFT, true, "time_to_first_token", "ttft")
	r.avgInto(c, prefix, spica.MetricMeanE2ELatency, true, "request_latency")
	r.avgInto(c, prefix, spica.MetricMeanTPOT, true, "inter_token_latency")
	if v, ok := r.metricAvg(c, prefix, "output_token_throughput_per_user", false); ok {
		r.set(spica.MetricThroughputPerUser, v)
		r.perUser = true
		r.keyNotef(spica.MetricThroughputPerUser, "%s is %s's output_token_throughput_per_user avg (1/ITL per request, averaged; no per-token gaps in this document)", spica.MetricThroughputPerUser, r.tool)
	}
	if r.d.field(c, "goodput") != noNode {
		r.notef("goodput is requests/s: not used for %s", spica.MetricGoodput)
	}
	cfg := r.d.field(obj, "input_config")
	r.metaFirst(cfg, "model", "endpoint", "model_names")
	r.metaAt(cfg, "endpoint_type", "endpoint", "type")
	r.metaAt(cfg, "streaming", "endpoint", "streaming")
	r.metaAt(cfg, "concurrency", "loadgen", "concurrency")
	r.metaAt(cfg, "request_rate", "loadgen", "request_rate")
	r.metaAt(cfg, "request_count", "loadgen", "request_count")
	for _, key := range []string{"aiperf_version", "schema_version", "start_time", "end_time", "was_cancelled"} {
		r.metaAt(obj, key, key)
	}
}

// metricAvg reads the avg of the metric object name in the object at index
// c, in milliseconds when time is set (by its unit).
func (r *reader) metricAvg(c int, prefix, name string, time bool) (float64, bool) {
	m := r.at(c, name, prefix+name)
	if m == noNode || r.d.nodes[m].kind == kindNull {
		return 0, false
	}
	if r.d.nodes[m].kind != kindObject {
		r.fail(prefix+name, r.d.nodes[m].off, "is %s, want a metric object {\"unit\", \"avg\", …}", kindName(r.d.nodes[m].kind))
		return 0, false
	}
	v, ok := r.field(m, prefix+name+".", "avg")
	if !ok || !time {
		return v, ok
	}
	v = r.toMs(m, prefix+name+".", v, prefix+name+".avg")
	return v, !math.IsNaN(v) || r.err == nil
}

// avgInto sets metric from the avg of the first of names present, and
// notes its absence.
func (r *reader) avgInto(c int, prefix, metric string, time bool, names ...string) {
	for _, name := range names {
		if v, ok := r.metricAvg(c, prefix, name, time); ok {
			r.set(metric, v)
			return
		}
	}
	r.notef("%s left out: %s%s is missing or null", metric, prefix, names[0])
}

// metaFirst copies the first element of the array at path names under the
// object at index obj into Meta as key.
func (r *reader) metaFirst(obj int, key string, names ...string) {
	i := r.d.path(obj, names...)
	if i == noNode || r.d.nodes[i].kind != kindArray || r.d.nodes[i].next == i+1 {
		return
	}
	if v, ok := r.metaValue(i + 1); ok {
		r.meta[key] = v
	}
}
