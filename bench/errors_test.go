package bench

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spica-search/spica"
)

// TestErrors: every way an input or option is refused, with the sentinel,
// Path, byte offset (counted by hand in the comments) and words of the
// error.
func TestErrors(t *testing.T) {
	const vllmHead = `{"duration": 1, "model_id": "m", ` // 33 bytes: 1 + 10 + 2 + 1 + 2 + 10 + 2 + 3 + 2
	cases := []struct {
		name   string
		call   string // "read", "requests" or "detect"
		data   string
		opt    Options
		err    error
		path   string
		offset int64
		msg    string
	}{
		// Malformed JSON: offsets from the start of the input.
		{"after the value", "read", `{"a": 1} x`, Options{}, spica.ErrInvalidReport, "", 9, "unexpected 'x' after the top-level value"}, // `{"a": 1}` is 8 bytes, a space
		{"true", "read", `{"a": tru}`, Options{}, spica.ErrInvalidReport, "", 6, "invalid literal, want true"},                          // `{"a": ` is 6 bytes
		{"false", "read", `{"a": fals}`, Options{}, spica.ErrInvalidReport, "", 6, "invalid literal, want false"},
		{"null", "read", `{"a": nul}`, Options{}, spica.ErrInvalidReport, "", 6, "invalid literal, want null"},
		{"no value", "read", `{"a": @}`, Options{}, spica.ErrInvalidReport, "", 6, "unexpected '@', want a value"},
		{"control byte", "read", "{\"a\": \"\x01\"}", Options{}, spica.ErrInvalidReport, "", 7, "control character byte 0x01 in a string"},
		{"bad escape", "read", `{"a": "\q"}`, Options{}, spica.ErrInvalidReport, "", 7, `invalid escape 'q' in a string`},
		{"bad \\u", "read", `{"a": "\u12G4"}`, Options{}, spica.ErrInvalidReport, "", 7, `invalid \u escape in a string`},
		{"cut escape", "read", `{"a": "\`, Options{}, spica.ErrInvalidReport, "", 7, "unterminated escape in a string"},
		{"cut \\u", "read", `{"a": "\u004`, Options{}, spica.ErrInvalidReport, "", 7, `invalid \u escape in a string`},
		{"cut string", "read", `{"a": "abc`, Options{}, spica.ErrInvalidReport, "", 6, "unterminated string"}, // at its opening quote
		{"minus", "read", `{"a": -}`, Options{}, spica.ErrInvalidReport, "", 6, "invalid number"},
		{"minus at the end", "read", `{"a": -`, Options{}, spica.ErrInvalidReport, "", 6, "invalid number"},
		{"Inf", "read", `{"a": Inf}`, Options{}, spica.ErrInvalidReport, "", 6, "invalid number"},
		{"dot", "read", `{"a": 1.}`, Options{}, spica.ErrInvalidReport, "", 6, "no digit after '.'"},
		{"exponent", "read", `{"a": 1e+}`, Options{}, spica.ErrInvalidReport, "", 6, "no digit in the exponent"},
		{"exponent at the end", "read", `{"a": 1e`, Options{}, spica.ErrInvalidReport, "", 6, "no digit in the exponent"},
		{"leading zero", "read", `{"a": 01}`, Options{}, spica.ErrInvalidReport, "", 7, "unexpected '1', want ',' or '}' in an object"},
		{"NaNa", "read", `{"a": NaNa}`, Options{}, spica.ErrInvalidReport, "", 9, "unexpected 'a', want ',' or '}' in an object"},
		{"colon", "read", `{"a" 1}`, Options{}, spica.ErrInvalidReport, "", 5, "unexpected '1', want ':' after a key"},
		{"comma", "read", `{"a": 1 "b": 2}`, Options{}, spica.ErrInvalidReport, "", 8, `unexpected '"', want ',' or '}' in an object`},
		{"array comma", "read", `[1 2]`, Options{}, spica.ErrInvalidReport, "", 3, "want ',' or ']' in an array"},
		{"key", "read", `{1: 2}`, Options{}, spica.ErrInvalidReport, "", 1, "unexpected '1', want a string key"},
		{"key escape", "read", `{"a\q": 1}`, Options{}, spica.ErrInvalidReport, "", 3, "invalid escape 'q'"},
		{"end in object", "read", `{"a": 1`, Options{}, spica.ErrInvalidReport, "", 7, "unexpected end of input, want ',' or '}' in an object"},
		{"end for value", "read", `{"a": `, Options{}, spica.ErrInvalidReport, "", 6, "unexpected end of input, want a value"},
		{"empty", "read", ``, Options{}, spica.ErrInvalidReport, "", 0, "unexpected end of input, want a value"},
		// 10001 brackets: the one at byte 10000 is one too deep.
		{"deep", "read", strings.Repeat("[", 10001), Options{}, spica.ErrInvalidReport, "", 10000, "nested more than 10000 deep"},
		{"deep object", "read", strings.Repeat(`{"a":`, 10001), Options{}, spica.ErrInvalidReport, "", 50000, "nested more than 10000 deep"}, // 10000 × 5 bytes

		// Documents that are no run.
		{"not an object", "read", `[1]`, Options{}, spica.ErrInvalidReport, "", 1, "a run must be a JSON object, got a number"},
		{"no tool", "read", `{"a": 1}`, Options{}, spica.ErrInvalidReport, "", 0, "no tool matches the document's keys"},
		// A per-request element that is no number names itself, and the
		// gap in the request's itls list: 33 + 16 + 18 + 15 and 33 + 16 + 8 + 2.
		{"output_lens element", "read", vllmHead + `"ttfts": [0.1], "itls": [[0.01]], "output_lens": [true]}`, Options{}, spica.ErrInvalidReport, "output_lens[0]", 83, "is true, want a number"},
		{"itls element", "read", vllmHead + `"ttfts": [0.1], "itls": [[true, 0.01]], "output_lens": [2]}`, Options{}, spica.ErrInvalidReport, "itls[0][0]", 59, "is true, want a number"},
		{"beyond float64", "read", vllmHead + `"mean_ttft_ms": 1e400}`, Options{}, spica.ErrInvalidReport, "mean_ttft_ms", 49, "is 1e400, beyond the float64 range"},                                                    // 33 + 16
		{"metric not an object", "read", `{"aiperf_version": "1", "request_count": 5, "time_to_first_token": {"avg": 1}}`, Options{}, spica.ErrInvalidReport, "request_count", 41, "is a number, want a metric object"}, // 24 + 17
		{"unit", "read", `{"aiperf_version": "1", "time_to_first_token": {"unit": "h", "avg": 1}}`, Options{}, spica.ErrInvalidReport, "time_to_first_token.unit", 56, `is "h", want a time unit`},                      // 24 + 23 + 9
		{"first array empty", "read", vllmHead + `"ttfts": [], "itls": [[0.1]], "output_lens": [1]}`, Options{}, spica.ErrInvalidReport, "itls", 54, "holds 1 entries, the other per-request arrays 0"},                 // 33 + 13 + 8
		{"arrays differ", "read", vllmHead + `"ttfts": [0.5], "itls": [[]], "output_lens": [1, 2]}`, Options{}, spica.ErrInvalidReport, "output_lens", 78, "holds 2 entries, the other per-request arrays 1"},           // 33 + 16 + 14 + 15
		{"gap", "read", vllmHead + `"ttfts": [0.5], "itls": [[0.25, true]], "output_lens": [2]}`, Options{}, spica.ErrInvalidReport, "itls[0][1]", 65, "is true, want a number"},                                        // 33 + 16 + 8 + 8
		{"ttft", "read", vllmHead + `"ttfts": ["x"], "itls": [[]], "output_lens": [2]}`, Options{}, spica.ErrInvalidReport, "ttfts[0]", 43, `is "x", want a number`},                                                    // 33 + 9 + 1
		{"world size", "read", `{"world_info": {"world_size": 2.5}}`, Options{}, spica.ErrInvalidReport, "world_info.world_size", 30, "is 2.5, want a GPU count"},                                                       // `{"world_info": ` 15 + `{"world_size": ` 15
		{"world size past 2^20", "read", `{"world_info": {"world_size": 1048577}}`, Options{}, spica.ErrInvalidReport, "world_info.world_size", 30, "is 1.048577e+06, want a GPU count"},
		{"dynamo metric", "read", `{"duration_ms": "soon"}`, Options{}, spica.ErrInvalidReport, "duration_ms", 16, "must be a number"},          // `{"duration_ms": ` is 16 bytes
		{"line 2", "read", "{\"duration_ms\": 1}\n{\"duration_ms\": true}\n", Options{}, spica.ErrInvalidReport, "duration_ms", 35, "line 2: "}, // line 1 and its newline 19 bytes, + 16

		// Options.
		{"tool", "read", `{}`, Options{Tool: "vllm2"}, spica.ErrInvalidReport, "Options.Tool", -1, `is "vllm2", want one of dynamo, vllm, sglang, aiperf, genai-perf, llmperf, trtllm-bench`},
		{"gpus", "read", `{}`, Options{GPUs: -1}, spica.ErrInvalidReport, "Options.GPUs", -1, "is -1, want 0 (unknown) or more"},
		{"sla", "read", `{}`, Options{SLA: sla(-1, 0, 0)}, spica.ErrInvalidSLA, "ttft_ms", -1, ""},
		{"requests tool", "requests", `{}`, Options{Tool: "x"}, spica.ErrInvalidReport, "Options.Tool", -1, ""},
		{"requests of vllm", "requests", `{}`, Options{Tool: VLLM}, spica.ErrInvalidReport, "Options.Tool", -1, "per-request records are read for aiperf and dynamo"},

		// Per-request records.
		{"record not an object", "requests", "\n[1]\n", Options{}, spica.ErrInvalidReport, "", 1, "line 2: a record must be a JSON object, got an array"},
		{"unknown record", "requests", `{"x": 1}`, Options{}, spica.ErrInvalidReport, "", 0, "no tool's per-request record"},
		{"no records", "requests", "\n \n", Options{}, spica.ErrInvalidReport, "", 3, "no per-request records"},
		{"warm-up only", "requests", `{"metadata": {"benchmark_phase": "warmup"}, "metrics": {}}`, Options{}, spica.ErrInvalidReport, "", 58, "no per-request records"},
		{"bad record line", "requests", "{\"terminal_status\": \"completed\"}\n{\"x\": }\n", Options{}, spica.ErrInvalidReport, "", 39, "line 2: unexpected '}'"}, // 33 + 6
		{"record value", "requests", `{"terminal_status": "completed", "ttft_ms": "x"}`, Options{}, spica.ErrInvalidReport, "ttft_ms", 44, ""},

		// Detect.
		{"detect malformed", "detect", `{"a": 1} x`, Options{}, spica.ErrInvalidReport, "", 9, "after the top-level value"},
		{"detect empty array", "detect", `[]`, Options{}, spica.ErrInvalidReport, "", 0, "an empty array holds no run"},
		{"detect array of numbers", "detect", `[1]`, Options{}, spica.ErrInvalidReport, "", 1, "a run must be a JSON object, got a number"},
		{"detect string", "detect", `"x"`, Options{}, spica.ErrInvalidReport, "", 0, "got a string"},
		{"detect nothing", "detect", `{}`, Options{}, spica.ErrInvalidReport, "", 0, "no tool matches"},
		{"detect lines", "detect", "[1]\n{}\n", Options{}, spica.ErrInvalidReport, "", 1, "line 1: a run must be a JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The input's capacity is its length: a read past its end faults.
			data := slices.Clip([]byte(c.data))
			var err error
			switch c.call {
			case "read":
				_, err = Read(data, c.opt)
			case "requests":
				_, err = ReadRequests(data, c.opt)
			default:
				_, err = Detect(data)
			}
			var e *spica.Error
			if !errors.As(err, &e) || !errors.Is(err, c.err) || e.Path != c.path || e.Offset != c.offset || !strings.Contains(e.Msg, c.msg) {
				t.Fatalf("err %v\n%#v\nwant %v, Path %q, Offset %d, Msg with %q", err, e, c.err, c.path, c.offset, c.msg)
			}
			checkError(t, err)
		})
	}
}

// TestReadFilesErrors: a malformed pattern, an unreadable file, a broken
// gzip stream and a file Read refuses, each named.
func TestReadFilesErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sub := filepath.Join(dir, "sub.json")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	bad := write("bad.json", `{"a": 1}`)
	gz := write("x.json.gz", "this is not a gzip stream")
	for _, c := range []struct {
		pattern string
		opt     Options
		offset  int64
		msg     string
	}{
		{"[", Options{}, -1, `pattern "[": syntax error in pattern`},
		{sub, Options{}, -1, sub + ": "},
		{gz, Options{}, -1, gz + ": gzip: invalid header"},
		{bad, Options{}, 0, bad + ": no tool matches"},
		{bad, Options{GPUs: -2}, -1, "is -2"},
	} {
		_, err := ReadFiles(c.pattern, c.opt)
		var e *spica.Error
		if !errors.As(err, &e) || !errors.Is(err, spica.ErrInvalidReport) || e.Offset != c.offset || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%s: err %v (%#v), want offset %d and %q", c.pattern, err, e, c.offset, c.msg)
		}
	}
	// No match: no runs, no error, as filepath.Glob.
	if runs, err := ReadFiles(filepath.Join(dir, "*.none"), Options{}); runs != nil || err != nil {
		t.Errorf("%v %v", runs, err)
	}
}

// TestEdgeReadings: readings of inputs at the edges of the formats, each
// value worked out by hand.
func TestEdgeReadings(t *testing.T) {
	read := func(data string, opt Options) []Run {
		t.Helper()
		runs, err := Read([]byte(data), opt)
		if err != nil {
			t.Fatal(err)
		}
		return runs
	}
	// An array of replay reports whose last members are false, true, a
	// string holding brackets, an array and an object: each report is cut
	// out at its own closing brace.
	runs := read(`[{"duration_ms": 1, "x": false}, {"duration_ms": 2, "y": true}, {"duration_ms": 3, "z": "}]"},
		{"duration_ms": 4, "w": [1, {"a": null}]} , {"duration_ms": 5, "v": {}}, {"duration_ms": 6, "u": 7e0}]`, Options{})
	if len(runs) != 6 {
		t.Fatalf("%d runs", len(runs))
	}
	for i, run := range runs {
		if run.Report[kDur] != float64(i+1) || run.Source != "["+string(rune('0'+i))+"]" {
			t.Errorf("run %d: %v %q", i, run.Report, run.Source)
		}
	}
	if runs[0].Meta["x"] != false || runs[1].Meta["y"] != true || runs[2].Meta["z"] != "}]" {
		t.Errorf("Meta %v %v %v", runs[0].Meta, runs[1].Meta, runs[2].Meta)
	}
	// An empty model_names array gives no model; the node after it, the
	// backend's string, is not taken for its first element.
	run0 := read(`{"request_throughput": {"unit": "requests/sec", "avg": 1}, "input_config": {"model_names": [], "backend": "x"}}`, Options{Tool: GenAIPerf})[0]
	if m, ok := run0.Meta["model"]; ok || run0.Meta["backend"] != "x" {
		t.Errorf("empty model_names: Meta model %v (present %v), backend %v", m, ok, run0.Meta["backend"])
	}
	// Dynamo's reports are cut out of the array by their closing brace: one
	// found after a null or false last member, not at a bracket in the key
	// before it. No GPU count given, none recorded.
	dyn := read(`[{"duration_ms": 1000, "a]": null}, {"duration_ms": 2000, "b}": false}]`, Options{Tool: Dynamo})
	if len(dyn) != 2 || dyn[0].Report[kDur] != 1000 || dyn[1].Report[kDur] != 2000 {
		t.Errorf("Dynamo runs %v", dyn)
	}
	if g, ok := dyn[0].Meta[gpusKey]; ok {
		t.Errorf("no GPU count given, Meta %s = %v", gpusKey, g)
	}
	// \u escapes with every bound of the hex digits: 0, 9, a, f, A, F.
	esc := read(`{"duration": 1, "model_id": "\u0030\u0039\u00aF\u00Af\u00e9"}`, Options{})[0]
	if m := esc.Meta["model_id"]; m != "09\u00af\u00af\u00e9" {
		t.Errorf("model_id %q, want %q", m, "09\u00af\u00af\u00e9")
	}
	// Depth is nesting, not count: 10001 empty arrays side by side are one
	// level below x.
	if wide := read(`{"duration": 1, "model_id": "m", "x": [`+strings.Repeat("[], ", 10000)+`[]]}`, Options{}); len(wide) != 1 {
		t.Errorf("%d runs", len(wide))
	}
	// trtllm-bench's world size of 2^20 GPUs is the most taken.
	if m := read(`{"world_info": {"world_size": 1048576}}`, Options{})[0].Meta; m[gpusKey] != 1<<20 {
		t.Errorf("world_size 2^20: Meta %v", m)
	}
	// An empty array is no run and no error.
	if runs := read(`[]`, Options{}); len(runs) != 0 {
		t.Errorf("%v", runs)
	}
	// A number beyond float64 in Meta keeps its digits; -Infinity its name.
	run := read(`{"duration": 1, "model_id": "m", "num_prompts": 1e400, "burstiness": -Infinity}`, Options{})[0]
	if run.Meta["num_prompts"] != "1e400" || run.Meta["burstiness"] != "-Infinity" {
		t.Errorf("Meta %v", run.Meta)
	}
	// Per-request arrays as strings and nulls, no errors array: request 0
	// ("3" tokens, ttft "0.5" s, gaps "0.25" and 0.25 s) completed;
	// request 1 (null tokens) did not. e2e 500 + 250 + 250 = 1000 ms.
	run = read(`{"duration": 2, "model_id": "m", "ttfts": ["0.5", null], "itls": [["0.25", 0.25], null], "output_lens": ["3", null]}`, Options{})[0]
	if run.Report[kDone] != 1 || run.Report[kNum] != 2 || run.Report[kE2E] != 1000 || run.Report[kTTFT] != 500 ||
		run.Report[kUser] != 4 || run.Report[kTPOT] != 250 || run.Report[kOut] != 1.5 { // 1000/250; (1000−500)/2; 3 tok / 2 s
		t.Errorf("report %v", run.Report)
	}
	// AIPerf: a metric without a unit is ms.
	run = read(`{"aiperf_version": "1", "time_to_first_token": {"avg": 7}}`, Options{})[0]
	if run.Report[kTTFT] != 7 {
		t.Errorf("report %v", run.Report)
	}
	// AIPerf's pre-1.0 records: credit_phase and timestamp_ns (a null
	// request_start_ns falls back as an absent one does), the end as
	// start + latency (2 + 15 = 17 ms, the last end); min_request_timestamp
	// and max_response_timestamp (1 and 9 ms); a null token count is 0; a
	// warm-up credit phase left out. Duration 17 − 1 = 16 ms; 4 tokens /
	// 0.016 s = 250 tok/s.
	rec, err := ReadRequests([]byte(`{"metadata": {"request_start_ns": null, "timestamp_ns": 2000000, "credit_phase": "profiling"}, "metrics": {"request_latency": {"value": 15, "unit": "ms"}, "output_sequence_length": {"value": 4}}, "error": null}
{"metadata": {"credit_phase": "profiling"}, "metrics": {"min_request_timestamp": {"value": 1000000, "unit": "ns"}, "max_response_timestamp": {"value": 9000000, "unit": "ns"}, "request_latency": {"value": null}, "output_sequence_length": {"value": null}}, "error": null}
{"metadata": {"timestamp_ns": 0, "credit_phase": "warmup"}, "metrics": {"output_sequence_length": {"value": 100}}, "error": null}`), Options{})
	if err != nil || rec.Report[kDur] != 16 || rec.Report[kOut] != 250 || rec.Report[kNum] != 2 || rec.Report[kE2E] != 15 {
		t.Errorf("%v %v", rec.Report, err)
	}
	// Records that span no time give no duration, throughput or goodput:
	// 3 tokens / 0 ms would be +Inf tok/s, 0 tokens NaN. AIPerf's two
	// requests start and end at 1 ms; the replay's clock reads 0 ms; a
	// vLLM document whose records hold no start times says -1.5 s.
	for _, c := range []struct{ data, ms string }{
		{`{"metadata": {"request_start_ns": 1000000, "request_end_ns": 1000000}, "metrics": {"request_latency": {"value": 0}, "output_sequence_length": {"value": 3}}}
{"metadata": {"request_start_ns": 1000000, "request_end_ns": 1000000}, "metrics": {"request_latency": {"value": 0}, "output_sequence_length": {"value": 0}}}`, "0"},
		{`{"arrival_time_ms": 0, "last_token_ms": 0, "ttft_ms": 0, "e2e_latency_ms": 0, "output_length": 0, "terminal_status": "completed"}`, "0"},
		{`{"duration": -1.5, "completed": 1, "ttfts": [0.1], "itls": [[0.01]], "output_lens": [2], "latencies": [0.11]}`, "-1500"},
	} {
		var rec Run
		var err error
		if strings.HasPrefix(c.data, `{"duration"`) {
			var runs []Run
			runs, err = Read([]byte(c.data), Options{Tool: VLLM, SLA: sla(0, 0, 5)})
			if len(runs) == 1 {
				rec = runs[0]
			}
		} else {
			rec, err = ReadRequests([]byte(c.data), Options{SLA: sla(0, 0, 5)})
		}
		_, hasDur := rec.Report[kDur]
		_, hasOut := rec.Report[kOut]
		_, hasGood := rec.Report[kGood]
		if err != nil || hasDur || hasOut || hasGood || !(rec.Report[kDone] > 0) {
			t.Errorf("%s: %v %v", c.data, rec.Report, err)
		}
		why := "the duration is " + c.ms + " ms, no time"
		if !slices.Contains(rec.Notes, "duration_ms and output_throughput_tok_s left out: "+why) ||
			!slices.Contains(rec.Notes, kGood+" left out: "+why+" to divide the good requests' tokens by") {
			t.Errorf("%s: notes %q", c.data, rec.Notes)
		}
	}
	// The note on the throughput gives the token count in full.
	rec, err = ReadRequests([]byte(`{"arrival_time_ms": 0, "last_token_ms": 500, "ttft_ms": 100, "e2e_latency_ms": 500, "output_length": 1234, "terminal_status": "completed"}`), Options{})
	if want := "output_throughput_tok_s is the completed requests' 1234 output tokens / duration"; err != nil || !slices.Contains(rec.Notes, want) {
		t.Errorf("notes %q, %v; want %q", rec.Notes, err, want)
	}
	// The replay's record without output_length counts 0 tokens.
	rec, err = ReadRequests([]byte(`{"arrival_time_ms": 0, "last_token_ms": 500, "ttft_ms": 100, "e2e_latency_ms": 500, "terminal_status": "completed"}`), Options{})
	if err != nil || rec.Report[kOut] != 0 || rec.Report[kDur] != 500 || rec.Report[kE2E] != 500 {
		t.Errorf("%v %v", rec.Report, err)
	}
	// Without start and end times the records give no duration.
	rec, err = ReadRequests([]byte(`{"metadata": {}, "metrics": {"request_latency": {"value": 3}}}`), Options{SLA: sla(0, 0, 5)})
	if err != nil || len(rec.Report) != 3 || rec.Report[kE2E] != 3 { // completed, num_requests, mean e2e
		t.Errorf("%v %v", rec.Report, err)
	}
	if notes := strings.Join(rec.Notes, "\n"); !strings.Contains(notes, "goodput_output_throughput_tok_s left out: the records carry no start and end times") ||
		strings.Contains(notes, "no per-request records") {
		t.Errorf("notes:\n%s", notes)
	}
	// Options.Tool forced for records.
	if _, err := ReadRequests(readTestdata(t, "dynamo/requests.jsonl"), Options{Tool: AIPerf}); err != nil {
		t.Errorf("%v", err)
	}
}

// TestMembersStops: the members iterator honours a loop that breaks
// early, as range-over-func requires.
func TestMembersStops(t *testing.T) {
	d, err := parseDoc([]byte(`{"a": 1, "b": 2, "c": 3}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for j := range d.members(0) {
		seen = append(seen, d.nodes[j].keyText())
		if len(seen) == 2 {
			break
		}
	}
	if strings.Join(seen, "") != "ab" {
		t.Errorf("%v", seen)
	}
}

// TestLocateOtherErrors: locate moves only *spica.Error; any other error
// (none of this package's paths makes one) passes through unchanged.
func TestLocateOtherErrors(t *testing.T) {
	other := errors.New("other")
	if got := locate(other, 10, 2, "f"); got != other {
		t.Errorf("%v", got)
	}
	e := &spica.Error{Offset: 3, Err: spica.ErrInvalidReport, Msg: "m"}
	got := locate(e, 10, 2, "f")
	var g *spica.Error
	if !errors.As(got, &g) || g.Offset != 13 || g.Msg != "f: line 2: m" || e.Offset != 3 || e.Msg != "m" {
		t.Errorf("%#v, input now %#v", g, e)
	}
}

// TestServingRecordsStorage: each request's gaps are allocated once, at
// the number of elements its itls array holds, and reading a number
// element takes the fast path, which allocates nothing (an error path
// is built only for a bad element).
func TestServingRecordsStorage(t *testing.T) {
	d, err := parseDoc([]byte(`{"ttfts": [0.1, 0.2], "itls": [[0.01, 0.02, 0.03], []], "output_lens": [4, 1]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := newReader(&d, VLLM)
	reqs, ok := r.servingRecords(0)
	if !ok || r.err != nil || len(reqs) != 2 {
		t.Fatalf("%v %v %v", reqs, ok, r.err)
	}
	if g := reqs[0].gaps; len(g) != 3 || cap(g) != 3 || g[0] != 10 || g[2] != 30 {
		t.Errorf("gaps %v, cap %d; want [10 20 30], cap 3", g, cap(g))
	}
	if g := reqs[1].gaps; g == nil || cap(g) != 0 {
		t.Errorf("gaps %#v; want empty, not nil", g)
	}
	ttft := d.path(0, "ttfts") + 1 // the array's first element
	if allocs := testing.AllocsPerRun(100, func() {
		if v, ok := r.elemNum(ttft, "ttfts", 0, -1); !ok || v != 0.1 {
			t.Errorf("%v %v", v, ok)
		}
	}); allocs != 0 {
		t.Errorf("elemNum allocates %v times for a number", allocs)
	}
}

// TestEscapedKeysReadAsPlain reads a run whose keys are written with \u
// escapes in lower and upper case hex ("\u005f" and "\u005F" are '_',
// "\u006d" is 'm') as the same run written plainly.
func TestEscapedKeysReadAsPlain(t *testing.T) {
	plain := `{"duration": 2, "model_id": "m", "mean_ttft_ms": 5, "mean_tpot_ms": 4}`
	escaped := `{"duration": 2, "model_id": "m", "\u006dean\u005fttft\u005fms": 5, "mean\u005Ftpot\u005Fms": 4}`
	want, err := Read([]byte(plain), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read([]byte(escaped), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("escaped keys (-plain +escaped):\n%s", diff)
	}
	if len(want) != 1 || want[0].Report[spica.MetricMeanTTFT] != 5 {
		t.Errorf("plain run %+v, want one run with mean_ttft_ms 5", want)
	}
}

// TestAIPerfNoErroredNoCount reads an AIPerf summary that writes no
// request_count and an error_request_count of 0: nothing says how many
// requests ran, so neither count is set. With errored requests, AIPerf
// leaves out request_count because none completed (the all-failed
// fixture), and the counts are 0 completed of the errored.
func TestAIPerfNoErroredNoCount(t *testing.T) {
	doc := `{"aiperf_version": "0.3.0", "error_request_count": {"unit": "requests", "avg": %s}, ` +
		`"request_latency": {"unit": "ms", "avg": 0.0}, "benchmark_duration": {"unit": "sec", "avg": 1.5}}`
	for _, tt := range []struct {
		errored   string
		done, num float64
		counted   bool
	}{{"0", 0, 0, false}, {"3", 0, 3, true}} {
		runs, err := Read([]byte(fmt.Sprintf(doc, tt.errored)), Options{})
		if err != nil || len(runs) != 1 {
			t.Fatalf("errored %s: %d runs, %v", tt.errored, len(runs), err)
		}
		r := runs[0].Report
		done, hasDone := r[keyCompleted]
		num, hasNum := r[keyNumRequests]
		if hasDone != tt.counted || hasNum != tt.counted || done != tt.done || num != tt.num {
			t.Errorf("errored %s: completed %v (%v), num_requests %v (%v); want %v, %v set: %v",
				tt.errored, done, hasDone, num, hasNum, tt.done, tt.num, tt.counted)
		}
	}
}
