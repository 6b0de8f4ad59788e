package interop_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/spica-search/spica"
)

// testdata/runs.jsonl holds three records as a Python orchestrator writes
// them, one per line: {"config": …, "trace_report": …}. It was made with
// the machine's python3, json.dumps(record) per line (allow_nan left at its
// default, True), so non-finite floats are the bare tokens NaN, Infinity and
// -Infinity, inside the report and inside a list under a key spica does not
// read.
type record struct {
	Config map[string]any `json:"config"`
	Report spica.Report   `json:"trace_report"`
}

func TestPythonRecordsSplitAfterNormalizeJSON(t *testing.T) {
	f, err := os.Open("testdata/runs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cands []spica.Candidate
	bare := 0 // records holding a bare token
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		line := lines.Bytes()
		norm, err := spica.NormalizeJSON(line)
		if err != nil {
			t.Fatal(err)
		}
		var rec record
		if !bytes.Equal(norm, line) {
			bare++
			if err := json.Unmarshal(line, &rec); err == nil {
				t.Fatalf("encoding/json split a record with bare tokens: %s", line)
			}
		}
		if err := json.Unmarshal(norm, &rec); err != nil {
			t.Fatalf("%s: %v", norm, err)
		}
		c, err := spica.MakeCandidate(rec.Config, rec.Report, spica.OptimizationGoal{Target: spica.TargetPareto})
		if err != nil {
			t.Fatal(err)
		}
		cands = append(cands, c)
	}
	if err := lines.Err(); err != nil {
		t.Fatal(err)
	}
	if bare != 2 {
		t.Errorf("%d records held bare tokens, want 2 (tp1's skipped list, crashed's report)", bare)
	}
	// By hand, each run an hour long so avg_gpu = gpu_hours: tp1 1200/1
	// tok/s/gpu at 60 tok/s/user; tp4 4800/4 = 1200 at 80; crashed has
	// gpu_hours = Infinity, so avg_gpu and its per-GPU value are NaN, and
	// its per-user value is -Infinity.
	want := []map[string]float64{
		{"throughput_per_gpu": 1200, "throughput_per_user": 60},
		{"throughput_per_gpu": 1200, "throughput_per_user": 80},
		{"throughput_per_gpu": math.NaN(), "throughput_per_user": math.Inf(-1)},
	}
	var got []map[string]float64
	for _, c := range cands {
		got = append(got, c.Objectives)
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("objectives (-want +got):\n%s", diff)
	}
	if cands[1].UsedGPUs != 4 || cands[2].Config["engine"] != "sglang" {
		t.Errorf("configs: %+v", cands)
	}
	front, err := spica.ParetoFront(cands, spica.DefaultParetoObjectives())
	if err != nil || len(front) != 1 || front[0].Config["name"] != "tp4" {
		t.Errorf("front = %v, %v; want tp4 alone (it dominates tp1; NaN and -Inf are worst)", front, err)
	}
	// A Python reader gets the candidates back: non-finite floats are the
	// strings float() reads.
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(cands[2]); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b.Bytes(), []byte(`"throughput_per_gpu":"NaN"`)) || !bytes.Contains(b.Bytes(), []byte(`"throughput_per_user":"-Infinity"`)) {
		t.Errorf("candidate JSON %s", b.Bytes())
	}
	var back spica.Candidate
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || !cmp.Equal(back, cands[2], cmpopts.EquateNaNs()) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
}
