package spica

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// jsonReader is a small strict JSON reader for the two documents this
// package parses itself: goals and replay reports. encoding/json cannot do
// either job: it matches keys case-insensitively, lets a repeated key
// silently overwrite the first, and rejects the bare NaN and Infinity
// tokens that Python's json module writes into reports.
//
// Every error it makes wraps sentinel and says at which byte offset the
// input went wrong.
type jsonReader struct {
	data      []byte
	pos       int
	depth     int
	nonFinite bool  // accept NaN, Infinity and -Infinity as numbers
	sentinel  error // wrapped by every syntax error
}

// decodeDocument reads a whole document with decode, which wraps sentinel
// around syntax errors. A document that is only null reports isNull and
// decodes nothing; data after the value is an error.
func decodeDocument[T any](data []byte, sentinel error, decode func(*jsonReader) (T, error)) (v T, isNull bool, err error) {
	r := jsonReader{data: data, sentinel: sentinel}
	if isNull, err = r.null(); err == nil && !isNull {
		v, err = decode(&r)
	}
	if err == nil {
		err = r.end()
	}
	return v, isNull, err
}

// maxJSONDepth bounds nesting so that hostile input cannot grow the stack
// without limit.
const maxJSONDepth = 1000

// jsonKind classifies the value at the reader's position without reading it.
type jsonKind uint8

const (
	kindInvalid jsonKind = iota
	kindNull
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

var kindNames = [...]string{
	kindInvalid: "invalid JSON",
	kindNull:    "null",
	kindBool:    "a boolean",
	kindNumber:  "a number",
	kindString:  "a string",
	kindArray:   "an array",
	kindObject:  "an object",
}

func (k jsonKind) String() string { return kindNames[k] }

func (r *jsonReader) errorf(offset int, format string, args ...any) error {
	return fmt.Errorf("%w: at byte offset %d: %s", r.sentinel, offset, fmt.Sprintf(format, args...))
}

func (r *jsonReader) skipSpace() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// atEOF reports whether only white space remains.
func (r *jsonReader) atEOF() bool {
	r.skipSpace()
	return r.pos == len(r.data)
}

// end fails unless only white space remains.
func (r *jsonReader) end() error {
	if !r.atEOF() {
		return r.errorf(r.pos, "unexpected %s after the top-level value", r.describe())
	}
	return nil
}

// describe names the byte at the reader's position for an error message.
func (r *jsonReader) describe() string {
	if r.pos >= len(r.data) {
		return "end of input"
	}
	c := r.data[r.pos]
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// peek returns the kind of the next value after white space.
func (r *jsonReader) peek() jsonKind {
	r.skipSpace()
	if r.pos >= len(r.data) {
		return kindInvalid
	}
	switch c := r.data[r.pos]; {
	case c == '{':
		return kindObject
	case c == '[':
		return kindArray
	case c == '"':
		return kindString
	case c == 't' || c == 'f':
		return kindBool
	case c == 'n':
		return kindNull
	case c == '-' || (c >= '0' && c <= '9'):
		return kindNumber
	case (c == 'N' || c == 'I') && r.nonFinite:
		return kindNumber
	}
	return kindInvalid
}

func (r *jsonReader) expect(c byte, what string) error {
	r.skipSpace()
	if r.pos >= len(r.data) || r.data[r.pos] != c {
		return r.errorf(r.pos, "expected %s, found %s", what, r.describe())
	}
	r.pos++
	return nil
}

// literal consumes word (true, false, null, NaN, …) at the position.
func (r *jsonReader) literal(word string) error {
	if len(r.data)-r.pos < len(word) || string(r.data[r.pos:r.pos+len(word)]) != word {
		return r.errorf(r.pos, "invalid literal, expected %q", word)
	}
	r.pos += len(word)
	return nil
}

// null consumes a null literal if one is next and reports whether it did.
func (r *jsonReader) null() (bool, error) {
	if r.peek() != kindNull {
		return false, nil
	}
	return true, r.literal("null")
}

// object reads an object, calling member for each key with the reader
// positioned at the value, which member must consume. A key given twice is
// an error wrapping ErrUnknownField as well as the reader's sentinel.
func (r *jsonReader) object(member func(key string) error) error {
	if err := r.expect('{', "'{'"); err != nil {
		return err
	}
	if err := r.enter(); err != nil {
		return err
	}
	seen := make(map[string]struct{})
	r.skipSpace()
	if r.pos < len(r.data) && r.data[r.pos] == '}' {
		r.pos++
		r.depth--
		return nil
	}
	for {
		r.skipSpace()
		keyAt := r.pos
		if r.peek() != kindString {
			return r.errorf(r.pos, "expected a string key, found %s", r.describe())
		}
		key, err := r.str()
		if err != nil {
			return err
		}
		if _, dup := seen[key]; dup {
			return fmt.Errorf("%w: %w: key %q given twice (again at byte offset %d)", r.sentinel, ErrUnknownField, key, keyAt)
		}
		seen[key] = struct{}{}
		if err := r.expect(':', "':' after object key"); err != nil {
			return err
		}
		if err := member(key); err != nil {
			return err
		}
		r.skipSpace()
		if r.pos < len(r.data) && r.data[r.pos] == ',' {
			r.pos++
			continue
		}
		if err := r.expect('}', "',' or '}' in object"); err != nil {
			return err
		}
		r.depth--
		return nil
	}
}

// array reads an array, calling item for each element with the reader
// positioned at it; item must consume it.
func (r *jsonReader) array(item func(i int) error) error {
	if err := r.expect('[', "'['"); err != nil {
		return err
	}
	if err := r.enter(); err != nil {
		return err
	}
	r.skipSpace()
	if r.pos < len(r.data) && r.data[r.pos] == ']' {
		r.pos++
		r.depth--
		return nil
	}
	for i := 0; ; i++ {
		if err := item(i); err != nil {
			return err
		}
		r.skipSpace()
		if r.pos < len(r.data) && r.data[r.pos] == ',' {
			r.pos++
			continue
		}
		if err := r.expect(']', "',' or ']' in array"); err != nil {
			return err
		}
		r.depth--
		return nil
	}
}

func (r *jsonReader) enter() error {
	r.depth++
	if r.depth > maxJSONDepth {
		return r.errorf(r.pos, "nesting deeper than %d", maxJSONDepth)
	}
	return nil
}

// skip reads and discards one value of any kind.
func (r *jsonReader) skip() error {
	switch r.peek() {
	case kindObject:
		return r.object(func(string) error { return r.skip() })
	case kindArray:
		return r.array(func(int) error { return r.skip() })
	case kindString:
		_, err := r.str()
		return err
	case kindNumber:
		_, err := r.number()
		return err
	case kindBool:
		if r.data[r.pos] == 't' {
			return r.literal("true")
		}
		return r.literal("false")
	case kindNull:
		return r.literal("null")
	}
	return r.errorf(r.pos, "expected a value, found %s", r.describe())
}

// str reads a string value.
func (r *jsonReader) str() (string, error) {
	start := r.pos
	if err := r.expect('"', "a string"); err != nil {
		return "", err
	}
	escaped := false
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		switch {
		case c == '"':
			r.pos++
			raw := r.data[start:r.pos]
			if !escaped && utf8.Valid(raw) {
				return string(raw[1 : len(raw)-1]), nil
			}
			// The grammar is already checked, so encoding/json only
			// resolves escapes and replaces invalid UTF-8, as it would.
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", r.errorf(start, "invalid string: %v", err)
			}
			return s, nil
		case c == '\\':
			escaped = true
			if r.pos+1 >= len(r.data) {
				r.pos = len(r.data)
				return "", r.errorf(r.pos, "unterminated string")
			}
			switch r.data[r.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				r.pos += 2
			case 'u':
				if len(r.data)-r.pos < 6 || !isHex4(r.data[r.pos+2:r.pos+6]) {
					return "", r.errorf(r.pos, "invalid \\u escape in string")
				}
				r.pos += 6
			default:
				return "", r.errorf(r.pos, "invalid escape in string")
			}
		case c < 0x20:
			return "", r.errorf(r.pos, "control character 0x%02x in string", c)
		default:
			r.pos++
		}
	}
	return "", r.errorf(r.pos, "unterminated string")
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// number reads a JSON number, or with nonFinite also NaN, Infinity and
// -Infinity. A number too large for a float64 is an error rather than a
// silent infinity.
func (r *jsonReader) number() (float64, error) {
	r.skipSpace()
	start := r.pos
	if r.nonFinite {
		for _, lit := range [...]struct {
			word string
			v    float64
		}{{"NaN", nan}, {"Infinity", inf}, {"-Infinity", -inf}} {
			if len(r.data)-r.pos >= len(lit.word) && string(r.data[r.pos:r.pos+len(lit.word)]) == lit.word {
				r.pos += len(lit.word)
				return lit.v, nil
			}
		}
	}
	if r.pos < len(r.data) && r.data[r.pos] == '-' {
		r.pos++
	}
	switch {
	case r.pos < len(r.data) && r.data[r.pos] == '0':
		r.pos++
	case r.digits() == 0:
		return 0, r.errorf(r.pos, "invalid number: expected a digit, found %s", r.describe())
	}
	if r.pos < len(r.data) && r.data[r.pos] == '.' {
		r.pos++
		if r.digits() == 0 {
			return 0, r.errorf(r.pos, "invalid number: expected a digit after '.', found %s", r.describe())
		}
	}
	if r.pos < len(r.data) && (r.data[r.pos] == 'e' || r.data[r.pos] == 'E') {
		r.pos++
		if r.pos < len(r.data) && (r.data[r.pos] == '+' || r.data[r.pos] == '-') {
			r.pos++
		}
		if r.digits() == 0 {
			return 0, r.errorf(r.pos, "invalid number: expected an exponent digit, found %s", r.describe())
		}
	}
	text := string(r.data[start:r.pos])
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) && (v > 1 || v < -1) {
			return 0, r.errorf(start, "number %s is out of the float64 range", text)
		}
		if !errors.Is(err, strconv.ErrRange) {
			return 0, r.errorf(start, "invalid number %s", text)
		}
	}
	return v, nil
}

func (r *jsonReader) digits() int {
	n := 0
	for r.pos < len(r.data) && r.data[r.pos] >= '0' && r.data[r.pos] <= '9' {
		r.pos++
		n++
	}
	return n
}
