package spica

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

// sameFloat treats NaN as equal to NaN, so cmp can compare reports and
// candidates holding it.
var sameFloat = cmpopts.EquateNaNs()

func TestMetricKeys(t *testing.T) {
	want := []string{"output_throughput_tok_s", "mean_ttft_ms", "mean_tpot_ms", "mean_e2e_latency_ms",
		"mean_output_token_throughput_per_user", "goodput_output_throughput_tok_s", "gpu_hours", "duration_ms", "planner_total_ticks"}
	got := MetricKeys()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatal(diff)
	}
	got[0] = "x"
	if MetricKeys()[0] != want[0] {
		t.Error("MetricKeys returned a shared slice")
	}
}

func TestObjectiveValueAndScore(t *testing.T) {
	// 3 GPUs provisioned for half an hour: avg_gpu = 1.5 / (1 800 000 / 3 600 000) = 3.
	full := Report{
		MetricOutputThroughput: 600, MetricThroughputPerUser: 25, MetricMeanE2ELatency: 1500,
		MetricGoodput: 450, MetricGPUHours: 1.5, MetricDurationMs: 1_800_000, MetricMeanTTFT: 80,
	}
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name      string
		report    Report
		target    OptimizationTarget
		value     float64
		wantScore float64
	}{
		{"throughput", full, TargetThroughput, 600, 600},
		{"throughput per GPU divides by avg_gpu", full, TargetThroughputPerGPU, 200, 200},
		{"throughput per user is already a rate", full, TargetThroughputPerUser, 25, 25},
		{"latency is negated in the score", full, TargetE2ELatency, 1500, -1500},
		{"goodput", full, TargetGoodput, 450, 450},
		{"goodput per GPU", full, TargetGoodputPerGPU, 150, 150},
		{"missing throughput reads 0", Report{}, TargetThroughput, 0, 0},
		{"missing per-user reads 0", Report{}, TargetThroughputPerUser, 0, 0},
		{"missing goodput reads 0", Report{}, TargetGoodput, 0, 0},
		{"missing latency reads +Inf and scores worst", Report{}, TargetE2ELatency, inf, -inf},
		{"nil report latency", nil, TargetE2ELatency, inf, -inf},
		{"per GPU is 0 without gpu_hours", Report{MetricOutputThroughput: 600, MetricDurationMs: 1000}, TargetThroughputPerGPU, 0, 0},
		{"goodput per GPU is 0 without duration", Report{MetricGoodput: 600, MetricGPUHours: 1}, TargetGoodputPerGPU, 0, 0},
		{"per GPU is NaN when gpu_hours is NaN", Report{MetricOutputThroughput: 600, MetricGPUHours: nan, MetricDurationMs: 1}, TargetThroughputPerGPU, nan, nan},
		{"per GPU is NaN when duration is +Inf", Report{MetricGoodput: 600, MetricGPUHours: 1, MetricDurationMs: inf}, TargetGoodputPerGPU, nan, nan},
		{"a NaN latency stays NaN", Report{MetricMeanE2ELatency: nan}, TargetE2ELatency, nan, nan},
		{"a zero latency scores 0", Report{MetricMeanE2ELatency: 0}, TargetE2ELatency, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := ObjectiveValue(tt.report, tt.target)
			if err != nil || !cmp.Equal(v, tt.value, sameFloat) {
				t.Errorf("ObjectiveValue = %v, %v; want %v", v, err, tt.value)
			}
			s, err := ScoreReport(tt.report, tt.target)
			if err != nil || !cmp.Equal(s, tt.wantScore, sameFloat) {
				t.Errorf("ScoreReport = %v, %v; want %v", s, err, tt.wantScore)
			}
		})
	}
}

func TestScalarValueOfParetoIsAnError(t *testing.T) {
	if _, err := ObjectiveValue(Report{}, TargetPareto); !errors.Is(err, ErrNoScalarDirection) {
		t.Errorf("ObjectiveValue(pareto) error = %v", err)
	}
	if _, err := ScoreReport(Report{}, TargetPareto); !errors.Is(err, ErrNoScalarDirection) {
		t.Errorf("ScoreReport(pareto) error = %v", err)
	}
	if _, err := ScoreReport(Report{}, 200); !errors.Is(err, ErrUnknownTarget) {
		t.Errorf("ScoreReport(200) error = %v", err)
	}
}

func TestObjectiveVector(t *testing.T) {
	r := Report{MetricOutputThroughput: 800, MetricThroughputPerUser: 30, MetricGPUHours: 4, MetricDurationMs: 3_600_000}
	got, err := ObjectiveVector(r, []OptimizationTarget{TargetThroughputPerGPU, TargetThroughputPerUser, TargetE2ELatency})
	want := map[string]float64{"throughput_per_gpu": 200, "throughput_per_user": 30, "e2e_latency": math.Inf(1)}
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	for _, tt := range []struct {
		objs     []OptimizationTarget
		sentinel error
		path     string
	}{
		{[]OptimizationTarget{TargetPareto}, ErrInvalidParetoObjectives, "objectives[0]"},
		{[]OptimizationTarget{TargetThroughput, TargetThroughput}, ErrInvalidParetoObjectives, "objectives[1]"},
		{[]OptimizationTarget{99}, ErrUnknownTarget, "objectives[0]"},
	} {
		_, err := ObjectiveVector(r, tt.objs)
		checkError(t, err, tt.sentinel, tt.path, -1)
	}
}

func TestIsFeasible(t *testing.T) {
	for _, tt := range []struct {
		used, budget int
		want         bool
	}{{0, 0, true}, {4, 8, true}, {8, 8, true}, {9, 8, false}} {
		if got := IsFeasible(tt.used, tt.budget); got != tt.want {
			t.Errorf("IsFeasible(%d, %d) = %v", tt.used, tt.budget, got)
		}
	}
}

func TestParseReportAccepts(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name string
		in   string
		want Report
	}{
		{"empty object", `{}`, Report{}},
		{"numbers of any key become entries", `{"gpu_hours": 2, "num_requests": 512, "wall_time_ms": 1.5e3}`,
			Report{"gpu_hours": 2, "num_requests": 512, "wall_time_ms": 1500}},
		{"Python's non-finite tokens", `{"mean_e2e_latency_ms": NaN, "duration_ms": Infinity, "x": -Infinity}`,
			Report{"mean_e2e_latency_ms": nan, "duration_ms": inf, "x": -inf}},
		{"null metric is missing", `{"mean_ttft_ms": null, "gpu_hours": 1}`, Report{"gpu_hours": 1}},
		{"other kinds are skipped for unread keys", `{"engine": "vllm", "ok": true, "cfg": {"tp": [1, 2, {"a": null}]}, "n": null, "out": 5}`,
			Report{"out": 5}},
		{"non-finite tokens inside skipped values", `{"hist": [NaN, Infinity, -Infinity], "out": -0.5}`, Report{"out": -0.5}},
		{"escaped keys", `{"gpu_h\u006furs": 3}`, Report{"gpu_hours": 3}},
		{"underflow reads as 0", `{"gpu_hours": 1e-400}`, Report{"gpu_hours": 0}},
		{"surrounding white space", " \n{\"gpu_hours\" : 1 }\t", Report{"gpu_hours": 1}},
		{"NormalizeJSON's strings are numbers under any key", `{"gpu_hours": "NaN", "x": "Infinity", "mean_ttft_ms": "-Infinity", "engine": "vllm"}`,
			Report{"gpu_hours": nan, "x": inf, "mean_ttft_ms": -inf}},
		{"repeats inside unread values are the producer's business", `{"cfg": {"a": 1, "a": 2}, "out": 1}`, Report{"out": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseReport([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, sameFloat); diff != "" {
				t.Error(diff)
			}
		})
	}
}

func TestParseReportRejects(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		sentinel error
		path     string
		offset   int64 // counted by hand
	}{
		{"a string metric", `{"gpu_hours": "2"}`, ErrInvalidReport, "gpu_hours", 14},
		{"a lower-case nan string metric", `{"gpu_hours": "nan"}`, ErrInvalidReport, "gpu_hours", 14},
		{"a boolean metric", `{"mean_ttft_ms": true}`, ErrInvalidReport, "mean_ttft_ms", 17},
		{"an object metric", `{"duration_ms": {}}`, ErrInvalidReport, "duration_ms", 16},
		{"an array metric", `{"planner_total_ticks": [1]}`, ErrInvalidReport, "planner_total_ticks", 24},
		{"a repeated key", `{"gpu_hours": 1, "gpu_hours": 2}`, ErrDuplicateKey, "gpu_hours", 17},
		// Two keys repeated: the one whose second occurrence comes first, at
		// its opening quote (byte 17 in both), whichever sorts first.
		{"of two repeats, b's comes first", `{"b": 1, "a": 1, "b": 2, "a": 2}`, ErrDuplicateKey, "b", 17},
		{"of two repeats, b's comes first again", `{"a": 1, "b": 1, "b": 2, "a": 2}`, ErrDuplicateKey, "b", 17},
		{"three times: the second", `{"a": 1, "a": 2, "a": 3}`, ErrDuplicateKey, "a", 9},
		{"a repeated unread key", `{"engine": "a", "engine": {"x": 1}}`, ErrDuplicateKey, "engine", 16},
		{"a number out of range", `{"duration_ms": 1e309}`, ErrInvalidReport, "duration_ms", 16},
		{"a top-level array", `[{"gpu_hours": 1}]`, ErrInvalidReport, "", 0},
		{"a top-level null", `null`, ErrInvalidReport, "", 0},
		{"empty input", ``, ErrInvalidReport, "", 0},
		{"truncated", `{"gpu_hours": 1`, ErrInvalidReport, "", 15},
		{"truncated string", `{"gpu_hours`, ErrInvalidReport, "", 11},
		{"bad escape", `{"a\x": 1}`, ErrInvalidReport, "", 3},
		{"control character in a key", "{\"a\nb\": 1}", ErrInvalidReport, "", 3},
		{"leading zero", `{"gpu_hours": 01}`, ErrInvalidReport, "", 15},
		{"bare dot", `{"gpu_hours": 1.}`, ErrInvalidReport, "", 16},
		{"nan in lower case", `{"gpu_hours": nan}`, ErrInvalidReport, "", 14},
		{"+Infinity is not Python's spelling", `{"gpu_hours": +Infinity}`, ErrInvalidReport, "", 14},
		{"trailing data", `{} 1`, ErrInvalidReport, "", 3},
		{"missing colon", `{"a" 1}`, ErrInvalidReport, "", 5},
		{"malformed inside an unread value", `{"cfg": {"a": [1,]}}`, ErrInvalidReport, "", 17},
		// The 1001st open bracket, after "[" at bytes 6..1005.
		{"deep nesting is refused, not recursed", `{"x": ` + strings.Repeat("[", 100000), ErrInvalidReport, "", 1006},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseReport([]byte(tt.in))
			checkError(t, err, tt.sentinel, tt.path, tt.offset)
			if r != nil {
				t.Errorf("got a report %v with the error", r)
			}
			// Report.UnmarshalJSON has the same rules and offsets, except
			// that null leaves the report alone, as encoding/json expects.
			if tt.in != "null" {
				var rep Report
				checkError(t, rep.UnmarshalJSON([]byte(tt.in)), tt.sentinel, tt.path, tt.offset)
			}
		})
	}
}

// TestParseReportSkipsWithoutAllocating is issue 8's complaint: values
// under keys the package does not read are only checked, so their size
// costs no allocations.
func TestParseReportSkipsWithoutAllocating(t *testing.T) {
	doc := func(n int) []byte {
		var b strings.Builder
		b.WriteString(`{"gpu_hours": 2, "engine": {`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"key%d": {"name": "v\u00e9%d", "list": [1, "two", null, NaN], "k": 1, "k": 2}`, i, i)
		}
		b.WriteString(`}, "note": "a string", "duration_ms": 3600000}`)
		return []byte(b.String())
	}
	small, large := doc(1), doc(1000)
	allocs := func(data []byte) float64 {
		return testing.AllocsPerRun(20, func() {
			if _, err := ParseReport(data); err != nil {
				t.Fatal(err)
			}
		})
	}
	if a, b := allocs(small), allocs(large); a != b {
		t.Errorf("allocations grow with the skipped value: %v for 1 key, %v for 1000", a, b)
	}
}

func FuzzParseReport(f *testing.F) {
	for _, s := range []string{`{}`, `{"gpu_hours": 2, "duration_ms": 2000}`, `{"mean_e2e_latency_ms": NaN, "x": [Infinity]}`,
		`{"a": -Infinity, "b": {"c": "d"}}`, `{"gpu_hours": "2"}`, `[`, `{"\u00e9": 1e-7}`, `{"a": 1, "a": 1}`, `{"a":-0}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseReport(data)
		var rep Report
		uerr := rep.UnmarshalJSON(data)
		if err != nil {
			if msg := oneSentinel(err); msg != "" {
				t.Fatal(msg)
			}
			if !errors.Is(err, ErrInvalidReport) && !errors.Is(err, ErrDuplicateKey) {
				t.Fatalf("error %v wraps neither ErrInvalidReport nor ErrDuplicateKey", err)
			}
			if uerr == nil || uerr.Error() != err.Error() {
				t.Fatalf("UnmarshalJSON error %v differs from ParseReport's %v", uerr, err)
			}
			return
		}
		if uerr != nil || !cmp.Equal(r, rep, sameFloat) {
			t.Fatalf("UnmarshalJSON = %v, %v; ParseReport = %v", rep, uerr, r)
		}
		// Re-encode as Python would, non-finite values as bare tokens.
		var b strings.Builder
		b.WriteByte('{')
		i := 0
		for k, v := range r {
			if i > 0 {
				b.WriteByte(',')
			}
			i++
			key, _ := json.Marshal(k)
			b.Write(key)
			b.WriteByte(':')
			switch {
			case math.IsNaN(v):
				b.WriteString("NaN")
			case math.IsInf(v, 1):
				b.WriteString("Infinity")
			case math.IsInf(v, -1):
				b.WriteString("-Infinity")
			default:
				num, _ := json.Marshal(v)
				b.Write(num)
			}
		}
		b.WriteByte('}')
		again, err := ParseReport([]byte(b.String()))
		if err != nil {
			t.Fatalf("re-parse of %s: %v", b.String(), err)
		}
		if diff := cmp.Diff(r, again, sameFloat); diff != "" {
			t.Fatalf("re-parse of %s mismatch:\n%s", b.String(), diff)
		}
	})
}

func TestMakeCandidateUsedGPUs(t *testing.T) {
	type gpus int // a named numeric type is still a number
	tests := []struct {
		name string
		val  any
		want int
		bad  string // substring of the message, "" for success
	}{
		{"int", 4, 4, ""},
		{"int8", int8(3), 3, ""},
		{"int64", int64(16), 16, ""},
		{"uint16", uint16(2), 2, ""},
		{"uint64", uint64(8), 8, ""},
		{"zero", 0, 0, ""},
		{"int64 MaxInt64", int64(math.MaxInt64), math.MaxInt64, ""},
		{"uint64 MaxInt64", uint64(math.MaxInt64), math.MaxInt64, ""},
		{"uint64 MaxInt64+1", uint64(math.MaxInt64) + 1, 0, "too large"},
		{"uintptr", uintptr(1), 1, ""},
		{"named int", gpus(6), 6, ""},
		{"float64 from JSON", 8.0, 8, ""},
		{"float32", float32(2), 2, ""},
		{"negative zero", math.Copysign(0, -1), 0, ""},
		{"json.Number", json.Number("12"), 12, ""},
		{"json.Number with exponent", json.Number("1e1"), 10, ""},
		// Issue 9, defect 2: json.Number is read exactly, in JSON syntax only.
		{"json.Number above 2^53 stays exact", json.Number("9007199254740993"), 9007199254740993, ""},
		{"json.Number MaxInt64", json.Number("9223372036854775807"), math.MaxInt64, ""},
		{"json.Number 4.0 is 4", json.Number("4.0"), 4, ""},
		{"json.Number 4e0 is 4", json.Number("4e0"), 4, ""},
		{"json.Number 40e-1 is 4", json.Number("40e-1"), 4, ""},
		{"json.Number 0.0e5", json.Number("0.0e5"), 0, ""},
		{"json.Number -0", json.Number("-0"), 0, ""},
		{"json.Number hex float", json.Number("0x1p4"), 0, "not a JSON number"},
		{"json.Number underscore", json.Number("1_0"), 0, "not a JSON number"},
		{"json.Number plus sign", json.Number("+4"), 0, "not a JSON number"},
		{"json.Number leading zero", json.Number("04"), 0, "not a JSON number"},
		{"json.Number Infinity", json.Number("Infinity"), 0, "not a JSON number"},
		{"json.Number MaxInt64+1", json.Number("9223372036854775808"), 0, "too large"},
		{"json.Number 1e19", json.Number("1e19"), 0, "too large"},
		{"json.Number huge exponent", json.Number("1e99999999999999999999"), 0, "too large"},
		{"json.Number tiny exponent", json.Number("1e-99999999999999999999"), 0, "has a fraction"},
		{"json.Number 4.5e0", json.Number("4.5e0"), 0, "has a fraction"},
		{"json.Number negative", json.Number("-3"), 0, "negative"},
		{"negative int", -1, 0, "want a non-negative integer"},
		{"negative float", -2.0, 0, "negative"},
		{"fraction", 1.5, 0, "has a fraction"},
		{"NaN", math.NaN(), 0, "not finite"},
		{"+Inf", math.Inf(1), 0, "not finite"},
		{"huge float", 1e19, 0, "too large"},
		// float64(math.MaxInt) is 2^63, one past MaxInt; the largest float
		// below it, 2^63 − 1024, fits.
		{"float 2^63", 0x1p63, 0, "too large"},
		{"float 2^63-1024", 0x1p63 - 1024, 1<<63 - 1024, ""},
		{"huge uint64", uint64(math.MaxUint64), 0, "too large"},
		{"string", "4", 0, "got string"},
		{"nil", nil, 0, "got <nil>"},
		{"bool", true, 0, "got bool"},
		{"json.Number fraction", json.Number("2.5"), 0, "has a fraction"},
		{"json.Number garbage", json.Number("x"), 0, "not a JSON number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := MakeCandidate(map[string]any{"used_gpus": tt.val}, Report{}, OptimizationGoal{})
			if tt.bad == "" {
				if err != nil || c.UsedGPUs != tt.want {
					t.Fatalf("UsedGPUs = %d, %v; want %d", c.UsedGPUs, err, tt.want)
				}
				return
			}
			checkError(t, err, ErrInvalidCandidate, "config.used_gpus", -1)
			if !strings.Contains(err.Error(), tt.bad) {
				t.Fatalf("error = %v, want it to say %q", err, tt.bad)
			}
		})
	}
	c, err := MakeCandidate(nil, nil, OptimizationGoal{})
	if err != nil || c.UsedGPUs != 0 || c.Config != nil {
		t.Errorf("absent used_gpus: %+v, %v", c, err)
	}
}

func TestMakeCandidate(t *testing.T) {
	report := Report{MetricOutputThroughput: 900, MetricThroughputPerUser: 30, MetricMeanE2ELatency: 700,
		MetricGPUHours: 3, MetricDurationMs: 3_600_000, "num_requests": 100}
	config := map[string]any{"tp": 3.0, "used_gpus": 3.0}
	wantMetrics := map[string]float64{MetricOutputThroughput: 900, MetricThroughputPerUser: 30, MetricMeanE2ELatency: 700,
		MetricGPUHours: 3, MetricDurationMs: 3_600_000}

	scalar, err := MakeCandidate(config, report, OptimizationGoal{Target: TargetE2ELatency})
	if err != nil {
		t.Fatal(err)
	}
	want := Candidate{Config: config, UsedGPUs: 3, Score: -700, Metrics: wantMetrics}
	if diff := cmp.Diff(want, scalar); diff != "" {
		t.Errorf("scalar candidate mismatch (-want +got):\n%s", diff)
	}

	goal := OptimizationGoal{Target: TargetPareto, ParetoObjectives: []OptimizationTarget{TargetE2ELatency, TargetThroughputPerGPU}}
	pareto, err := MakeCandidate(config, report, goal)
	if err != nil {
		t.Fatal(err)
	}
	want = Candidate{Config: config, UsedGPUs: 3, Score: 700, Metrics: wantMetrics,
		Objectives: map[string]float64{"e2e_latency": 700, "throughput_per_gpu": 300}}
	if diff := cmp.Diff(want, pareto); diff != "" {
		t.Errorf("pareto candidate mismatch (-want +got):\n%s", diff)
	}

	config["tp"] = 99.0
	if scalar.Config["tp"] != 3.0 {
		t.Error("the candidate aliases the caller's config map")
	}
	if _, err := MakeCandidate(config, report, OptimizationGoal{Target: TargetGoodput}); !errors.Is(err, ErrSLARequired) {
		t.Errorf("invalid goal: error = %v, want the validation error", err)
	}
	if _, err := MakeCandidate(map[string]any{"used_gpus": -1}, report, OptimizationGoal{Target: 50}); !errors.Is(err, ErrUnknownTarget) {
		t.Errorf("the goal must be validated before the config: error = %v", err)
	}
}

func TestRank(t *testing.T) {
	nan := math.NaN()
	c := func(name string, score float64, gpus int) Candidate {
		return Candidate{Config: map[string]any{"name": name}, Score: score, UsedGPUs: gpus}
	}
	in := []Candidate{
		c("nan", nan, 1), c("low", -5, 1), c("tie-8", 10, 8), c("tie-2", 10, 2), c("negzero", math.Copysign(0, -1), 4),
		c("tie-2b", 10, 2), c("zero", 0, 4), c("inf", math.Inf(1), 100), c("-inf", math.Inf(-1), 0), c("nan-0", nan, 0),
	}
	orig := append([]Candidate(nil), in...)
	var names []string
	for _, x := range Rank(in) {
		names = append(names, x.Config["name"].(string))
	}
	// Best first; 10s by GPUs then input order; -0 ties 0 (input order);
	// NaN last, by GPUs among themselves.
	want := []string{"inf", "tie-2", "tie-2b", "tie-8", "negzero", "zero", "low", "-inf", "nan-0", "nan"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("Rank order mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(orig, in, sameFloat); diff != "" {
		t.Errorf("Rank modified its input:\n%s", diff)
	}
	if got := Rank(nil); len(got) != 0 {
		t.Errorf("Rank(nil) = %v", got)
	}
}

func TestRankIsASortedStablePermutation(t *testing.T) {
	score := rapid.SampledFrom([]float64{math.NaN(), math.Inf(-1), -1, 0, math.Copysign(0, -1), 0.5, 2, math.Inf(1)})
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 30).Draw(t, "n")
		in := make([]Candidate, n)
		for i := range in {
			in[i] = Candidate{Score: score.Draw(t, "score"), UsedGPUs: rapid.IntRange(0, 3).Draw(t, "gpus"), Config: map[string]any{"i": i}}
		}
		out := Rank(in)
		if len(out) != n {
			t.Fatalf("len %d, want %d", len(out), n)
		}
		seen := make([]bool, n)
		for k, c := range out {
			i := c.Config["i"].(int)
			if seen[i] {
				t.Fatalf("candidate %d appears twice", i)
			}
			seen[i] = true
			if k == 0 {
				continue
			}
			p := out[k-1]
			pi := p.Config["i"].(int)
			switch {
			case math.IsNaN(p.Score) && !math.IsNaN(c.Score):
				t.Fatalf("NaN at %d before the number %v", k-1, c.Score)
			case !math.IsNaN(c.Score) && p.Score < c.Score:
				t.Fatalf("score %v before the higher %v", p.Score, c.Score)
			case (p.Score == c.Score || math.IsNaN(p.Score) && math.IsNaN(c.Score)) &&
				(p.UsedGPUs > c.UsedGPUs || p.UsedGPUs == c.UsedGPUs && pi > i):
				t.Fatalf("tie not broken by GPUs then input order: %+v before %+v", p, c)
			}
		}
	})
}

func TestCandidateJSONRoundTrip(t *testing.T) {
	value := rapid.OneOf(rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, 1e-7, 1e21, -3.25}), rapid.Float64())
	rapid.Check(t, func(t *rapid.T) {
		c := Candidate{
			Config:   map[string]any{"tp": 2.0, "name": "x", "nested": map[string]any{"a": []any{1.0, "b"}}},
			UsedGPUs: rapid.IntRange(0, 1<<20).Draw(t, "gpus"),
			Score:    value.Draw(t, "score"),
			Metrics:  map[string]float64{MetricGPUHours: value.Draw(t, "m1"), MetricMeanE2ELatency: value.Draw(t, "m2")},
		}
		switch rapid.IntRange(0, 2).Draw(t, "objectives") {
		case 1:
			c.Objectives = map[string]float64{}
		case 2:
			c.Objectives = map[string]float64{"throughput_per_gpu": value.Draw(t, "o1"), "e2e_latency": value.Draw(t, "o2")}
		}
		if rapid.Bool().Draw(t, "nil metrics") {
			c.Metrics, c.Config = nil, nil
		}
		checkCandidateRoundTrip(t, c)
	})
}

func TestCandidateJSONForm(t *testing.T) {
	c := Candidate{Config: map[string]any{"tp": 2}, UsedGPUs: 2, Score: math.Inf(-1),
		Metrics: map[string]float64{"b": math.NaN(), "a": 1.5}, Objectives: nil}
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"config":{"tp":2},"used_gpus":2,"score":"-Infinity","metrics":{"a":1.5,"b":"NaN"},"objectives":null}`
	if string(data) != want {
		t.Errorf("got  %s\nwant %s", data, want)
	}
	var got Candidate
	for _, bad := range []string{`{"score": "inf"}`, `{"metrics": {"a": "1"}}`, `{"score": true}`, `{"used_gpus": 1.5}`, `{"config": []}`} {
		if err := json.Unmarshal([]byte(bad), &got); !errors.Is(err, ErrInvalidCandidate) {
			t.Errorf("Unmarshal(%s) error = %v, want ErrInvalidCandidate", bad, err)
		}
	}
	// A failed run's null score must not decode as 0, which would rank first.
	if err := json.Unmarshal([]byte(`{"score": null, "used_gpus": 1}`), &got); !errors.Is(err, ErrInvalidCandidate) {
		t.Errorf("null score: %+v, %v, want ErrInvalidCandidate", got, err)
	}
}
