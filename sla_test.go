package spica

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestSLAValidate(t *testing.T) {
	tests := []struct {
		name      string
		sla       SLATarget
		wantField string // "" means valid
	}{
		{"the zero SLA is valid", SLATarget{}, ""},
		{"all three bounds set", SLATarget{TTFTMs: 500, ITLMs: 50, E2EMs: 3000}, ""},
		{"a tiny positive bound is valid", SLATarget{E2EMs: math.SmallestNonzeroFloat64}, ""},
		{"negative ttft", SLATarget{TTFTMs: -1, ITLMs: 50}, "ttft_ms"},
		{"negative itl", SLATarget{TTFTMs: 1, ITLMs: -50}, "itl_ms"},
		{"NaN e2e", SLATarget{E2EMs: math.NaN()}, "e2e_ms"},
		{"+Inf e2e", SLATarget{E2EMs: math.Inf(1)}, "e2e_ms"},
		{"-Inf itl", SLATarget{ITLMs: math.Inf(-1)}, "itl_ms"},
		{"the first bad field is named", SLATarget{TTFTMs: -1, E2EMs: math.NaN()}, "ttft_ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.sla.Validate()
			if tt.wantField == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidSLA) {
				t.Fatalf("Validate() = %v, want ErrInvalidSLA", err)
			}
			if !strings.Contains(err.Error(), tt.wantField) {
				t.Errorf("message %q does not name %s", err, tt.wantField)
			}
		})
	}
}

func TestSLASatisfying(t *testing.T) {
	tests := []struct {
		sla  SLATarget
		want bool
	}{
		{SLATarget{}, false},
		{SLATarget{TTFTMs: 500}, false},
		{SLATarget{ITLMs: 50}, false},
		{SLATarget{TTFTMs: 500, ITLMs: 50}, true},
		{SLATarget{E2EMs: 3000}, true},
		{SLATarget{TTFTMs: 500, E2EMs: 3000}, true},
		{SLATarget{TTFTMs: 500, ITLMs: 50, E2EMs: -1}, false}, // invalid is never satisfying
		{SLATarget{E2EMs: math.Inf(1)}, false},
	}
	for _, tt := range tests {
		if got := tt.sla.Satisfying(); got != tt.want {
			t.Errorf("%+v.Satisfying() = %v, want %v", tt.sla, got, tt.want)
		}
	}
	if !(SLATarget{}).IsZero() || (SLATarget{ITLMs: 1}).IsZero() {
		t.Error("IsZero is wrong")
	}
}

func TestSLAUnmarshalJSON(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     SLATarget
		sentinel error
		path     string
		offset   int64 // counted by hand
	}{
		{"all bounds", `{"ttft_ms": 500, "itl_ms": 50.5, "e2e_ms": 3e3}`, SLATarget{500, 50.5, 3000}, nil, "", 0},
		{"empty object", `{}`, SLATarget{}, nil, "", 0},
		{"null leaves a bound unset", `{"ttft_ms": null, "e2e_ms": 10}`, SLATarget{E2EMs: 10}, nil, "", 0},
		{"explicit zero", `{"ttft_ms": 0}`, SLATarget{}, ErrInvalidSLA, "ttft_ms", 12},
		{"negative", `{"itl_ms": -5}`, SLATarget{}, ErrInvalidSLA, "itl_ms", 11},
		{"string", `{"e2e_ms": "100"}`, SLATarget{}, ErrInvalidSLA, "e2e_ms", 11},
		{"bool", `{"e2e_ms": true}`, SLATarget{}, ErrInvalidSLA, "e2e_ms", 11},
		{"out of range", `{"e2e_ms": 1e400}`, SLATarget{}, ErrInvalidSLA, "e2e_ms", 11},
		{"unknown key", `{"ttft": 5}`, SLATarget{}, ErrUnknownField, "ttft", 1},
		{"case mismatch is unknown", `{"TTFT_ms": 5}`, SLATarget{}, ErrUnknownField, "TTFT_ms", 1},
		{"Go field name is unknown", `{"TTFTMs": 5}`, SLATarget{}, ErrUnknownField, "TTFTMs", 1},
		{"duplicate key", `{"e2e_ms": 5, "e2e_ms": 6}`, SLATarget{}, ErrDuplicateKey, "e2e_ms", 14},
		{"not an object", `[1]`, SLATarget{}, ErrInvalidSLA, "", 0},
		{"NaN token is not JSON here", `{"e2e_ms": NaN}`, SLATarget{}, ErrInvalidSLA, "", 11},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got SLATarget
			err := json.Unmarshal([]byte(tt.in), &got)
			if tt.sentinel == nil {
				if err != nil || got != tt.want {
					t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
				}
				return
			}
			if tt.name == "NaN token is not JSON here" {
				// encoding/json rejects the token before our code runs;
				// call the method directly to see our own error.
				err = got.UnmarshalJSON([]byte(tt.in))
			}
			checkError(t, err, tt.sentinel, tt.path, tt.offset)
			if got != (SLATarget{}) {
				t.Errorf("SLA modified on error: %+v", got)
			}
		})
	}
}

func TestSLAUnmarshalNullKeepsValue(t *testing.T) {
	s := SLATarget{E2EMs: 7}
	if err := s.UnmarshalJSON([]byte(" null ")); err != nil || s.E2EMs != 7 {
		t.Errorf("null: %+v, %v", s, err)
	}
}

func TestSLAJSONRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		bound := rapid.OneOf(rapid.Just(0.0), rapid.Float64Range(1e-9, 1e9))
		in := SLATarget{bound.Draw(t, "ttft"), bound.Draw(t, "itl"), bound.Draw(t, "e2e")}
		data, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		var out SLATarget
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatalf("decoding %s: %v", data, err)
		}
		if out != in {
			t.Fatalf("%s decoded to %+v, want %+v", data, out, in)
		}
	})
}

func FuzzSLATargetJSON(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `{"ttft_ms": 500, "itl_ms": 50}`, `{"e2e_ms": 1e-3}`, `{"e2e_ms": 0}`,
		`{"x": 1}`, `{"e2e_ms": 1, "e2e_ms": 2}`, `{"itl_ms": "\u0031"}`, `[`, `{"e2e_ms": -0.0}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s SLATarget
		if err := s.UnmarshalJSON(data); err != nil {
			if s != (SLATarget{}) {
				t.Fatalf("SLA modified on error: %+v", s)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("accepted an invalid SLA %+v: %v", s, err)
		}
		enc, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("cannot re-encode %+v: %v", s, err)
		}
		var again SLATarget
		if err := again.UnmarshalJSON(enc); err != nil || again != s {
			t.Fatalf("re-parse of %s = %+v, %v; want %+v", enc, again, err, s)
		}
	})
}
