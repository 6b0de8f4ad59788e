package bench

import (
	"fmt"
	"math"
	"strconv"

	"github.com/spica-search/spica"
)

// request is one per-request record in this package's units: times in
// milliseconds, NaN when the record does not say.
type request struct {
	ok         bool      // completed: counted in every statistic
	start, end float64   // when it was sent and when its last token came
	ttft, e2e  float64   // time to first token, end-to-end latency
	out        float64   // output tokens
	gaps       []float64 // gaps between its tokens, nil when not recorded
	perUser    float64   // the tool's own per-request tokens/s per user
}

// ReadRequests reads per-request records and computes every key of one
// Run from them: AIPerf's profile_export.jsonl (records of the profiling
// phase without an error count, warm-up records are skipped) and the
// replay's per-request JSON lines (only terminal_status "completed"
// counts). opt.Tool is AIPerf, Dynamo or "" to detect it from the first
// record. vLLM's and SGLang's per-request arrays live inside their result
// documents: [Read] uses them.
//
// Over the completed requests: duration_ms is the last end − the first
// start (for the replay, its last token time, the simulated clock's
// reading); output_throughput_tok_s their output tokens / duration;
// mean_ttft_ms and mean_e2e_latency_ms their means; mean_tpot_ms the mean
// of (e2e − TTFT)/(output tokens − 1) over requests of more than one
// token, as vLLM defines TPOT. The per-user rate is, in order of
// preference, the mean over every positive inter-token gap of
// 1000/gap_ms, the mean of the tool's per-request figure (AIPerf's
// output_token_throughput_per_user, 1/ITL), or 1000 / mean_tpot_ms; a Note
// names the one used. With opt.SLA, goodput_output_throughput_tok_s is
// the output tokens of the good requests / duration, where a request is
// good iff TTFT ≤ ttft_ms, e2e ≤ e2e_ms and (e2e − TTFT)/(tokens − 1) ≤
// itl_ms for every bound the SLA sets, inclusive, the last check skipped
// for a request of one token or none (SPEC §13). Records that span no
// time (a duration of 0 ms or less) give no duration, throughput or
// goodput: a Note says so, where tokens / 0 would be an infinite rate.
//
// Errors are those of [Read]; a bad record names its line. It costs
// O(len(data)).
func ReadRequests(data []byte, opt Options) (Run, error) {
	if err := checkOptions(opt); err != nil {
		return Run{}, err
	}
	tool := opt.Tool
	var reqs []request
	lastToken := math.NaN()
	r := newReader(nil, tool)
	err := eachLine(data, func(line []byte, base, number int) error {
		d, err := parseDoc(line, nil)
		if err != nil {
			return locate(err, base, number, "")
		}
		if d.nodes[0].kind != kindObject {
			return locate(&spica.Error{Offset: 0, Err: spica.ErrInvalidReport,
				Msg: "a record must be a JSON object, got " + kindName(d.nodes[0].kind)}, base, number, "")
		}
		if tool == "" {
			tool = detectRecord(&d)
			if tool == "" {
				return locate(&spica.Error{Offset: 0, Err: spica.ErrInvalidReport,
					Msg: "no tool's per-request record: want AIPerf's (metadata, metrics) or the replay's (first_token_ms, last_token_ms …)"}, base, number, "")
			}
		}
		r.d, r.tool = &d, tool
		var req request
		var keep bool
		switch tool {
		case AIPerf:
			req, keep = r.aiperfRecord(0)
		case Dynamo:
			req, keep = r.dynamoRecord(0)
			if keep && req.ok && !math.IsNaN(req.end) && !(req.end <= lastToken) {
				lastToken = req.end
			}
		default:
			return &spica.Error{Path: "Options.Tool", Offset: -1, Err: spica.ErrInvalidReport,
				Msg: fmt.Sprintf("is %q: per-request records are read for aiperf and dynamo; the others' records are inside their result documents (Read)", string(tool))}
		}
		if r.err != nil {
			return locate(r.err, base, number, "")
		}
		if keep {
			reqs = append(reqs, req)
		}
		return nil
	})
	if err != nil {
		return Run{}, err
	}
	if len(reqs) == 0 {
		return Run{}, &spica.Error{Offset: int64(len(data)), Err: spica.ErrInvalidReport, Msg: "no per-request records"}
	}
	r.d, r.tool = nil, tool
	duration := math.NaN()
	if tool == Dynamo {
		duration = lastToken
		r.notef("duration_ms is the last token time of the completed requests (the replay's simulated clock)")
	}
	r.summarize(reqs, duration, opt)
	return r.finish(opt), nil
}

// eachLine calls f for every non-blank line of data with its offset and
// 1-based number.
func eachLine(data []byte, f func(line []byte, base, number int) error) error {
	start, end, number := nextLine(data, 0, 0)
	for ; start >= 0; start, end, number = nextLine(data, end, number) {
		if err := f(data[start:end], start, number); err != nil {
			return err
		}
	}
	return nil
}

// detectRecord names the tool of one per-request record, or "".
func detectRecord(d *doc) Tool {
	switch {
	case d.field(0, "metadata") != noNode && d.field(0, "metrics") != noNode:
		return AIPerf
	case d.field(0, "first_token_ms") != noNode || d.field(0, "last_token_ms") != noNode || d.field(0, "terminal_status") != noNode:
		return Dynamo
	}
	return ""
}

// dynamoRecord reads one of the replay's per-request records (FORMATS.md:
// uuid, arrival_time_ms, first_token_ms, last_token_ms, ttft_ms,
// e2e_latency_ms, itl_ms, input_length, output_length, terminal_status).
func (r *reader) dynamoRecord(obj int) (request, bool) {
	req := request{start: math.NaN(), end: math.NaN(), ttft: math.NaN(), e2e: math.NaN(), perUser: math.NaN()}
	if i := r.at(obj, "terminal_status", "terminal_status"); i != noNode {
		n := &r.d.nodes[i]
		req.ok = n.kind == kindString && n.text() == "completed"
	}
	get := func(key string) float64 {
		if v, ok := r.field(obj, "", key); ok {
			return v
		}
		return math.NaN()
	}
	req.start, req.end = get("arrival_time_ms"), get("last_token_ms")
	req.ttft, req.e2e = get("ttft_ms"), get("e2e_latency_ms")
	req.out = get("output_length")
	if math.IsNaN(req.out) {
		req.out = 0
	}
	return req, true
}

// aiperfRecord reads one line of AIPerf's profile_export.jsonl: metadata
// (request_start_ns, request_end_ns, benchmark_phase, was_cancelled; the
// pre-1.0 export: timestamp_ns, credit_phase), metrics {name: {value,
// unit}} and error. keep is false for a record outside the profiling
// phase (warm-up), which AIPerf itself leaves out of every statistic.
func (r *reader) aiperfRecord(obj int) (req request, keep bool) {
	req = request{start: math.NaN(), end: math.NaN(), ttft: math.NaN(), e2e: math.NaN(), perUser: math.NaN()}
	meta := r.at(obj, "metadata", "metadata")
	phase := r.at(meta, "benchmark_phase", "metadata.benchmark_phase")
	if phase == noNode {
		phase = r.at(meta, "credit_phase", "metadata.credit_phase")
	}
	if phase != noNode && r.d.nodes[phase].kind == kindString && r.d.nodes[phase].text() != "profiling" {
		return req, false
	}
	errNode := r.at(obj, "error", "error")
	cancelled := r.at(meta, "was_cancelled", "metadata.was_cancelled")
	req.ok = (errNode == noNode || r.d.nodes[errNode].kind == kindNull) &&
		(cancelled == noNode || r.d.nodes[cancelled].kind != kindTrue)

	metrics := r.at(obj, "metrics", "metrics")
	metric := func(unitless bool, names ...string) float64 {
		for _, name := range names {
			m := r.at(metrics, name, "metrics."+name)
			if m == noNode {
				continue
			}
			path := "metrics." + name + ".value"
			v, ok := r.field(m, "metrics."+name+".", "value")
			if !ok {
				return math.NaN()
			}
			if unitless {
				return v
			}
			return r.toMs(m, "metrics."+name+".", v, path)
		}
		return math.NaN()
	}
	req.ttft = metric(false, "time_to_first_token", "ttft")
	req.e2e = metric(false, "request_latency")
	req.out = metric(true, "output_sequence_length")
	if math.IsNaN(req.out) {
		req.out = 0
	}
	req.perUser = metric(true, "output_token_throughput_per_user")

	ns := func(path string, names ...string) float64 {
		i := r.d.path(obj, names...)
		if i == noNode {
			return math.NaN()
		}
		v, ok := r.num(i, path)
		if !ok {
			return math.NaN()
		}
		return v / 1e6
	}
	req.start = ns("metadata.request_start_ns", "metadata", "request_start_ns")
	if math.IsNaN(req.start) {
		req.start = metric(false, "min_request_timestamp")
	}
	if math.IsNaN(req.start) {
		req.start = ns("metadata.timestamp_ns", "metadata", "timestamp_ns")
	}
	req.end = ns("metadata.request_end_ns", "metadata", "request_end_ns")
	if math.IsNaN(req.end) {
		req.end = metric(false, "max_response_timestamp")
	}
	if math.IsNaN(req.end) && !math.IsNaN(req.start) && !math.IsNaN(req.e2e) {
		req.end = req.start + req.e2e
	}
	return req, true
}

// msPerUnit converts the time units AIPerf and GenAI-Perf write.
var msPerUnit = map[string]float64{
	"ns": 1e-6, "us": 1e-3, "ms": 1, "s": 1000, "sec": 1000, "second": 1000, "seconds": 1000,
}

// toMs converts v, read from the metric object at index m, to
// milliseconds by the object's "unit"; a metric without a unit is taken
// as ms, the unit both tools write latencies in. An unknown unit is an
// error at prefix+"unit".
func (r *reader) toMs(m int, prefix string, v float64, path string) float64 {
	u := r.at(m, "unit", prefix+"unit")
	if u == noNode || r.d.nodes[u].kind != kindString {
		return v
	}
	unit := r.d.nodes[u].text()
	scale, ok := msPerUnit[unit]
	if !ok {
		r.fail(prefix+"unit", r.d.nodes[u].off, "is %q, want a time unit (ns, us, ms, s, sec) for %s", unit, path)
		return math.NaN()
	}
	return v * scale
}

// summarize computes every key of a Run from its records (see
// ReadRequests). durationMs is the run's duration when the caller knows it
// better than the records' spans (the replay's clock, a document's
// duration), NaN otherwise. A duration that is not positive is none.
func (r *reader) summarize(reqs []request, durationMs float64, opt Options) {
	var completed, tokens float64
	first, last := math.Inf(1), math.Inf(-1)
	var ttft, e2e, tpot stat
	for i := range reqs {
		q := &reqs[i]
		if !q.ok {
			continue
		}
		completed++
		tokens += q.out
		if !math.IsNaN(q.start) {
			first = math.Min(first, q.start)
		}
		if !math.IsNaN(q.end) {
			last = math.Max(last, q.end)
		}
		ttft.add(q.ttft)
		e2e.add(q.e2e)
		if q.out > 1 {
			tpot.add((q.e2e - q.ttft) / (q.out - 1))
		}
	}
	r.set(keyNumRequests, float64(len(reqs)))
	r.set(keyCompleted, completed)
	r.completed = completed
	derived := math.IsNaN(durationMs) && first <= last
	if derived {
		durationMs = last - first
	}
	// A run that spans no time has no rate: tokens / 0 ms is +Inf (NaN
	// for no tokens), which would rank first.
	noTime := "the records carry no start and end times"
	if durationMs > 0 {
		if derived {
			r.notef("duration_ms is the last end − the first start of the completed requests")
		}
		r.set(spica.MetricDurationMs, durationMs)
		r.set(spica.MetricOutputThroughput, tokens/(durationMs/1000))
		r.notef("output_throughput_tok_s is the completed requests' %s output tokens / duration", strconv.FormatFloat(tokens, 'g', -1, 64))
	} else {
		if !math.IsNaN(durationMs) {
			noTime = "the duration is " + strconv.FormatFloat(durationMs, 'g', -1, 64) + " ms, no time"
			durationMs = math.NaN()
		}
		r.notef("duration_ms and output_throughput_tok_s left out: %s", noTime)
	}
	ttft.put(r, spica.MetricMeanTTFT, "time to first token")
	e2e.put(r, spica.MetricMeanE2ELatency, "end-to-end latency")
	tpot.put(r, spica.MetricMeanTPOT, "(e2e − TTFT)/(output tokens − 1) over requests of more than one token")
	r.perUserFromRecords(reqs)
	if opt.SLA != nil && !opt.SLA.IsZero() && math.IsNaN(durationMs) {
		r.goodput = true
		r.notef("%s left out: %s to divide the good requests' tokens by", spica.MetricGoodput, noTime)
	} else if opt.SLA != nil && !opt.SLA.IsZero() {
		good := 0.0
		for i := range reqs {
			if reqs[i].ok && isGood(&reqs[i], *opt.SLA) {
				good += reqs[i].out
			}
		}
		r.set(spica.MetricGoodput, good/(durationMs/1000))
		r.goodput = true
		r.notef("goodput_output_throughput_tok_s is the output tokens of the requests within the SLA (bounds inclusive) / duration")
	}
}

// isGood reports whether a completed request meets every bound sla sets,
// inclusive; the inter-token check is skipped for one token or none. A
// bound on a value the record does not hold (NaN) is not met.
func isGood(q *request, sla spica.SLATarget) bool {
	if sla.TTFTMs != 0 && !(q.ttft <= sla.TTFTMs) {
		return false
	}
	if sla.E2EMs != 0 && !(q.e2e <= sla.E2EMs) {
		return false
	}
	if sla.ITLMs != 0 && q.out > 1 && !((q.e2e-q.ttft)/(q.out-1) <= sla.ITLMs) {
		return false
	}
	return true
}

// perUserFromRecords sets the per-user rate by the first definition the
// records allow; finish falls back to 1000 / mean TPOT.
func (r *reader) perUserFromRecords(reqs []request) {
	var gaps, figures stat
	for i := range reqs {
		if !reqs[i].ok {
			continue
		}
		for _, g := range reqs[i].gaps {
			if g > 0 {
				gaps.add(1000 / g)
			}
		}
		figures.add(reqs[i].perUser)
	}
	switch {
	case gaps.n > 0:
		r.set(spica.MetricThroughputPerUser, gaps.mean())
		r.keyNotef(spica.MetricThroughputPerUser, "%s is the replay's: the mean over every positive inter-token gap of 1000/gap_ms (%d gaps)", spica.MetricThroughputPerUser, gaps.n)
	case figures.n > 0:
		r.set(spica.MetricThroughputPerUser, figures.mean())
		r.keyNotef(spica.MetricThroughputPerUser, "%s is the mean of %s's per-request figure over %d requests (no per-token gaps)", spica.MetricThroughputPerUser, r.tool, figures.n)
	default:
		return
	}
	r.perUser = true
}

// stat accumulates a mean of the values that are not NaN.
type stat struct {
	sum float64
	n   int
}

func (s *stat) add(v float64) {
	if !math.IsNaN(v) {
		s.sum += v
		s.n++
	}
}

func (s *stat) mean() float64 { return s.sum / float64(s.n) }

// put sets key to the mean when there are values, and notes it either way.
func (s *stat) put(r *reader, key, what string) {
	if s.n == 0 {
		r.notef("%s left out: no completed request records its %s", key, what)
		return
	}
	r.set(key, s.mean())
}
