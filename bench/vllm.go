package bench

import (
	"math"
	"strconv"
	"strings"

	"github.com/spica-search/spica"
)

// readVLLM maps a result of `vllm bench serve --save-result` (vLLM 0.6 to
// 0.25 and later) or of the older benchmarks/benchmark_serving.py, one
// object per run; --append-result's JSON lines and `vllm bench sweep`'s
// summary.json (an array of runs) read as several runs.
//
// Keys read, in vLLM's units: duration (s), completed, failed,
// output_throughput (tok/s), mean_ttft_ms, mean_tpot_ms, mean_e2el_ms
// (written only with --percentile-metrics …,e2el: without it the mean
// end-to-end latency is left out, its median never stands in). vLLM writes
// no per-user rate, so it is 1000 / mean_tpot_ms, unless --save-detailed
// kept the per-request arrays (input_lens, output_lens, ttfts, itls,
// errors, and in newer versions latencies and start_times, all in
// seconds): then every key is computed from them (see [ReadRequests]) and
// the per-user rate is the replay's mean over every positive gap of
// 1000/gap_ms. request_goodput (or the older "request_goodput:") is
// requests/s and never becomes tokens/s. request_rate "inf" and the other
// header keys (date, backend, label, model_id, num_prompts, burstiness,
// max_concurrency, --metadata pairs …) go to Meta as written.
//
// A run where every request failed writes 0.0 for every latency: with
// completed 0 they are left out and the throughput is 0.
//
// Read from vllm-project/vllm vllm/benchmarks/serve.py (calculate_metrics:
// TPOT = (latency − ttft)/(output_len − 1) for output_len > 1, the
// per-request lists span every request, a failed one with output length
// 0 and an error string) and the v0.25.1 results in bench-samples.
func readVLLM(r *reader, obj int) {
	readServing(r, obj, servingKeys{
		e2e:    "mean_e2el_ms",
		e2eHow: "vLLM writes e2el only with --percentile-metrics …,e2el",
	})
	if r.at(obj, "request_goodput", "request_goodput") != noNode || r.at(obj, "request_goodput:", "request_goodput:") != noNode {
		r.notef("request_goodput is requests/s: not used for %s", spica.MetricGoodput)
	}
}

// servingKeys are what differs between vLLM's result object and SGLang's,
// which descends from it.
type servingKeys struct {
	e2e    string // the mean end-to-end latency key
	e2eHow string // why it may be missing
}

// servingMetric reports whether a top-level key of a vLLM or SGLang result
// is a measurement rather than a descriptive field for Meta.
func servingMetric(key string) bool {
	switch key {
	case "duration", "completed", "failed", "total_input_tokens", "total_output_tokens", "total_input",
		"total_output", "total_output_tokens_retokenized", "request_throughput", "request_goodput",
		"request_goodput:", "output_throughput", "input_throughput", "total_token_throughput",
		"total_throughput", "max_output_tokens_per_s", "max_concurrent_requests", "rtfx", "concurrency",
		"accept_length":
		return true
	}
	if strings.HasSuffix(key, "_ms") {
		for _, p := range []string{"mean_", "median_", "std_", "min_", "max_", "p"} {
			if strings.HasPrefix(key, p) {
				return true
			}
		}
	}
	return false
}

// readServing maps a vLLM or SGLang result object.
func readServing(r *reader, obj int, k servingKeys) {
	r.metaScalars(obj, servingMetric)
	durationS, hasDuration := r.field(obj, "", "duration")
	completed, hasCompleted := r.field(obj, "", "completed")
	failed, hasFailed := r.field(obj, "", "failed")
	if hasCompleted {
		r.completed = completed
		r.set(keyCompleted, completed)
		if hasFailed {
			r.set(keyNumRequests, completed+failed)
		}
	}
	if reqs, ok := r.servingRecords(obj); ok {
		d := math.NaN()
		if !hasStartTimes(r, obj) && hasDuration {
			d = durationS * 1000
			r.notef("duration_ms is the document's duration × 1000 (the records hold no start times)")
		}
		if r.err == nil {
			r.summarize(reqs, d, r.opt)
		}
		return
	}
	if hasDuration {
		r.set(spica.MetricDurationMs, durationS*1000)
	} else {
		r.notef("duration_ms left out: duration is missing or null")
	}
	r.mapped(obj, "", "output_throughput", spica.MetricOutputThroughput, 1)
	r.mapped(obj, "", "mean_ttft_ms", spica.MetricMeanTTFT, 1)
	r.mapped(obj, "", "mean_tpot_ms", spica.MetricMeanTPOT, 1)
	if v, ok := r.field(obj, "", k.e2e); ok {
		r.set(spica.MetricMeanE2ELatency, v)
	} else {
		r.notef("%s left out: %s is missing or null (%s; a median is not a mean)", spica.MetricMeanE2ELatency, k.e2e, k.e2eHow)
	}
}

func hasStartTimes(r *reader, obj int) bool {
	i := r.d.field(obj, "start_times")
	return i != noNode && r.d.nodes[i].kind == kindArray
}

// servingRecords builds per-request records from the detailed arrays, when
// the document holds ttfts, itls and output_lens.
func (r *reader) servingRecords(obj int) ([]request, bool) {
	// Each array as a list of its elements' indices.
	elems := map[string][]int{}
	n := -1
	for _, name := range []string{"ttfts", "itls", "output_lens", "errors", "latencies", "start_times"} {
		i := r.at(obj, name, name)
		if i == noNode || r.d.nodes[i].kind != kindArray {
			if name == "ttfts" || name == "itls" || name == "output_lens" {
				return nil, false
			}
			continue
		}
		var idx []int
		for j := range r.d.elems(i) {
			idx = append(idx, j)
		}
		elems[name] = idx
		if n < 0 {
			n = len(idx)
		} else if len(idx) != n {
			r.fail(name, r.d.nodes[i].off, "holds %d entries, the other per-request arrays %d", len(idx), n)
			return nil, false
		}
	}
	reqs := make([]request, n)
	secs := func(name string, q int) float64 {
		idx, ok := elems[name]
		if !ok {
			return math.NaN()
		}
		if v, ok := r.elemNum(idx[q], name, q, -1); ok {
			return v * 1000
		}
		return math.NaN()
	}
	for q := range reqs {
		req := &reqs[q]
		req.perUser = math.NaN()
		req.ttft = secs("ttfts", q)
		out, ok := r.elemNum(elems["output_lens"][q], "output_lens", q, -1)
		if !ok {
			out = 0
		}
		req.out = out
		if e, ok := elems["errors"]; ok {
			en := &r.d.nodes[e[q]]
			req.ok = en.kind == kindNull || (en.kind == kindString && len(en.raw) == 0)
		} else {
			req.ok = out > 0
		}
		gi := elems["itls"][q]
		sum := 0.0
		if r.d.nodes[gi].kind == kindArray {
			req.gaps = make([]float64, 0, r.d.nodes[gi].next-gi-1)
			g := 0
			for j := range r.d.elems(gi) {
				if v, ok := r.elemNum(j, "itls", q, g); ok {
					req.gaps = append(req.gaps, v*1000)
					sum += v * 1000
				}
				g++
			}
		}
		req.e2e = secs("latencies", q)
		if _, ok := elems["latencies"]; !ok {
			req.e2e = req.ttft + sum
		}
		req.start = secs("start_times", q)
		req.end = req.start + req.e2e
	}
	if _, ok := elems["latencies"]; !ok {
		r.notef("end-to-end latencies are TTFT + the sum of the inter-token gaps (the document has no latencies array)")
	}
	return reqs, true
}

// elemNum reads element name[k] (or name[k][k2] when k2 >= 0) at index i;
// the path of an error is built only on the slow path, so reading long
// arrays allocates none.
func (r *reader) elemNum(i int, name string, k, k2 int) (float64, bool) {
	if n := &r.d.nodes[i]; n.kind == kindNumber {
		if v, ok := numberToken(n.raw); ok {
			return v, true
		}
	}
	path := name + "[" + strconv.Itoa(k) + "]"
	if k2 >= 0 {
		path += "[" + strconv.Itoa(k2) + "]"
	}
	return r.num(i, path)
}
