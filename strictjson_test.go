package spica

import (
	"errors"
	"strings"
	"testing"
)

// TestStrictReaderEdges reads reports at the edges of the strict reader by
// hand: what an error calls the byte it found (printable ASCII quoted,
// anything else as hex: a space after a minus sign is ' ', DEL is 0x7f),
// literals cut short at the end of the input, a key that is one escaped
// backslash, and a thousand empty objects and arrays side by side, which
// nest only one level deep.
func TestStrictReaderEdges(t *testing.T) {
	for _, c := range []struct {
		data   string
		path   string
		offset int64
		msg    string
	}{
		// `{"a": ` is 6 bytes: the value starts at byte 6.
		{`{"a": - 1}`, "", 7, "invalid number: expected a digit, found ' '"},
		{"{\"a\": \x7f}", "", 6, "expected a value, found byte 0x7f"},
		{"{\"a\": \x1f}", "", 6, "expected a value, found byte 0x1f"},
		{`{"a": ~}`, "", 6, `expected a value, found '~'`},
		{`{"a": tru`, "", 6, `invalid literal, expected "true"`},
		{`{"a": nul`, "", 6, `invalid literal, expected "null"`},
		// The key `"\\"` is one backslash once decoded; the second one starts
		// at byte 10.
		{`{"\\": 1, "\\": 2}`, `\`, 10, `key "\\" given twice`},
		// A string cut short: after a backslash (byte 8, the last), after a
		// \u escape with exactly its four digits left (bytes 7 to 12), and
		// inside one with two of them left, which is the escape's fault,
		// at its backslash, byte 7.
		{`{"a": "x\`, "", 9, "unterminated string"},
		{`{"a": "\u0041`, "", 13, "unterminated string"},
		{`{"a": "\u00`, "", 7, `invalid \u escape in string`},
	} {
		data := []byte(c.data)
		_, err := ParseReport(data[:len(data):len(data)]) // nothing past the end to read by mistake
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("ParseReport(%q) = %v, want an *Error", c.data, err)
			continue
		}
		if e.Path != c.path || e.Offset != c.offset || e.Msg != c.msg {
			t.Errorf("ParseReport(%q): path %q, offset %d, msg %q; want %q, %d, %q", c.data, e.Path, e.Offset, e.Msg, c.path, c.offset, c.msg)
		}
	}

	// \u takes exactly the hex digits 0-9, a-f and A-F: each end of each
	// range passes, and the byte just outside it fails at the backslash.
	for _, c := range "09afAF" {
		if _, err := ParseReport([]byte(`{"a": "\u00` + string(c) + string(c) + `"}`)); err != nil {
			t.Errorf("\\u00%c%c: %v", c, c, err)
		}
	}
	for _, c := range "/:`g@G" {
		_, err := ParseReport([]byte(`{"a": "\u0` + string(c) + `00"}`))
		var e *Error
		if !errors.As(err, &e) || e.Offset != 7 || e.Msg != `invalid \u escape in string` {
			t.Errorf("\\u0%c00: %v, want an invalid \\u escape at byte 7", c, err)
		}
	}

	// Empty objects and arrays close their own level: 1001 of each side by
	// side inside a candidate's config (one level below the limit of 1000
	// would be reached if each one left a level open).
	many := func(empty string) string { return strings.TrimSuffix(strings.Repeat(empty+",", 1001), ",") }
	for _, empty := range []string{"{}", "[]"} {
		data := `{"config": {"x": [` + many(empty) + `]}, "score": 1}`
		var cand Candidate
		if err := cand.UnmarshalJSON([]byte(data)); err != nil {
			t.Errorf("1001 × %s in config: %v", empty, err)
		} else if x, _ := cand.Config["x"].([]any); len(x) != 1001 {
			t.Errorf("1001 × %s in config: read %d", empty, len(x))
		}
	}
}
