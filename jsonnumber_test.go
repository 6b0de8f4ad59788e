package spica

import (
	"errors"
	"math"
	"testing"
)

// TestNumberCutShortAtEndOfInput reads reports whose last bytes are a
// number cut short: the grammar's checks must see the end of the input and
// say which digit is missing at len(data), never index past it.
func TestNumberCutShortAtEndOfInput(t *testing.T) {
	const head = `{"duration_ms": ` // 16 bytes: the number starts at byte 16
	for _, c := range []struct {
		number string
		msg    string
	}{
		{"-", "invalid number: expected a digit, found end of input"},
		{"1.", "invalid number: expected a digit after '.', found end of input"},
		{"1e", "invalid number: expected an exponent digit, found end of input"},
		{"1E+", "invalid number: expected an exponent digit, found end of input"},
		{"0.5e-", "invalid number: expected an exponent digit, found end of input"},
	} {
		data := head + c.number
		_, err := ParseReport([]byte(data))
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrInvalidReport) {
			t.Errorf("ParseReport(%q) = %v, want an *Error wrapping ErrInvalidReport", data, err)
			continue
		}
		if want := int64(len(head) + len(c.number)); e.Offset != want || e.Msg != c.msg {
			t.Errorf("ParseReport(%q): offset %d, msg %q; want offset %d, msg %q", data, e.Offset, e.Msg, want, c.msg)
		}
	}
}

// TestNonFiniteNameSpellsOnlyNonFinite checks that the spellings of NaN
// and the infinities go to those alone: ±MaxFloat64, the largest finite
// floats, are written as numbers.
func TestNonFiniteNameSpellsOnlyNonFinite(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
		{math.MaxFloat64, ""},
		{-math.MaxFloat64, ""},
		{0, ""},
	}
	for _, tt := range tests {
		if got := nonFiniteName(tt.v); got != tt.want {
			t.Errorf("nonFiniteName(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
	for v, want := range map[float64]string{math.MaxFloat64: "1.7976931348623157e+308", -math.MaxFloat64: "-1.7976931348623157e+308"} {
		if got, err := jsonFloat(v).MarshalJSON(); err != nil || string(got) != want {
			t.Errorf("jsonFloat(%v).MarshalJSON() = %s, %v; want %s", v, got, err, want)
		}
	}
}
