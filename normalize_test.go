package spica

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNormalizeJSON(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"the three tokens become strings", `[NaN, Infinity, -Infinity]`, `["NaN", "Infinity", "-Infinity"]`},
		{"in objects, at any depth", `{"a": {"b": [1, NaN]}, "c": -Infinity}`, `{"a": {"b": [1, "NaN"]}, "c": "-Infinity"}`},
		{"inside strings nothing changes", `{"NaN": "Infinity", "s": "-Infinity NaN"}`, `{"NaN": "Infinity", "s": "-Infinity NaN"}`},
		{"escaped quotes do not end a string", `["a\"NaN", NaN]`, `["a\"NaN", "NaN"]`},
		{"every other byte is kept", " {\"x\" :\t1e5 ,\"y\":[ true,null ]}\n", " {\"x\" :\t1e5 ,\"y\":[ true,null ]}\n"},
		{"a bare token alone", `NaN`, `"NaN"`},
		{"standard JSON passes unchanged", `{"a":1}`, `{"a":1}`},
		{"repeated keys are kept: not this function's business", `{"a":1,"a":NaN}`, `{"a":1,"a":"NaN"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := []byte(tt.in)
			got, err := NormalizeJSON(in)
			if err != nil || string(got) != tt.want {
				t.Fatalf("NormalizeJSON(%s) = %s, %v; want %s", tt.in, got, err, tt.want)
			}
			// One allocation of the exact size: a token grows by its two quotes.
			if cap(got) != len(got) {
				t.Errorf("result has capacity %d for %d bytes", cap(got), len(got))
			}
			if !json.Valid(got) {
				t.Errorf("result %s is not valid JSON", got)
			}
			if string(in) != tt.in {
				t.Error("input modified")
			}
		})
	}
}

func TestNormalizeJSONRejects(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		offset int64 // counted by hand
	}{
		{"empty", ``, 0},
		{"truncated", `{"a": [NaN`, 10},
		{"lower-case nan", `[nan]`, 1},
		{"+Infinity", `[+Infinity]`, 1},
		{"Python's -NaN is not a token", `[-NaN]`, 2},
		{"Inf is not Infinity", `[Inf]`, 1},
		{"trailing garbage", `{} x`, 3},
		{"two values", `1 2`, 2},
		{"bad escape", `["\q"]`, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NormalizeJSON([]byte(tt.in))
			checkError(t, err, ErrInvalidJSON, "", tt.offset)
			if got != nil {
				t.Errorf("got %s with the error", got)
			}
		})
	}
}

// TestNormalizeJSONSplitsPythonRecords is issue 8's record: a candidate's
// config beside a report with bare NaN, which encoding/json refuses until
// it is normalized.
func TestNormalizeJSONSplitsPythonRecords(t *testing.T) {
	record := []byte(`{"config": {"tp": 2, "used_gpus": 2}, "trace_report": {"output_throughput_tok_s": 300.5, "mean_e2e_latency_ms": NaN, "duration_ms": Infinity}}`)
	var rec struct {
		Config map[string]any `json:"config"`
		Report Report         `json:"trace_report"`
	}
	if err := json.Unmarshal(record, &rec); err == nil {
		t.Fatal("encoding/json accepted bare NaN")
	}
	norm, err := NormalizeJSON(record)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(norm, &rec); err != nil {
		t.Fatal(err)
	}
	want := Report{MetricOutputThroughput: 300.5, MetricMeanE2ELatency: nan, MetricDurationMs: inf}
	if diff := cmp.Diff(want, rec.Report, sameFloat); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	if rec.Config["used_gpus"] != 2.0 {
		t.Errorf("config = %v", rec.Config)
	}
}

func FuzzNormalizeJSON(f *testing.F) {
	for _, s := range []string{`[NaN, Infinity, -Infinity]`, `{"a": "NaN"}`, `{"a": -Infinity}`, `-Inf`, `"\u00e9"`, `[1e5, -0.0, true, null]`, `{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := bytes.Clone(data)
		got, err := NormalizeJSON(data)
		if !bytes.Equal(in, data) {
			t.Fatal("input modified")
		}
		if err != nil {
			checkError(t, err, ErrInvalidJSON, "", (err.(*Error)).Offset)
			if off := (err.(*Error)).Offset; off < 0 || off > int64(len(data)) {
				t.Fatalf("offset %d outside the input", off)
			}
			if json.Valid(data) && !strings.Contains(err.Error(), "nesting deeper") {
				t.Fatalf("rejected valid JSON %q: %v", data, err)
			}
			return
		}
		if !json.Valid(got) {
			t.Fatalf("NormalizeJSON(%q) = %q, not valid JSON", data, got)
		}
		if json.Valid(data) && !bytes.Equal(got, data) {
			t.Fatalf("changed valid JSON %q into %q", data, got)
		}
		again, err := NormalizeJSON(got)
		if err != nil || !bytes.Equal(again, got) {
			t.Fatalf("not idempotent: %q -> %q -> %q, %v", data, got, again, err)
		}
	})
}
