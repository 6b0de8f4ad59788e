package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spica-search/spica"
)

// sentinels are every error spica exports.
var sentinels = []error{
	spica.ErrUnknownTarget, spica.ErrNoScalarDirection, spica.ErrInvalidSLA, spica.ErrSLARequired,
	spica.ErrInvalidParetoObjectives, spica.ErrUnknownField, spica.ErrDuplicateKey, spica.ErrInvalidGoal,
	spica.ErrInvalidReport, spica.ErrInvalidCandidate, spica.ErrInvalidBound, spica.ErrInvalidMatrix, spica.ErrInvalidJSON,
}

// checkError fails unless err is a *spica.Error wrapping exactly one
// sentinel.
func checkError(t *testing.T, err error) {
	t.Helper()
	var e *spica.Error
	if !errors.As(err, &e) {
		t.Fatalf("%v (%T) is not a *spica.Error", err, err)
	}
	n := 0
	for _, s := range sentinels {
		if errors.Is(err, s) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%v wraps %d sentinels", err, n)
	}
}

// checkRun fails when a run breaks a rule that holds for any input.
func checkRun(t *testing.T, run Run, tool Tool) {
	t.Helper()
	if run.Tool != tool || run.Meta == nil || run.Report == nil {
		t.Fatalf("Tool %q, Meta %v, Report %v", run.Tool, run.Meta, run.Report)
	}
	if _, err := json.Marshal(run.Meta); err != nil {
		t.Fatalf("Meta %v is not JSON-safe: %v", run.Meta, err)
	}
	if tool == Dynamo {
		return
	}
	if done, ok := run.Report[keyCompleted]; ok && done == 0 {
		for _, k := range failedRunKeys {
			if v, ok := run.Report[k]; ok {
				t.Fatalf("no request completed, yet %s = %v", k, v)
			}
		}
	}
	if len(run.Notes) == 0 {
		t.Fatal("no notes")
	}
	checkNotes(t, run)
}

// fuzzTool fuzzes Read with the reader of tool forced by Options.Tool,
// seeded with every fixture of its folders: it must not panic, must not
// change its input, must give the same result twice, and every error
// must be a *spica.Error wrapping exactly one sentinel.
func fuzzTool(f *testing.F, tool Tool, dirs ...string) {
	for _, dir := range dirs {
		names, _ := filepath.Glob(filepath.Join("testdata", dir, "*"))
		for _, name := range names {
			if filepath.Ext(name) == ".gz" {
				continue
			}
			data, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := bytes.Clone(data)
		opt := Options{Tool: tool, GPUs: 2}
		runs, err := Read(data, opt)
		if !bytes.Equal(in, data) {
			t.Fatal("Read changed its input")
		}
		again, err2 := Read(data, opt)
		if (err == nil) != (err2 == nil) || len(runs) != len(again) {
			t.Fatalf("two reads differ: %v, %v", err, err2)
		}
		if err != nil {
			checkError(t, err)
			if err.Error() != err2.Error() {
				t.Fatalf("two reads differ: %v, %v", err, err2)
			}
			return
		}
		for i := range runs {
			checkRun(t, runs[i], tool)
			if diff := cmp.Diff(runs[i].Report, again[i].Report, sameReport); diff != "" {
				t.Fatalf("two reads differ:\n%s", diff)
			}
		}
		if tool == AIPerf || tool == Dynamo {
			run, err := ReadRequests(data, Options{Tool: tool, SLA: sla(100, 10, 0)})
			if err != nil {
				checkError(t, err)
			} else {
				checkRun(t, run, tool)
			}
		}
	})
}

func FuzzReadDynamo(f *testing.F)    { fuzzTool(f, Dynamo, "dynamo") }
func FuzzReadVLLM(f *testing.F)      { fuzzTool(f, VLLM, "vllm") }
func FuzzReadSGLang(f *testing.F)    { fuzzTool(f, SGLang, "sglang") }
func FuzzReadAIPerf(f *testing.F)    { fuzzTool(f, AIPerf, "aiperf") }
func FuzzReadGenAIPerf(f *testing.F) { fuzzTool(f, GenAIPerf, "genai-perf") }
func FuzzReadLLMPerf(f *testing.F)   { fuzzTool(f, LLMPerf, "llmperf") }
func FuzzReadTRTLLM(f *testing.F)    { fuzzTool(f, TRTLLM, "trtllm") }

// FuzzReadRequests fuzzes the per-request readers, the tool detected from
// the first record, seeded with the record fixtures.
func FuzzReadRequests(f *testing.F) {
	for _, name := range []string{"aiperf/profile_export.jsonl", "aiperf/bad_records.jsonl", "dynamo/requests.jsonl"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opt := range []Options{{}, {SLA: sla(0, 0, 500)}, {Tool: VLLM}} {
			run, err := ReadRequests(data, opt)
			if err != nil {
				checkError(t, err)
				continue
			}
			checkRun(t, run, run.Tool)
		}
		if _, err := Detect(data); err != nil {
			checkError(t, err)
		}
	})
}
