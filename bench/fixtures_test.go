package bench

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spica-search/spica"
)

// Short names for the report keys the tables below check.
const (
	kDur     = spica.MetricDurationMs
	kOut     = spica.MetricOutputThroughput
	kTTFT    = spica.MetricMeanTTFT
	kTPOT    = spica.MetricMeanTPOT
	kE2E     = spica.MetricMeanE2ELatency
	kUser    = spica.MetricThroughputPerUser
	kGood    = spica.MetricGoodput
	kGPUh    = spica.MetricGPUHours
	kDone    = keyCompleted
	kNum     = keyNumRequests
	hourMs   = 3_600_000.0
	noteTPOT = "is 1000 / mean_tpot_ms"
)

// same compares report values: NaN equals NaN, infinities equal
// themselves, finite values agree to 1e-12 relative (the hand-checked
// values below are written as the arithmetic a person does, which may
// round differently from the reader's order of operations).
func same(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	if a == b {
		return true
	}
	return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b))
}

// sameReport compares two reports key by key with same.
var sameReport = cmp.Comparer(func(a, b spica.Report) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !same(v, w) {
			return false
		}
	}
	return true
})

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// fixture is one hand-checked reading of a file in testdata.
type fixture struct {
	name    string
	file    string
	records bool // read with ReadRequests, not Read
	opt     Options
	runs    int // how many runs Read returns
	index   int // the run checked
	tool    Tool
	source  string
	want    map[string]float64
	absent  []string
	notes   []string // each is a substring of some note
	meta    map[string]any
	notMeta []string // keys Meta must not hold
}

func sla(ttft, itl, e2e float64) *spica.SLATarget {
	return &spica.SLATarget{TTFTMs: ttft, ITLMs: itl, E2EMs: e2e}
}

// fixtures pin SPEC §13's rules for every tool; the arithmetic of every
// expected value is in the comment above it.
var fixtures = []fixture{
	// vLLM --percentile-metrics ttft,tpot,itl,e2el, 9 of 10 completed (a
	// partial run), --metadata tp=8, request_rate "inf", a key of a later
	// release. Options.GPUs 8.
	{name: "vllm/e2el", file: "vllm/serve_e2el.json", opt: Options{GPUs: 8}, runs: 1, tool: VLLM,
		want: map[string]float64{
			kDur:  12500,              // "duration": 12.5 s × 1000
			kOut:  144,                // "output_throughput": 144.0 tok/s as written
			kTTFT: 40,                 // "mean_ttft_ms": 40.0
			kTPOT: 12.5,               // "mean_tpot_ms": 12.5
			kE2E:  2527.5,             // "mean_e2el_ms": 2527.5 (not median 2500)
			kUser: 80,                 // no gaps, vLLM writes no per-user figure: 1000 / 12.5
			kGPUh: 8 * 12500 / hourMs, // 8 GPUs × 12500 ms / 3.6e6 = 1/36 h
			kDone: 9,
			kNum:  10, // completed 9 + failed 1
		},
		absent: []string{kGood, spica.MetricPlannerTotalTicks},
		notes:  []string{noteTPOT, "request_goodput is requests/s", "gpu_hours is 8 GPUs", "needs per-request records and Options.SLA"},
		meta: map[string]any{"request_rate": "inf", "max_concurrency": 4.0, "tp": "8", "label": nil, "burstiness": 1.0,
			"model_id": "meta-llama/Llama-3.1-8B-Instruct", "date": "20250704-101500", "num_prompts": 10.0, "used_gpus": 8},
		notMeta: []string{"duration", "mean_ttft_ms", "p99.9_itl_ms", "added_in_a_later_release", "request_goodput", "max_concurrent_requests"}},
	// vLLM's default percentile metrics: no e2el at all, a null mean TTFT,
	// only the median TPOT. No median stands in for a mean, and the
	// per-user rate has no mean TPOT to fall back on.
	{name: "vllm/default-metrics", file: "vllm/serve_default_metrics.json", runs: 1, tool: VLLM,
		want: map[string]float64{
			kDur:  2250, // 2.25 s × 1000
			kOut:  177.77777777777777,
			kDone: 20,
			kNum:  20, // 20 + 0
		},
		absent: []string{kTTFT, kTPOT, kE2E, kUser, kGPUh, kGood},
		notes: []string{"mean_ttft_ms left out: mean_ttft_ms is missing or null", "mean_tpot_ms left out: mean_tpot_ms is missing",
			"mean_e2el_ms is missing or null (vLLM writes e2el only with --percentile-metrics …,e2el; a median is not a mean)",
			"mean_output_token_throughput_per_user left out", "gpu_hours left out: vllm writes no GPU count", "request_goodput is requests/s"},
		meta: map[string]any{"max_concurrency": nil, "request_rate": 4.0}},
	// Every request failed: vLLM wrote 0.0 for every latency.
	{name: "vllm/all-failed", file: "vllm/all_failed.json", runs: 1, tool: VLLM,
		want:   map[string]float64{kDone: 0, kNum: 5, kOut: 0, kDur: 750}, // 0 + 5 failed; 0.75 s
		absent: []string{kTTFT, kTPOT, kE2E, kUser},
		notes:  []string{"no request completed"}},
	// --save-detailed: the arrays are in seconds and win over the
	// document's means (999.0, written there to be ignored). Completed:
	// requests 0, 1, 3 (request 2 has an error: a partial run).
	// start ms 100000, 100500, 101000; e2e ms 250, 375, 62.5; ends
	// 100250, 100875, 101062.5.
	{name: "vllm/detailed", file: "vllm/detailed.json", opt: Options{SLA: sla(125, 62.5, 0)}, runs: 1, tool: VLLM,
		want: map[string]float64{
			kDur:  1062.5,     // 101062.5 − 100000
			kOut:  6 / 1.0625, // (3 + 2 + 1) tokens / 1.0625 s = 5.647…
			kTTFT: 437.5 / 3,  // (125 + 250 + 62.5) / 3
			kE2E:  687.5 / 3,  // (250 + 375 + 62.5) / 3
			kTPOT: 93.75,      // ((250−125)/(3−1) + (375−250)/(2−1)) / 2 = (62.5 + 125) / 2
			kUser: 56.0 / 3,   // gaps 62.5, 31.25, 125 ms: (16 + 32 + 8) / 3, not 1000/93.75
			kGood: 4 / 1.0625, // req 0: 125 ≤ 125, 62.5 ≤ 62.5 (3 tok); req 1: 250 > 125; req 3: 62.5 ≤ 125, one token (1 tok)
			kDone: 3,
			kNum:  4,
		},
		notes: []string{"the mean over every positive inter-token gap of 1000/gap_ms (3 gaps)", "bounds inclusive",
			"duration_ms is the last end − the first start"}},
	// The same records without an SLA: no goodput.
	{name: "vllm/detailed-no-sla", file: "vllm/detailed.json", runs: 1, tool: VLLM,
		want:   map[string]float64{kDur: 1062.5, kUser: 56.0 / 3},
		absent: []string{kGood},
		notes:  []string{"it needs per-request records and Options.SLA"}},
	// --append-result: JSON lines with blank lines; the run on line 3.
	{name: "vllm/append", file: "vllm/append.jsonl", runs: 2, index: 1, tool: VLLM, source: ":3",
		want: map[string]float64{
			kDur:  4000, // 4.0 s
			kOut:  150,
			kUser: 160, // 1000 / 6.25
			kDone: 6,
			kNum:  8, // 6 + 2
		}},
	// vllm bench sweep's summary.json: an array of runs.
	{name: "vllm/sweep", file: "vllm/sweep_summary.json", runs: 2, index: 1, tool: VLLM, source: "[1]",
		want: map[string]float64{kDur: 5000, kE2E: 2000, kUser: 25}, // 5.0 s; 1000 / 40
		meta: map[string]any{"max_concurrency": 8.0}},
	// Numbers as strings ("2.5", "1.5e2"), "nan", "inf", bare Infinity and NaN.
	{name: "vllm/nonfinite", file: "vllm/nonfinite.json", runs: 1, tool: VLLM,
		want: map[string]float64{
			kDur:  2500,        // "2.5" s
			kOut:  150,         // "1.5e2"
			kTTFT: math.NaN(),  // "nan"
			kTPOT: math.Inf(1), // "inf"
			kE2E:  math.Inf(1), // bare Infinity
		},
		absent: []string{kUser}, // 1000 / +Inf is no rate
		meta:   map[string]any{"request_rate": "inf", "burstiness": "NaN"}},
	// vLLM's and SGLang's keys in one document: Options.Tool decides.
	{name: "vllm/ambiguous-as-vllm", file: "vllm/ambiguous_sglang.json", opt: Options{Tool: VLLM}, runs: 1, tool: VLLM,
		want: map[string]float64{kE2E: 700}}, // mean_e2el_ms
	{name: "vllm/ambiguous-as-sglang", file: "vllm/ambiguous_sglang.json", opt: Options{Tool: SGLang}, runs: 1, tool: SGLang,
		want: map[string]float64{kE2E: 710}}, // mean_e2e_latency_ms

	// SGLang: three runs appended, a blank line 2. Line 1, the 2024
	// writer: median-only TTFT, request_rate the bare token Infinity.
	{name: "sglang/2024-writer", file: "sglang/runs.jsonl", runs: 3, index: 0, tool: SGLang, source: ":1",
		want: map[string]float64{
			kDur:  40000, // 40.0 s
			kOut:  1280,
			kE2E:  9000.5,
			kTPOT: 32,
			kUser: 31.25, // 1000 / 32
			kDone: 200,
		},
		absent: []string{kTTFT, kNum}, // median_ttft_ms 150 is not a mean; SGLang counts no failures
		notes:  []string{"mean_ttft_ms left out: mean_ttft_ms is missing or null", noteTPOT},
		meta: map[string]any{"request_rate": "Infinity", "sharegpt_output_len": nil, "random_input_len": 1024.0,
			"dataset_name": "random", "max_concurrency": 64.0},
		notMeta: []string{"total_output_tokens_retokenized", "concurrency", "median_itl_ms"}},
	// Line 3, a newer writer: tag, server_info, total_input/total_output, mean TTFT.
	{name: "sglang/newer-writer", file: "sglang/runs.jsonl", runs: 3, index: 1, tool: SGLang, source: ":3",
		want: map[string]float64{
			kDur:  10000,
			kOut:  1600,
			kTTFT: 45.5,
			kTPOT: 8,
			kUser: 125, // 1000 / 8
			kE2E:  1637.5,
		},
		meta:    map[string]any{"tag": "tp4-c16", "backend": "sglang-oai"},
		notMeta: []string{"accept_length", "server_info", "total_output", "total_throughput", "unknown_future_key"}},
	// Line 4: nothing completed, SGLang wrote NaN statistics.
	{name: "sglang/failed", file: "sglang/runs.jsonl", runs: 3, index: 2, tool: SGLang, source: ":4",
		want:   map[string]float64{kDone: 0, kOut: 0, kDur: 3000},
		absent: []string{kTTFT, kTPOT, kE2E, kUser},
		notes:  []string{"no request completed"}},
	// --output-details: no latencies (e2e = TTFT + Σ gaps), no start times
	// (the document's duration), no errors (a request of 0 tokens failed).
	// req 0: ttft 250, gaps 125 + 62.5, e2e 437.5; req 1: ttft 500, e2e 500.
	{name: "sglang/details", file: "sglang/details.jsonl", opt: Options{SLA: sla(0, 0, 450)}, runs: 1, tool: SGLang, source: "",
		want: map[string]float64{
			kDur:  2000,   // "duration": 2.0 s
			kOut:  2,      // (3 + 1) tokens / 2 s
			kTTFT: 375,    // (250 + 500) / 2
			kE2E:  468.75, // (437.5 + 500) / 2
			kTPOT: 93.75,  // (437.5 − 250) / (3 − 1); req 1 has one token
			kUser: 12,     // (1000/125 + 1000/62.5) / 2 = (8 + 16) / 2
			kGood: 1.5,    // req 0: 437.5 ≤ 450 (3 tok); req 1: 500 > 450: 3 / 2 s
			kDone: 2,
			kNum:  3,
		},
		notes: []string{"TTFT + the sum of the inter-token gaps", "(2 gaps)", "the document's duration × 1000"}},

	// AIPerf 0.3: metric objects at the top level, benchmark_duration in
	// sec, 95 of 100 requests valid. Options.GPUs 2.
	{name: "aiperf/streaming", file: "aiperf/streaming.json", opt: Options{GPUs: 2}, runs: 1, tool: AIPerf,
		want: map[string]float64{
			kDur:  10000, // 10.0 sec × 1000
			kOut:  1187.5,
			kTTFT: 62.5,
			kE2E:  812.5, // request_latency
			kTPOT: 7.5,   // inter_token_latency is AIPerf's per-request TPOT
			kUser: 140,   // output_token_throughput_per_user avg, not 1000 / 7.5 = 133.3
			kGPUh: 2 * 10000 / hourMs,
			kDone: 95,
			kNum:  100, // 95 + 5 errors
		},
		absent: []string{kGood}, // goodput 8.0 is requests/s
		notes:  []string{"aiperf's output_token_throughput_per_user avg", "goodput is requests/s"},
		meta: map[string]any{"model": "Qwen/Qwen3-0.6B", "endpoint_type": "chat", "streaming": true, "concurrency": 8.0,
			"request_rate": nil, "request_count": 100.0, "aiperf_version": "0.3.0", "schema_version": "1.0",
			"was_cancelled": false, "start_time": "2025-07-04T10:00:00", "used_gpus": 2}},
	// The pre-1.0 export: metrics under "records", times in ns.
	{name: "aiperf/pre-1.0", file: "aiperf/pre1_records.json", runs: 1, tool: AIPerf,
		want: map[string]float64{
			kTTFT: 25,   // 25000000 ns × 1e-6
			kE2E:  400,  // 400000000 ns
			kTPOT: 5,    // 5000000 ns
			kUser: 200,  // no per-user figure: 1000 / 5
			kDur:  4000, // 4.0 sec
			kOut:  500,
			kDone: 20,
		},
		absent: []string{kNum},
		notes:  []string{noteTPOT}},
	// Non-streaming: no TTFT, ITL or per-user entries.
	{name: "aiperf/nonstreaming", file: "aiperf/nonstreaming.json", runs: 1, tool: AIPerf,
		want:   map[string]float64{kE2E: 1500, kDur: 30000, kOut: 256, kDone: 60},
		absent: []string{kTTFT, kTPOT, kUser},
		notes:  []string{"mean_ttft_ms left out: time_to_first_token is missing", "mean_output_token_throughput_per_user left out"},
		meta:   map[string]any{"streaming": false, "concurrency": 4.0}},
	// Every request failed: AIPerf writes no request_count then.
	{name: "aiperf/all-failed", file: "aiperf/all_failed.json", runs: 1, tool: AIPerf,
		want:   map[string]float64{kDone: 0, kNum: 10, kOut: 0, kDur: 1500},
		absent: []string{kTTFT, kE2E, kUser},
		notes:  []string{"no request completed"}},
	// profile_export.jsonl: a warm-up record (left out of everything), a
	// blank line, an errored and a cancelled record (counted, not
	// completed). Completed: a (start 1000 ms, end 1500, ttft 100, e2e 500,
	// 5 tokens, 10 tok/s/user) and b (1250, 2000, ttft 50000000 ns = 50 ms,
	// e2e 750 ms, 15 tokens, 20 tok/s/user).
	{name: "aiperf/records", file: "aiperf/profile_export.jsonl", records: true, opt: Options{SLA: sla(50, 50, 0)}, tool: AIPerf,
		want: map[string]float64{
			kDur:  1000, // 2000 − 1000 (c's earlier start and d's later end do not count)
			kOut:  20,   // (5 + 15) / 1 s
			kTTFT: 75,   // (100 + 50) / 2
			kE2E:  625,  // (500 + 750) / 2
			kTPOT: 75,   // ((500−100)/4 + (750−50)/14) / 2 = (100 + 50) / 2
			kUser: 15,   // (10 + 20) / 2, not 1000 / 75
			kGood: 15,   // a: 100 > 50; b: 50 ≤ 50 and 50 ≤ 50: 15 tokens / 1 s
			kDone: 2,
			kNum:  4, // a, b, c, d; not the warm-up
		},
		notes: []string{"mean of aiperf's per-request figure over 2 requests"}},

	// GenAI-Perf: nested input_config, duration from count / rate.
	{name: "genai-perf/streaming", file: "genai-perf/streaming.json", runs: 1, tool: GenAIPerf,
		want: map[string]float64{
			kDur:  20000, // 50 requests / 2.5 requests/sec = 20 s
			kOut:  640,
			kE2E:  3200,
			kTTFT: 120,
			kTPOT: 12.5,
			kUser: 81, // output_token_throughput_per_user, not 1000 / 12.5 = 80
			kDone: 50,
		},
		absent: []string{kGood},
		notes:  []string{"request_count / request_throughput", "request_goodput is requests/s", "genai-perf's output_token_throughput_per_user avg"},
		meta: map[string]any{"model": "meta/llama-3.1-8b-instruct", "backend": "tensorrtllm", "endpoint_type": "chat",
			"streaming": true, "concurrency": 8.0}},
	// An older release: flat input_config, the per-request throughput
	// (TTFT included) only.
	{name: "genai-perf/old", file: "genai-perf/streaming_old.json", runs: 1, tool: GenAIPerf,
		want: map[string]float64{
			kDur:  32000, // 16 / 0.5 = 32 s
			kTTFT: 400,
			kUser: 125, // 1000 / 8, not output_token_throughput_per_request 100
		},
		notes: []string{"output_token_throughput_per_request is output tokens / request latency", noteTPOT},
		meta:  map[string]any{"model": "old/model", "backend": "vllm", "endpoint_type": "completions", "concurrency": 1.0, "streaming": true}},
	// Non-streaming: time_to_first_token is the whole response.
	{name: "genai-perf/nonstreaming", file: "genai-perf/nonstreaming.json", runs: 1, tool: GenAIPerf,
		want:   map[string]float64{kDur: 25000, kE2E: 250, kOut: 512}, // 100 / 4.0 = 25 s
		absent: []string{kTTFT, kTPOT, kUser},
		notes:  []string{"a non-streaming run's time_to_first_token is the whole response"},
		meta:   map[string]any{"streaming": false, "request_rate": 4.0}},
	{name: "genai-perf/failed", file: "genai-perf/failed.json", runs: 1, tool: GenAIPerf,
		want:   map[string]float64{kDone: 0, kOut: 0},
		absent: []string{kTTFT, kTPOT, kE2E, kUser, kDur}, // request_throughput 0: no duration
		notes:  []string{"no request completed", "duration_ms left out"}},

	// LLMPerf: all seconds, strings for numbers, NaN stddev. Options.GPUs 4.
	{name: "llmperf/summary", file: "llmperf/summary.json", opt: Options{GPUs: 4}, runs: 1, tool: LLMPerf,
		want: map[string]float64{
			kDur:  80000, // 100 completed / (75 per min / 60) = 100 / 1.25 = 80 s
			kOut:  210.5,
			kTTFT: 250,  // 0.25 s × 1000
			kE2E:  3500, // "3.5" s × 1000
			kGPUh: 4 * 80000 / hourMs,
			kDone: 100,
			kNum:  100, // 100 + 0 errors
		},
		absent: []string{kTPOT, kUser}, // ITL 0.02 s includes TTFT: 1000/20 would be a substitute
		notes:  []string{"not a TPOT", "not used as the per-user rate"},
		meta: map[string]any{"model": "meta-llama/Llama-2-70b-chat-hf", "version": "2023-08-31",
			"num_concurrent_requests": 5.0, "timestamp": 1.7e9, "mean_input_tokens": 550.0},
		notMeta: []string{"results_ttft_s_mean", "results_error_code_frequency"}},
	{name: "llmperf/failed", file: "llmperf/failed.json", runs: 1, tool: LLMPerf,
		want:   map[string]float64{kDone: 0, kNum: 10, kOut: 0},
		absent: []string{kTTFT, kE2E, kDur},
		notes:  []string{"no request completed"}},

	// trtllm-bench: world_info.world_size is the GPU count.
	{name: "trtllm/streaming", file: "trtllm/streaming.json", runs: 1, tool: TRTLLM,
		want: map[string]float64{
			kDur:  2000, // total_latency_ms
			kOut:  1000,
			kE2E:  500,
			kTTFT: 30,
			kTPOT: 20,
			kUser: 50, // token_output_speed_tok_s, not output_throughput_per_user_tok_s 40
			kGPUh: 4 * 2000 / hourMs,
			kDone: 10,
			kNum:  10,
		},
		notes: []string{"token_output_speed_tok_s, the generation-phase", "gpu_hours is 4 GPUs"},
		meta:  map[string]any{"model": "m", "version": "0.20", "backend": "Pytorch", "world_size": 4.0, "tp_size": 4.0, "used_gpus": 4}},
	// Non-streaming, and Options.GPUs overrides world_size 2.
	{name: "trtllm/nonstreaming", file: "trtllm/nonstreaming.json", opt: Options{GPUs: 8}, runs: 1, tool: TRTLLM,
		want: map[string]float64{
			kDur:  90000,
			kOut:  720,
			kE2E:  17000,
			kGPUh: 0.2, // 8 × 90000 / 3.6e6
		},
		absent: []string{kTTFT, kTPOT, kUser}, // not output_throughput_per_user_tok_s 7.5
		notes:  []string{"no streaming_metrics"},
		meta:   map[string]any{"used_gpus": 8, "world_size": 2.0}},
	{name: "trtllm/failed", file: "trtllm/failed.json", runs: 1, tool: TRTLLM,
		want:   map[string]float64{kDone: 0, kOut: 0},
		absent: []string{kTTFT, kTPOT, kE2E, kUser},
		notes:  []string{"no request completed"}},

	// The replay's report: kept as spica.ParseReport reads it.
	{name: "dynamo/report", file: "dynamo/report.json", opt: Options{GPUs: 8, SLA: sla(0, 0, 1000)}, runs: 1, tool: Dynamo,
		want: map[string]float64{
			kOut:                 1500,
			kGood:                1400, // the replay's own tokens/s goodput
			kGPUh:                0.13333333333333333,
			"std_ttft_ms":        math.NaN(),
			"max_e2e_latency_ms": math.Inf(1),
			"num_requests":       100,
		},
		absent:  []string{spica.MetricPlannerTotalTicks, "config", "trace"}, // null; object; string
		meta:    map[string]any{"trace": "mooncake.jsonl", "ok": true, "used_gpus": 8},
		notMeta: []string{"config", "num_requests"}},
	// The replay's per-request records: a, b, d completed, c failed.
	{name: "dynamo/records", file: "dynamo/requests.jsonl", records: true, opt: Options{SLA: sla(100, 100, 0)}, tool: Dynamo,
		want: map[string]float64{
			kDur:  1000,         // the last token time of a, b, d: max(400, 1000, 600)
			kOut:  9,            // (4 + 4 + 1) tokens / 1 s
			kTTFT: 250.0 / 3,    // (100 + 50 + 100) / 3
			kE2E:  1300.0 / 3,   // (400 + 800 + 100) / 3
			kTPOT: 175,          // ((400−100)/3 + (800−50)/3) / 2 = (100 + 250) / 2
			kUser: 1000.0 / 175, // no gaps, no per-user figure
			kGood: 5,            // a: 100 ≤ 100, 100 ≤ 100 (4); b: 250 > 100; d: one token (1): 5 / 1 s
			kDone: 3,
			kNum:  4,
		},
		notes: []string{"last token time", noteTPOT}},
}

func TestFixtures(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			data := readTestdata(t, f.file)
			var run Run
			if f.records {
				var err error
				if run, err = ReadRequests(data, f.opt); err != nil {
					t.Fatal(err)
				}
			} else {
				runs, err := Read(data, f.opt)
				if err != nil {
					t.Fatal(err)
				}
				if len(runs) != f.runs {
					t.Fatalf("%d runs, want %d", len(runs), f.runs)
				}
				run = runs[f.index]
			}
			if run.Tool != f.tool || run.Source != f.source {
				t.Errorf("Tool %q Source %q, want %q %q", run.Tool, run.Source, f.tool, f.source)
			}
			for k, w := range f.want {
				if got, ok := run.Report[k]; !ok || !same(got, w) {
					t.Errorf("%s = %v (present %v), want %v", k, got, ok, w)
				}
			}
			for _, k := range f.absent {
				if v, ok := run.Report[k]; ok {
					t.Errorf("%s = %v, want it left out", k, v)
				}
			}
			for _, n := range f.notes {
				if !slices.ContainsFunc(run.Notes, func(s string) bool { return strings.Contains(s, n) }) {
					t.Errorf("no note says %q; notes:\n%s", n, strings.Join(run.Notes, "\n"))
				}
			}
			for k, w := range f.meta {
				if got, ok := run.Meta[k]; !ok || got != w {
					t.Errorf("Meta[%q] = %#v (present %v), want %#v", k, got, ok, w)
				}
			}
			for _, k := range f.notMeta {
				if v, ok := run.Meta[k]; ok {
					t.Errorf("Meta[%q] = %#v, want it absent", k, v)
				}
			}
			if run.Meta == nil {
				t.Error("Meta is nil")
			}
			if _, err := json.Marshal(run.Meta); err != nil {
				t.Errorf("Meta is not JSON-safe: %v", err)
			}
			checkNotes(t, run)
			// Every key left out is said so: each of the nine metric
			// keys is in the report or named by a note.
			if f.tool != Dynamo {
				for _, k := range spica.MetricKeys() {
					if _, ok := run.Report[k]; ok || k == spica.MetricPlannerTotalTicks {
						continue
					}
					if !slices.ContainsFunc(run.Notes, func(s string) bool { return strings.Contains(s, k) }) {
						t.Errorf("%s is missing and no note names it; notes:\n%s", k, strings.Join(run.Notes, "\n"))
					}
				}
			}
		})
	}
}

// checkNotes fails when a note says how a metric key was obtained
// ("<key> is …") and the report has no such key.
func checkNotes(t *testing.T, run Run) {
	t.Helper()
	for _, n := range run.Notes {
		key, _, ok := strings.Cut(n, " is ")
		if !ok || !slices.Contains(spica.MetricKeys(), key) {
			continue
		}
		if _, in := run.Report[key]; !in {
			t.Errorf("note %q, yet %s is not in the report", n, key)
		}
	}
}
