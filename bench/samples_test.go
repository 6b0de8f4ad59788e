package bench

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/spica-search/spica"
)

// samples is the folder of real outputs (SPEC §13), beside the repository.
const samples = "../../shared/bench-samples"

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestSamples reads every real output and checks values computed by hand
// from the files' raw numbers.
func TestSamples(t *testing.T) {
	if _, err := os.Stat(samples); err != nil {
		t.Skip("no bench-samples folder:", err)
	}
	for _, p := range []string{"vllm/*.json", "sglang/*.jsonl", "aiperf/*_gptoss20b*.json", "genai-perf/*.json", "llmperf/*_summary.json"} {
		if _, err := ReadFiles(filepath.Join(samples, p), Options{}); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	if _, err := ReadRequests(mustRead(t, "aiperf/run1_streaming_gptoss20b_records.jsonl"), Options{}); err != nil {
		t.Error(err)
	}
	one := func(name string) Run {
		runs, err := Read(mustRead(t, name), Options{GPUs: 2})
		if err != nil || len(runs) == 0 {
			t.Fatalf("%s: %v", name, err)
		}
		return runs[0]
	}
	type want struct {
		key string
		v   float64
	}
	cases := []struct {
		file   string
		want   []want
		absent []string
	}{
		// "duration": 1.5441598830002476 s → 1544.1598830002476 ms;
		// per user 1000 / "mean_tpot_ms" 11.265828258331112 = 88.7640018…;
		// gpu_hours 2 × 1544.1598830002476 / 3.6e6.
		{"vllm/bench_serve_v0.25.1.json", []want{{"duration_ms", 1544.1598830002476},
			{"mean_output_token_throughput_per_user", 1000 / 11.265828258331112},
			{"gpu_hours", 2 * 1544.1598830002476 / 3.6e6}}, []string{"mean_e2e_latency_ms"}},
		// "completed": 0, "failed": 8: a failed run, its 0.0 ms latencies dropped.
		{"vllm/all_failed_v0.25.1.json", []want{{"completed_requests", 0}, {"num_requests", 8}, {"output_throughput_tok_s", 0}},
			[]string{"mean_ttft_ms", "mean_tpot_ms", "mean_output_token_throughput_per_user"}},
		// "duration": 412.49091206211597 s; "mean_e2e_latency_ms": 381236.82297268615; median-only TTFT.
		{"sglang/deepseek_dp_mla_output.jsonl", []want{{"duration_ms", 412490.91206211597}, {"mean_e2e_latency_ms", 381236.82297268615}},
			[]string{"mean_ttft_ms"}},
		// records.benchmark_duration.avg 9.317788951 "sec"; request_count 89 + error_request_count 11.
		{"aiperf/run1_streaming_gptoss20b.json", []want{{"duration_ms", 9317.788951}, {"num_requests", 100},
			{"mean_output_token_throughput_per_user", 36.68434853220158}}, nil},
		// request_count 66 / request_throughput 0.31455262548511714 = 209.8218… s;
		// per user 1000 / inter_token_latency 7.503457666666667 (per_request includes TTFT).
		{"genai-perf/wellflat_gptoss20b_c1_v1_genai_perf.json", []want{{"duration_ms", 66 / 0.31455262548511714 * 1000},
			{"mean_output_token_throughput_per_user", 1000 / 7.503457666666667}}, nil},
		// 150 completed / (176.73895115400083 per min / 60) = 50.92256… s; ttft 0.22786034579078357 s.
		{"llmperf/groq_70b_summary.json", []want{{"duration_ms", 150 / (176.73895115400083 / 60) * 1000},
			{"mean_ttft_ms", 0.22786034579078357 * 1000}}, []string{"mean_tpot_ms"}},
	}
	for _, c := range cases {
		run := one(c.file)
		for _, w := range c.want {
			if got, ok := run.Report[w.key]; !ok || !near(got, w.v) {
				t.Errorf("%s: %s = %v (present %v), want %v", c.file, w.key, got, ok, w.v)
			}
		}
		for _, k := range c.absent {
			if _, ok := run.Report[k]; ok {
				t.Errorf("%s: %s present, want left out", c.file, k)
			}
		}
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(samples, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDynamoRoundTrip(t *testing.T) {
	data := []byte(`{"output_throughput_tok_s": 100, "duration_ms": NaN, "gpu_hours": "Infinity", "model": "m"}`)
	runs, err := Read(data, Options{})
	want, werr := spica.ParseReport(data)
	if err != nil || werr != nil || len(runs) != 1 || len(runs[0].Report) != len(want) {
		t.Fatalf("Read %v %v, ParseReport %v %v", runs, err, want, werr)
	}
}

func TestBadNumberNamesKey(t *testing.T) {
	data := []byte("{\"duration\": 1, \"model_id\": \"m\", \"completed\": 1}\n\n{\"duration\": true, \"model_id\": \"m\"}\n")
	_, err := Read(data, Options{})
	// Line 1 is 48 bytes + newline, line 2 one newline: line 3 starts at
	// byte 50, and `{"duration": ` is 13 bytes, so true is at 63.
	var e *spica.Error
	if !errors.As(err, &e) || e.Path != "duration" || e.Offset != 63 || !errors.Is(err, spica.ErrInvalidReport) {
		t.Fatalf("err = %#v", err)
	}
}

func TestGoodputBounds(t *testing.T) {
	// One request: ttft 100, e2e 1100, 11 tokens: ITL (1100-100)/10 = 100.
	rec := []byte(`{"arrival_time_ms":0,"last_token_ms":1000,"ttft_ms":100,"e2e_latency_ms":1100,"output_length":11,"terminal_status":"completed"}`)
	for _, c := range []struct {
		sla  spica.SLATarget
		good bool
	}{
		{spica.SLATarget{TTFTMs: 100, ITLMs: 100}, true},
		{spica.SLATarget{TTFTMs: math.Nextafter(100, 0), ITLMs: 100}, false},
		{spica.SLATarget{TTFTMs: 100, ITLMs: math.Nextafter(100, 0)}, false},
		{spica.SLATarget{E2EMs: 1100}, true},
		{spica.SLATarget{E2EMs: math.Nextafter(1100, 2000)}, true},
		{spica.SLATarget{E2EMs: math.Nextafter(1100, 0)}, false},
	} {
		run, err := ReadRequests(rec, Options{SLA: &c.sla})
		if err != nil {
			t.Fatal(err)
		}
		want := 0.0
		if c.good {
			want = 11 // 11 tokens / 1 s
		}
		if got := run.Report[spica.MetricGoodput]; got != want {
			t.Errorf("%+v: goodput %v, want %v", c.sla, got, want)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"duration": 1, "model_id": "x", "itls": [[0.1]], "ttfts": [1], "output_lens": [2]}`))
	f.Add([]byte(`{"records": {"request_count": {"avg": 1}}}`))
	f.Add([]byte(`{"world_info": {"world_size": 8}, "performance": {}}`))
	f.Add([]byte("{\"metadata\":{},\"metrics\":{}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err1 := Read(data, Options{})
		_, err2 := ReadRequests(data, Options{})
		_, err3 := Detect(data)
		for _, err := range []error{err1, err2, err3} {
			if err == nil {
				continue
			}
			n := 0
			for _, s := range []error{spica.ErrInvalidReport, spica.ErrDuplicateKey, spica.ErrInvalidSLA} {
				if errors.Is(err, s) {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("%v wraps %d sentinels", err, n)
			}
		}
	})
}
