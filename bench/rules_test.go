package bench

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spica-search/spica"
)

// perTool names, for every tool, a fixture holding one run whose time to
// first token is written as key followed by value, so that the rules the
// readers share can be checked on each tool by editing that value.
var perTool = []struct {
	tool  Tool
	file  string
	index int    // the run of the file holding the value
	key   string // the text just before the value
	value string // the value's text
	path  string // the error Path naming it
	scale float64
}{
	{Dynamo, "dynamo/report.json", 0, `"mean_ttft_ms": `, "80.0", "mean_ttft_ms", 1},
	{VLLM, "vllm/serve_e2el.json", 0, `"mean_ttft_ms": `, "40.0", "mean_ttft_ms", 1},
	{SGLang, "sglang/runs.jsonl", 1, `"mean_ttft_ms": `, "45.5", "mean_ttft_ms", 1},
	{AIPerf, "aiperf/streaming.json", 0, `"time_to_first_token": {"unit": "ms", "avg": `, "62.5", "time_to_first_token.avg", 1},
	{GenAIPerf, "genai-perf/streaming.json", 0, `"time_to_first_token": {"unit": "ms", "avg": `, "120.0", "time_to_first_token.avg", 1},
	{LLMPerf, "llmperf/summary.json", 0, `"results_ttft_s_mean": `, "0.25", "results_ttft_s_mean", 1000},
	{TRTLLM, "trtllm/streaming.json", 0, `"avg_ttft_ms": `, "30", "streaming_metrics.avg_ttft_ms", 1},
}

// edit replaces the value after key (its only occurrence) by repl; at is
// the byte offset of the replacement.
func edit(t *testing.T, data []byte, key, value, repl string) (out []byte, at int) {
	t.Helper()
	if bytes.Count(data, []byte(key+value)) != 1 {
		t.Fatalf("%q is not in the fixture exactly once", key+value)
	}
	at = bytes.Index(data, []byte(key+value)) + len(key)
	out = append(append(append([]byte{}, data[:at]...), repl...), data[at+len(value):]...)
	return out, at
}

func readIndex(t *testing.T, data []byte, opt Options, index int) Run {
	t.Helper()
	runs, err := Read(data, opt)
	if err != nil {
		t.Fatal(err)
	}
	if index >= len(runs) {
		t.Fatalf("%d runs, want run %d", len(runs), index)
	}
	return runs[index]
}

// TestNumberSpellings: bare NaN/Infinity/-Infinity, the strings "inf",
// "nan", "Infinity" and numbers written as strings, null, and what is no
// number at all, under one mapped key of every tool.
func TestNumberSpellings(t *testing.T) {
	for _, c := range perTool {
		t.Run(string(c.tool), func(t *testing.T) {
			data := readTestdata(t, c.file)
			for _, s := range []struct {
				text    string
				want    float64
				missing bool
				strict  bool // a string spica.ParseReport refuses under a metric key
			}{
				{text: "NaN", want: math.NaN()},
				{text: "Infinity", want: math.Inf(1)},
				{text: "-Infinity", want: math.Inf(-1)},
				{text: `"Infinity"`, want: math.Inf(1)},
				{text: `"NaN"`, want: math.NaN()},
				{text: `"inf"`, want: math.Inf(1), strict: true},
				{text: `"nan"`, want: math.NaN(), strict: true},
				{text: `"-inf"`, want: math.Inf(-1), strict: true},
				{text: `"12.5"`, want: 12.5 * c.scale, strict: true},
				{text: `"1e2"`, want: 100 * c.scale, strict: true},
				{text: "1E2", want: 100 * c.scale},
				{text: "-0.0", want: 0},
				{text: "null", missing: true},
			} {
				edited, _ := edit(t, data, c.key, c.value, s.text)
				if c.tool == Dynamo && s.strict {
					if _, err := Read(edited, Options{}); !errors.Is(err, spica.ErrInvalidReport) {
						t.Errorf("%s: err %v, want spica.ParseReport's ErrInvalidReport", s.text, err)
					}
					continue
				}
				run := readIndex(t, edited, Options{}, c.index)
				got, ok := run.Report[kTTFT]
				switch {
				case s.missing && ok:
					t.Errorf("%s: mean_ttft_ms = %v, want it left out", s.text, got)
				case !s.missing && (!ok || !same(got, s.want)):
					t.Errorf("%s: mean_ttft_ms = %v (present %v), want %v", s.text, got, ok, s.want)
				}
			}
		})
	}
}

// TestNotANumber: a value that must be a number and is not is an error
// naming the tool's key, at the value's byte offset.
func TestNotANumber(t *testing.T) {
	for _, c := range perTool {
		t.Run(string(c.tool), func(t *testing.T) {
			data := readTestdata(t, c.file)
			for _, text := range []string{"true", `"fast"`, "[1]", `{"v": 1}`, `"0x10"`, `"1_000"`, `""`, `"\u0031"`} {
				edited, at := edit(t, data, c.key, c.value, text)
				_, err := Read(edited, Options{Tool: c.tool})
				var e *spica.Error
				if !errors.As(err, &e) || !errors.Is(err, spica.ErrInvalidReport) || e.Path != c.path || e.Offset != int64(at) {
					t.Errorf("%s: err %v (%#v), want Path %q at byte %d", text, err, e, c.path, at)
				}
			}
		})
	}
}

// TestDuplicateKey: a mapped key given twice is ErrDuplicateKey, which
// value was meant being unknowable.
func TestDuplicateKey(t *testing.T) {
	for _, c := range perTool {
		t.Run(string(c.tool), func(t *testing.T) {
			data := readTestdata(t, c.file)
			// "…": 40.0, "…": 40.0 — the key's own text repeated after the value.
			name := c.key[strings.LastIndex(c.key[:len(c.key)-3], `"`):]
			edited, _ := edit(t, data, c.key, c.value, c.value+", "+name+c.value)
			_, err := Read(edited, Options{})
			if !errors.Is(err, spica.ErrDuplicateKey) || errors.Is(err, spica.ErrInvalidReport) {
				t.Errorf("err %v, want ErrDuplicateKey only", err)
			}
		})
	}
}

// TestUnknownKeys: keys of a later release, at the top and beside the
// mapped value, change nothing.
func TestUnknownKeys(t *testing.T) {
	extra := `"zz_key_of_a_later_release": {"a": [1, "x", null, NaN, {"b": Infinity}]}, "zz_flag": true`
	for _, c := range perTool {
		t.Run(string(c.tool), func(t *testing.T) {
			data := readTestdata(t, c.file)
			want := readIndex(t, data, Options{}, c.index)
			// Beside the mapped value, and first in the file's first object.
			edited, _ := edit(t, data, c.key, c.value, c.value+", "+extra)
			first := bytes.IndexByte(edited, '{') + 1
			edited = append(append(append([]byte{}, edited[:first]...), strings.ReplaceAll(extra, "zz_", "zy_")+", "...), edited[first:]...)
			got := readIndex(t, edited, Options{}, c.index)
			if diff := cmp.Diff(want.Report, got.Report, sameReport); diff != "" {
				t.Errorf("report changed (-want +got):\n%s", diff)
			}
			if got.Tool != c.tool {
				t.Errorf("detected %q", got.Tool)
			}
		})
	}
}

// oneLine makes a pretty-printed fixture one line of JSON lines: a raw
// newline never stands inside a JSON string, so it is white space.
func oneLine(data []byte) []byte {
	return bytes.TrimSpace(bytes.ReplaceAll(data, []byte("\n"), []byte(" ")))
}

// TestJSONLines: every tool's run as JSON lines, with blank lines (and
// with CRLF line ends), then a bad line named by its number.
func TestJSONLines(t *testing.T) {
	for _, c := range perTool {
		t.Run(string(c.tool), func(t *testing.T) {
			data := readTestdata(t, c.file)
			want := readIndex(t, data, Options{}, c.index)
			line := oneLine(data)
			if c.tool == SGLang {
				line = bytes.Split(data, []byte("\n"))[2] // the run on line 3
			}
			lines := bytes.Join([][]byte{line, nil, line, []byte(" \t"), nil}, []byte("\n"))
			crlf := bytes.Join([][]byte{line, nil, line, nil}, []byte("\r\n"))
			for _, in := range [][]byte{lines, crlf} {
				runs, err := Read(in, Options{})
				if err != nil || len(runs) != 2 {
					t.Fatalf("%d runs, %v", len(runs), err)
				}
				for i, src := range []string{":1", ":3"} {
					if runs[i].Source != src || runs[i].Tool != c.tool {
						t.Errorf("run %d: Source %q Tool %q, want %q %q", i, runs[i].Source, runs[i].Tool, src, c.tool)
					}
					if diff := cmp.Diff(want.Report, runs[i].Report, sameReport); diff != "" {
						t.Errorf("run %d (-want +got):\n%s", i, diff)
					}
				}
			}
			// Line 4 is cut short: `{"duration": ` then the newline.
			// Lines 1 to 3 take 2·len(line) + 3 bytes, line 4 begins
			// there, and the value is missing at the end of its text and
			// newline.
			bad := append(append([]byte{}, lines[:2*len(line)+3]...), "{\"duration\": \n"...)
			_, err := Read(bad, Options{})
			var e *spica.Error
			wantAt := int64(2*len(line) + 3 + len(`{"duration": `) + 1)
			if !errors.As(err, &e) || !errors.Is(err, spica.ErrInvalidReport) || !strings.HasPrefix(e.Msg, "line 4: ") || e.Offset != wantAt {
				t.Errorf("err %v (%#v), want line 4 at byte %d", err, e, wantAt)
			}
		})
	}
}

// TestReadFilesGzip: a ".gz" file reads as its content, every tool.
func TestReadFilesGzip(t *testing.T) {
	dir := t.TempDir()
	for _, c := range perTool {
		data := readTestdata(t, c.file)
		want, err := Read(data, Options{GPUs: 3})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(data)
		zw.Close()
		name := filepath.Join(dir, string(c.tool)+".json.gz")
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFiles(name, Options{GPUs: 3})
		if err != nil || len(got) != len(want) {
			t.Fatalf("%s: %d runs, %v", c.tool, len(got), err)
		}
		for i := range got {
			if got[i].Source != name+want[i].Source || got[i].Tool != c.tool {
				t.Errorf("%s: Source %q Tool %q", c.tool, got[i].Source, got[i].Tool)
			}
			if diff := cmp.Diff(want[i].Report, got[i].Report, sameReport); diff != "" {
				t.Errorf("%s (-want +got):\n%s", c.tool, diff)
			}
		}
	}
	// The committed fixture and its gzip -n copy, in Glob's order.
	runs, err := ReadFiles("testdata/vllm/serve_e2el.json*", Options{})
	if err != nil || len(runs) != 2 || runs[0].Source != "testdata/vllm/serve_e2el.json" || runs[1].Source != "testdata/vllm/serve_e2el.json.gz" {
		t.Fatalf("%v %v", runs, err)
	}
	if diff := cmp.Diff(runs[0].Report, runs[1].Report, sameReport); diff != "" || runs[1].Report[kE2E] != 2527.5 {
		t.Errorf("(-json +gz):\n%s", diff)
	}
}

// TestDetect: every fixture is claimed by exactly its tool, the same on
// every call; a document two tools claim is an error naming both, and
// Options.Tool decides it.
func TestDetect(t *testing.T) {
	for _, f := range fixtures {
		if f.records || f.opt.Tool != "" {
			continue
		}
		data := readTestdata(t, f.file)
		for range 3 {
			if got, err := Detect(data); got != f.tool || err != nil {
				t.Errorf("%s: Detect = %q, %v, want %q", f.file, got, err, f.tool)
			}
		}
	}
	data := readTestdata(t, "vllm/ambiguous_sglang.json")
	for range 3 {
		tool, err := Detect(data)
		var e *spica.Error
		if tool != "" || !errors.As(err, &e) || !errors.Is(err, spica.ErrInvalidReport) ||
			!strings.Contains(e.Msg, "match vllm, sglang: set Options.Tool") || e.Offset != 0 {
			t.Errorf("Detect = %q, %v", tool, err)
		}
		if _, err := Read(data, Options{}); err == nil || !strings.Contains(err.Error(), "vllm, sglang") {
			t.Errorf("Read: %v", err)
		}
	}
}

// TestGoodputNeedsRecords: with an SLA, a document without per-request
// records gets no goodput — its requests/s goodput never becomes tokens/s.
func TestGoodputNeedsRecords(t *testing.T) {
	for _, c := range perTool {
		if c.tool == Dynamo {
			continue // the replay writes tokens/s goodput itself (TestFixtures)
		}
		run := readIndex(t, readTestdata(t, c.file), Options{SLA: sla(1000, 100, 0)}, c.index)
		if v, ok := run.Report[kGood]; ok {
			t.Errorf("%s: goodput %v, want it left out", c.tool, v)
		}
		if !strings.Contains(strings.Join(run.Notes, "\n"), "the document has no per-request records (a requests/s goodput is not tokens/s)") {
			t.Errorf("%s: notes %q", c.tool, run.Notes)
		}
	}
}

// TestMetaMakesCandidates: with Options.GPUs, Meta and Report are a
// candidate as they are: its GPU count, and per-GPU throughput divided by
// that count.
func TestMetaMakesCandidates(t *testing.T) {
	goal := spica.OptimizationGoal{Target: spica.TargetThroughputPerGPU}
	for _, c := range perTool {
		run := readIndex(t, readTestdata(t, c.file), Options{GPUs: 2}, c.index)
		cand, err := spica.MakeCandidate(run.Meta, run.Report, goal)
		if err != nil {
			t.Fatalf("%s: %v", c.tool, err)
		}
		// gpu_hours = 2 × duration_ms / 3.6e6, so AvgGPU is 2 and the
		// score is the throughput / 2; the replay's report keeps its own
		// gpu_hours (8 GPUs × 60 s: 0.1333… h over 60000 ms is 8).
		gpus := 2.0
		if c.tool == Dynamo {
			gpus = 8
		}
		if cand.UsedGPUs != 2 || !same(cand.Score, run.Report[kOut]/gpus) {
			t.Errorf("%s: UsedGPUs %d Score %v, want 2 and %v / %v", c.tool, cand.UsedGPUs, cand.Score, run.Report[kOut], gpus)
		}
	}
}

// TestFailedRunNeverBest: a run where no request completed ranks last on
// latency and on per-user rate, whatever 0 ms its tool wrote.
func TestFailedRunNeverBest(t *testing.T) {
	pairs := []struct{ good, failed string }{
		{"vllm/serve_e2el.json", "vllm/all_failed.json"},
		{"sglang/runs.jsonl", "sglang/runs.jsonl"},
		{"aiperf/streaming.json", "aiperf/all_failed.json"},
		{"genai-perf/streaming.json", "genai-perf/failed.json"},
		{"llmperf/summary.json", "llmperf/failed.json"},
		{"trtllm/streaming.json", "trtllm/failed.json"},
	}
	for _, p := range pairs {
		good, failed := readIndex(t, readTestdata(t, p.good), Options{}, 0), readIndex(t, readTestdata(t, p.failed), Options{}, 0)
		if p.failed == "sglang/runs.jsonl" {
			failed = readIndex(t, readTestdata(t, p.failed), Options{}, 2)
		}
		for _, target := range []spica.OptimizationTarget{spica.TargetE2ELatency, spica.TargetThroughputPerUser, spica.TargetThroughput} {
			goal := spica.OptimizationGoal{Target: target}
			var cands []spica.Candidate
			for _, run := range []Run{failed, good} {
				c, err := spica.MakeCandidate(run.Meta, run.Report, goal)
				if err != nil {
					t.Fatal(err)
				}
				cands = append(cands, c)
			}
			ranked := spica.Rank(cands)
			if ranked[0].Score != cands[1].Score || ranked[1].Score != cands[0].Score {
				t.Errorf("%s, %v: ranked %v, %v; want the failed run (%v) last", p.failed, target, ranked[0].Score, ranked[1].Score, cands[0].Score)
			}
		}
	}
}

// TestDetectDecides: documents that share a shape are told apart by the
// keys only one tool writes, the same way on every call; where both
// tools' keys stand, the error names both in the order of the Tool
// constants.
func TestDetectDecides(t *testing.T) {
	metric := `{"unit": "ms", "avg": 1}`
	for _, c := range []struct {
		doc  string
		want Tool // "" for an error
		msg  string
	}{
		// Metric objects: AIPerf's own keys decide against GenAI-Perf.
		{`{"request_latency": ` + metric + `}`, GenAIPerf, ""},
		{`{"request_latency": ` + metric + `, "aiperf_version": "0.3.0"}`, AIPerf, ""},
		{`{"time_to_first_token": ` + metric + `, "benchmark_duration": ` + metric + `}`, AIPerf, ""},
		{`{"request_latency": 5}`, "", "no tool matches"}, // not a metric object
		{`{"records": {}}`, AIPerf, ""},
		{`{"records": []}`, "", "no tool matches"},
		// vLLM and SGLang: their keys count only beside "duration".
		{`{"duration": 1, "model_id": "m"}`, VLLM, ""},
		{`{"duration": 1, "mean_e2el_ms": 1}`, VLLM, ""},
		{`{"duration": 1, "request_goodput:": null}`, VLLM, ""},
		{`{"duration": 1, "dataset_name": "random"}`, SGLang, ""},
		{`{"duration": 1, "server_info": {}}`, SGLang, ""},
		{`{"model_id": "m", "dataset_name": "random"}`, "", "no tool matches"},
		{`{"duration": 1, "model_id": "m", "dataset_name": "random"}`, "", "match vllm, sglang"},
		// trtllm-bench: world_info, or performance beside request_info.
		{`{"world_info": {}}`, TRTLLM, ""},
		{`{"performance": {}, "request_info": {}}`, TRTLLM, ""},
		{`{"performance": {}}`, "", "no tool matches"},
		// LLMPerf: a results_ key; the replay: its own keys.
		{`{"results_ttft_s_mean": 1}`, LLMPerf, ""},
		{`{"gpu_hours": 1}`, Dynamo, ""},
		{`{"gpu_hours": 1, "results_x": 1, "world_info": {}}`, "", "match dynamo, llmperf, trtllm-bench"},
		{`{"duration": 1, "duration_ms": 1, "dataset_name": "x", "model_id": "m"}`, "", "match dynamo, vllm, sglang"},
	} {
		for range 2 {
			got, err := Detect([]byte(c.doc))
			if got != c.want || (c.want == "") != (err != nil) || (err != nil && !strings.Contains(err.Error(), c.msg)) {
				t.Errorf("%s: %q, %v; want %q %q", c.doc, got, err, c.want, c.msg)
			}
		}
	}
}

// TestBadLineFixtures: the committed JSON-lines fixtures with a bad line,
// each error at the byte counted by hand.
func TestBadLineFixtures(t *testing.T) {
	for _, c := range []struct {
		file    string
		records bool
		path    string
		offset  int64
		msg     string
	}{
		// Line 3 (158 bytes) lacks its closing brace: the input ends
		// first, at 158 + 1 + 1 + 158 + 1 = 319, the file's size.
		{"vllm/bad_line.jsonl", false, "", 319, "line 3: unexpected end of input, want ',' or '}' in an object"},
		// Line 1 is 128 bytes and its newline; "many" stands 78 bytes into
		// line 2 (`{"backend": "sglang", "dataset_name": "random",
		// "duration": 1.0, "completed": `): 129 + 78.
		{"sglang/bad_line.jsonl", false, "completed", 207, `line 2: is "many", want a number`},
		// Line 1 is 231 bytes and its newline; "slow" stands 138 bytes
		// into line 2, after `…"request_latency": {"value": `: 232 + 138.
		{"aiperf/bad_records.jsonl", true, "metrics.request_latency.value", 370, `line 2: is "slow", want a number`},
	} {
		data := readTestdata(t, c.file)
		var err error
		if c.records {
			_, err = ReadRequests(data, Options{})
		} else {
			_, err = Read(data, Options{})
		}
		var e *spica.Error
		if !errors.As(err, &e) || !errors.Is(err, spica.ErrInvalidReport) || e.Path != c.path || e.Offset != c.offset || e.Msg != c.msg {
			t.Errorf("%s: %v (%#v)", c.file, err, e)
		}
	}
	// The good line of each reads alone.
	runs, err := Read(bytes.SplitN(readTestdata(t, "vllm/bad_line.jsonl"), []byte("\n"), 2)[0], Options{})
	if err != nil || runs[0].Report[kUser] != 200 { // 1000 / 5.0
		t.Errorf("%v %v", runs, err)
	}
}
