package spica

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestCandidateUnmarshalJSONAccepts(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Candidate
	}{
		{"every field", `{"config": {"tp": 2, "name": "a"}, "used_gpus": 2, "score": 1.5, "metrics": {"gpu_hours": 2}, "objectives": {"throughput": 3}}`,
			Candidate{Config: map[string]any{"tp": 2.0, "name": "a"}, UsedGPUs: 2, Score: 1.5, Metrics: map[string]float64{"gpu_hours": 2}, Objectives: map[string]float64{"throughput": 3}}},
		{"the three strings are floats", `{"score": "-Infinity", "metrics": {"a": "NaN", "b": "Infinity"}}`,
			Candidate{Score: -inf, Metrics: map[string]float64{"a": nan, "b": inf}}},
		{"bare tokens when called directly", `{"score": NaN, "objectives": {"e2e_latency": Infinity}}`,
			Candidate{Score: nan, Objectives: map[string]float64{"e2e_latency": inf}}},
		{"null config, metrics and objectives stay zero", `{"config": null, "metrics": null, "objectives": null}`, Candidate{}},
		{"a null entry is left out", `{"metrics": {"a": null, "b": 1}}`, Candidate{Metrics: map[string]float64{"b": 1}}},
		{"used_gpus exact above 2^53", `{"used_gpus": 9007199254740993}`, Candidate{UsedGPUs: 9007199254740993}},
		{"used_gpus 4.0 and 4e0 are 4", `{"used_gpus": 4.0e0}`, Candidate{UsedGPUs: 4}},
		{"config as encoding/json reads it: repeats fold", `{"config": {"a": 1, "a": 2, "A": 3}}`, Candidate{Config: map[string]any{"a": 2.0, "A": 3.0}}},
		{"escaped keys", `{"sc\u006fre": 1}`, Candidate{Score: 1}},
		{"many metrics", `{"metrics": {"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"r":18}}`,
			Candidate{Metrics: map[string]float64{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9, "j": 10, "k": 11, "l": 12, "m": 13, "n": 14, "o": 15, "p": 16, "q": 17, "r": 18}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got Candidate
			if err := got.UnmarshalJSON([]byte(tt.in)); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, sameFloat); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestCandidateUnmarshalJSONRejects(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		sentinel error
		path     string
		offset   int64 // counted by hand
	}{
		{"an unknown key", `{"score": 1, "scroe": 2}`, ErrUnknownField, "scroe", 13},
		{"a case-mismatched key", `{"Score": 1}`, ErrUnknownField, "Score", 1},
		{"a repeated key", `{"score": 1, "score": 2}`, ErrDuplicateKey, "score", 13},
		{"a repeated metric", `{"metrics": {"a": 1, "a": 2}}`, ErrDuplicateKey, "metrics.a", 21},
		{"a repeated objective among many", `{"objectives": {"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"a":18}}`, ErrDuplicateKey, "objectives.a", 126},
		{"a string score", `{"score": "inf"}`, ErrInvalidCandidate, "score", 10},
		{"a string metric", `{"metrics": {"a": "1"}}`, ErrInvalidCandidate, "metrics.a", 18},
		{"a boolean score", `{"score": true}`, ErrInvalidCandidate, "score", 10},
		{"metrics not an object", `{"metrics": [1]}`, ErrInvalidCandidate, "metrics", 12},
		{"a fractional used_gpus", `{"used_gpus": 1.5}`, ErrInvalidCandidate, "used_gpus", 14},
		{"a negative used_gpus", `{"used_gpus": -1}`, ErrInvalidCandidate, "used_gpus", 14},
		{"a string used_gpus", `{"used_gpus": "4"}`, ErrInvalidCandidate, "used_gpus", 14},
		// Python writes None for a failed run: read as 0, such a score would
		// rank first among latency candidates (whose scores are negative).
		{"a null score", `{"score": null}`, ErrInvalidCandidate, "score", 10},
		{"a null used_gpus", `{"used_gpus": null}`, ErrInvalidCandidate, "used_gpus", 14},
		{"a null score after a config", `{"config": {}, "score":null}`, ErrInvalidCandidate, "score", 23},
		{"config not an object", `{"config": []}`, ErrInvalidCandidate, "config", 11},
		{"bare NaN inside config", `{"config": {"x": NaN}}`, ErrInvalidCandidate, "", 17},
		{"not an object", `[]`, ErrInvalidCandidate, "", 0},
		{"truncated", `{"score": 1`, ErrInvalidCandidate, "", 11},
		{"trailing data", `{} 1`, ErrInvalidCandidate, "", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Candidate{Score: 7}
			checkError(t, c.UnmarshalJSON([]byte(tt.in)), tt.sentinel, tt.path, tt.offset)
			if c.Score != 7 {
				t.Errorf("candidate changed on error: %+v", c)
			}
		})
	}
}

// TestCandidateInsideARecord decodes a candidate nested in a caller's
// document with encoding/json: offsets are relative to the candidate.
func TestCandidateInsideARecord(t *testing.T) {
	var rec struct {
		Run  int         `json:"run"`
		Cand []Candidate `json:"cands"`
	}
	err := json.Unmarshal([]byte(`{"run": 1, "cands": [{"score": 1}, {"score": 2, "bogus": 0}]}`), &rec)
	checkError(t, err, ErrUnknownField, "bogus", 13)
}

func TestCandidateMarshalJSONNamesTheConfigKey(t *testing.T) {
	for _, tt := range []struct {
		name   string
		config map[string]any
		path   string
	}{
		{"a NaN", map[string]any{"a": 1, "bad": math.NaN(), "z": 2}, "config.bad"},
		{"a channel", map[string]any{"ch": make(chan int)}, "config.ch"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := json.Marshal(Candidate{Config: tt.config})
			checkError(t, err, ErrInvalidCandidate, tt.path, -1)
		})
	}
	// Not reached through the keys: a config whose keys all encode alone
	// but not together cannot be built, so the fallback names "config".
	err := configError(map[string]any{"ok": 1}, errors.New("boom"))
	checkError(t, err, ErrInvalidCandidate, "config", -1)
}

func FuzzCandidateJSON(f *testing.F) {
	for _, s := range []string{`{"config": {"tp": 2}, "used_gpus": 2, "score": "NaN", "metrics": {"a": 1}, "objectives": null}`,
		`{"score": 1, "score": 2}`, `{"used_gpus": 9007199254740993}`, `{"used_gpus": 4e0}`, `{"metrics": {"a": "Infinity"}}`,
		`{"config": {"a": [1, {"b": null}]}}`, `{"x": 1}`, `[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Candidate
		if err := c.UnmarshalJSON(data); err != nil {
			if msg := oneSentinel(err); msg != "" {
				t.Fatal(msg)
			}
			if off := (err.(*Error)).Offset; off > int64(len(data)) {
				t.Fatalf("offset %d beyond the input", off)
			}
			return
		}
		checkCandidateRoundTrip(t, c)
	})
}

// checkCandidateRoundTrip fails unless c encodes with encoding/json and
// decodes back to itself, NaN equal to NaN.
func checkCandidateRoundTrip(t interface {
	Helper()
	Fatalf(string, ...any)
}, c Candidate) {
	t.Helper()
	enc, err := json.Marshal(c)
	if err != nil {
		t.Fatalf("cannot encode %+v: %v", c, err)
	}
	var again Candidate
	if err := json.Unmarshal(enc, &again); err != nil {
		t.Fatalf("cannot decode %s: %v", enc, err)
	}
	if diff := cmp.Diff(c, again, sameFloat); diff != "" {
		t.Fatalf("round trip of %s (-first +again):\n%s", enc, diff)
	}
}

// TestParseJSONIntMatchesExactArithmetic checks the integer reader of
// used_gpus against math/big's exact rationals on JSON numbers of every
// shape: leading zeros in fractions, trailing zeros, exponents that cancel
// them, values around 2^53 and 2^63.
func TestParseJSONIntMatchesExactArithmetic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		digits := rapid.StringMatching(`[0-9]{1,22}`).Draw(t, "digits")
		for len(digits) > 1 && digits[0] == '0' {
			digits = digits[1:] // JSON has no leading zeros
		}
		text := digits
		if rapid.Bool().Draw(t, "negative") {
			text = "-" + text
		}
		if rapid.Bool().Draw(t, "fraction") {
			text += "." + rapid.StringMatching(`[0-9]{1,6}`).Draw(t, "frac")
		}
		if rapid.Bool().Draw(t, "exponent") {
			text += rapid.SampledFrom([]string{"e", "E", "e+", "e-", "E-"}).Draw(t, "e") + strconv.Itoa(rapid.IntRange(0, 25).Draw(t, "exp"))
		}
		got, why := parseJSONInt(text)
		var r big.Rat
		if _, ok := r.SetString(text); !ok {
			t.Fatalf("big.Rat cannot read %q", text)
		}
		ok := r.IsInt() && r.Sign() >= 0 && r.Num().IsInt64()
		if ok != (why == "") {
			t.Fatalf("parseJSONInt(%q) = %d, %q; exact value %s", text, got, why, r.RatString())
		}
		if ok && int64(got) != r.Num().Int64() {
			t.Fatalf("parseJSONInt(%q) = %d, want %s", text, got, r.RatString())
		}
	})
}

// TestNumberSpanAtTheEnd reads numbers cut short at the end of the data,
// where every look at the next byte must first check that there is one:
// each is an error, not an index out of range.
func TestNumberSpanAtTheEnd(t *testing.T) {
	for _, text := range []string{"", "-", "1.", "1e", "1e+", "-0."} {
		r := jsonReader{data: []byte(text), nonFinite: true}
		if _, err := r.numberSpan(); err == nil {
			t.Errorf("numberSpan(%q) = nil error", text)
		}
		if _, why := parseJSONInt(text); why != "not a JSON number" {
			t.Errorf("parseJSONInt(%q): %q, want not a JSON number", text, why)
		}
	}
}
