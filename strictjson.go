package spica

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"
)

// jsonReader is a small strict JSON reader for the documents this package
// parses itself: goals, SLAs, replay reports and candidates. encoding/json
// cannot do these jobs: it matches keys case-insensitively, lets a repeated
// key silently overwrite the first, and rejects the bare NaN and Infinity
// tokens that Python's json module writes into reports.
//
// Offsets in its errors are relative to data, which for an UnmarshalJSON
// method is the value being decoded, as encoding/json hands it over.
type jsonReader struct {
	data      []byte
	pos       int
	depth     int
	nonFinite bool  // accept NaN, Infinity and -Infinity as numbers
	sentinel  error // wrapped by every syntax error

	// marks, when non-nil, collects the start of every bare non-finite
	// token that scan passes (NormalizeJSON rewrites them).
	marks *[]int
}

// decodeDocument reads a whole document with decode. A document that is
// only null reports isNull and decodes nothing; data after the value is an
// error.
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

// errorf is a syntax error at offset, wrapping the reader's sentinel.
func (r *jsonReader) errorf(offset int, format string, args ...any) error {
	return errorAt(r.sentinel, "", offset, format, args...)
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

// literal consumes word (true, false, null) at the position.
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

// members reads an object, calling member for each key with the key's span
// (quotes included) and the reader positioned at the value, which member
// must consume. It builds nothing itself: callers that need the key decode
// it with keyString.
func (r *jsonReader) members(member func(keyStart, keyEnd int) error) error {
	if err := r.expect('{', "'{'"); err != nil {
		return err
	}
	if err := r.enter(); err != nil {
		return err
	}
	r.skipSpace()
	if r.pos < len(r.data) && r.data[r.pos] == '}' {
		r.pos++
		r.depth--
		return nil
	}
	for {
		r.skipSpace()
		keyStart := r.pos
		if r.peek() != kindString {
			return r.errorf(r.pos, "expected a string key, found %s", r.describe())
		}
		if _, err := r.strSpan(); err != nil {
			return err
		}
		keyEnd := r.pos
		if err := r.expect(':', "':' after object key"); err != nil {
			return err
		}
		if err := member(keyStart, keyEnd); err != nil {
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

// object reads an object whose keys matter, calling member for each key
// with the key's offset and the reader positioned at the value, which member
// must consume. A key given twice is an error wrapping [ErrDuplicateKey];
// prefix is the object's path ("sla." inside a goal, "" at the top).
func (r *jsonReader) object(prefix string, member func(key string, keyAt int) error) error {
	var seen []string           // most objects read this way have a handful of keys,
	var seenSet map[string]bool // but a candidate's metrics may have many
	return r.members(func(keyStart, keyEnd int) error {
		key := r.keyString(keyStart, keyEnd)
		dup := seenSet[key]
		if seenSet == nil {
			dup = slices.Contains(seen, key)
			if seen = append(seen, key); len(seen) > 16 {
				seenSet = make(map[string]bool, 2*len(seen))
				for _, k := range seen {
					seenSet[k] = true
				}
			}
		}
		if dup {
			return errorAt(ErrDuplicateKey, prefix+key, keyStart, "key %q given twice", key)
		}
		if seenSet != nil {
			seenSet[key] = true
		}
		return member(key, keyStart)
	})
}

// keyString decodes the string whose span, quotes included, is
// data[start:end]; the span has passed strSpan.
func (r *jsonReader) keyString(start, end int) string {
	raw := r.data[start:end]
	if !hasEscape(raw) && utf8.Valid(raw) {
		return string(raw[1 : len(raw)-1])
	}
	// The grammar is checked, so encoding/json only resolves escapes and
	// replaces invalid UTF-8, as it would.
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

func hasEscape(raw []byte) bool {
	for _, c := range raw {
		if c == '\\' {
			return true
		}
	}
	return false
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

// skip checks that one value of any kind is well-formed and moves past it,
// building nothing: no keys, no strings, no numbers. What repeats inside a
// skipped object is not checked; that is the business of whoever reads it.
func (r *jsonReader) skip() error {
	switch r.peek() {
	case kindObject:
		return r.members(func(int, int) error { return r.skip() })
	case kindArray:
		return r.array(func(int) error { return r.skip() })
	case kindString:
		_, err := r.strSpan()
		return err
	case kindNumber:
		_, err := r.numberSpan()
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
	if _, err := r.strSpan(); err != nil {
		return "", err
	}
	return r.keyString(start, r.pos), nil
}

// strSpan checks the string at the position and moves past it, reporting
// whether it holds an escape.
func (r *jsonReader) strSpan() (escaped bool, err error) {
	if err := r.expect('"', "a string"); err != nil {
		return false, err
	}
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		switch {
		case c == '"':
			r.pos++
			return escaped, nil
		case c == '\\':
			escaped = true
			if r.pos+1 >= len(r.data) {
				r.pos = len(r.data)
				return false, r.errorf(r.pos, "unterminated string")
			}
			switch r.data[r.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				r.pos += 2
			case 'u':
				if len(r.data)-r.pos < 6 || !isHex4(r.data[r.pos+2:r.pos+6]) {
					return false, r.errorf(r.pos, "invalid \\u escape in string")
				}
				r.pos += 6
			default:
				return false, r.errorf(r.pos, "invalid escape in string")
			}
		case c < 0x20:
			return false, r.errorf(r.pos, "control character 0x%02x in string", c)
		default:
			r.pos++
		}
	}
	return false, r.errorf(r.pos, "unterminated string")
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
