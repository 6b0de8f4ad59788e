package spica

import (
	"errors"
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
