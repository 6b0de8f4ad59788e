package spica

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
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

// nonFiniteTokens is the one table of the spellings of the non-finite
// floats: the bare tokens of Python's json module, which are also the
// strings of protobuf's JSON mapping that NormalizeJSON and Candidate's
// encoding write.
var nonFiniteTokens = [...]struct {
	name string
	v    float64
}{{"NaN", nan}, {"Infinity", inf}, {"-Infinity", -inf}}

// nonFiniteName returns the spelling of a non-finite v ("" for a finite one).
func nonFiniteName(v float64) string {
	switch {
	case v != v:
		return nonFiniteTokens[0].name
	case v > math.MaxFloat64:
		return nonFiniteTokens[1].name
	case v < -math.MaxFloat64:
		return nonFiniteTokens[2].name
	}
	return ""
}

// nonFiniteValue returns the float spelled by b, one of nonFiniteTokens.
func nonFiniteValue(b []byte) (float64, bool) {
	for _, tok := range nonFiniteTokens {
		if string(b) == tok.name {
			return tok.v, true
		}
	}
	return 0, false
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

// numberSpan checks the number at the position (with nonFinite, also one of
// the bare non-finite tokens) and moves past it, returning its start. Only
// JSON's grammar is accepted: no '+', no hex, no '_', no leading zeros.
func (r *jsonReader) numberSpan() (start int, err error) {
	r.skipSpace()
	start = r.pos
	if r.nonFinite {
		for _, tok := range nonFiniteTokens {
			if len(r.data)-r.pos >= len(tok.name) && string(r.data[r.pos:r.pos+len(tok.name)]) == tok.name {
				r.pos += len(tok.name)
				if r.marks != nil {
					*r.marks = append(*r.marks, start)
				}
				return start, nil
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
		return start, r.errorf(r.pos, "invalid number: expected a digit, found %s", r.describe())
	}
	if r.pos < len(r.data) && r.data[r.pos] == '.' {
		r.pos++
		if r.digits() == 0 {
			return start, r.errorf(r.pos, "invalid number: expected a digit after '.', found %s", r.describe())
		}
	}
	if r.pos < len(r.data) && (r.data[r.pos] == 'e' || r.data[r.pos] == 'E') {
		r.pos++
		if r.pos < len(r.data) && (r.data[r.pos] == '+' || r.data[r.pos] == '-') {
			r.pos++
		}
		if r.digits() == 0 {
			return start, r.errorf(r.pos, "invalid number: expected an exponent digit, found %s", r.describe())
		}
	}
	return start, nil
}

// number reads a JSON number, or with nonFinite also NaN, Infinity and
// -Infinity. A number too large for a float64 is an error rather than a
// silent infinity; one too small for it rounds to 0, as strconv does. The
// error is the field's own: it wraps sentinel, the one any other invalid
// value at path gets, and names path (issue 26: the same fault must read the
// same through every entry point).
func (r *jsonReader) number(sentinel error, path string) (float64, error) {
	start, err := r.numberSpan()
	if err != nil {
		return 0, err
	}
	text := r.data[start:r.pos]
	if v, ok := nonFiniteValue(text); ok {
		return v, nil
	}
	v, err := strconv.ParseFloat(string(text), 64)
	if err != nil && math.IsInf(v, 0) {
		return 0, outOfRange(sentinel, path, start, text)
	}
	return v, nil
}

// outOfRange is the error for a number beyond the float64 range at path.
func outOfRange(sentinel error, path string, start int, text []byte) error {
	return errorAt(sentinel, path, start, "is %s, beyond the float64 range", text)
}

// skipChecked is skip for a value whose numbers encoding/json reads next
// into float64s: a number beyond the float64 range is an error wrapping
// sentinel at its own path (path, then ".key" and "[i]" below it) rather
// than encoding/json's error, which names no path.
func (r *jsonReader) skipChecked(sentinel error, path string) error {
	switch r.peek() {
	case kindObject:
		return r.members(func(ks, ke int) error {
			return r.skipChecked(sentinel, path+"."+r.keyString(ks, ke))
		})
	case kindArray:
		return r.array(func(i int) error {
			return r.skipChecked(sentinel, path+"["+strconv.Itoa(i)+"]")
		})
	case kindNumber:
		_, err := r.number(sentinel, path)
		return err
	}
	return r.skip()
}

// float reads a float where the schema wants one: a number, or one of the
// strings "NaN", "Infinity" and "-Infinity" (see [NormalizeJSON]). Any
// other kind is an error wrapping sentinel at path.
func (r *jsonReader) float(sentinel error, path string) (float64, error) {
	switch k := r.peek(); k {
	case kindNumber:
		return r.number(sentinel, path)
	case kindString:
		start := r.pos
		escaped, err := r.strSpan()
		if err != nil {
			return 0, err
		}
		var v float64
		ok := false
		if !escaped {
			v, ok = nonFiniteValue(r.data[start+1 : r.pos-1])
		} else {
			v, ok = nonFiniteValue([]byte(r.keyString(start, r.pos)))
		}
		if !ok {
			return 0, errorAt(sentinel, path, start, "is the string %s, want a number or one of \"NaN\", \"Infinity\", \"-Infinity\"", r.data[start:r.pos])
		}
		return v, nil
	case kindInvalid:
		return 0, r.skip() // the syntax error, with its offset
	default:
		return 0, errorAt(sentinel, path, r.pos, "is %s, want a number", k)
	}
}

func (r *jsonReader) digits() int {
	n := 0
	for r.pos < len(r.data) && r.data[r.pos] >= '0' && r.data[r.pos] <= '9' {
		r.pos++
		n++
	}
	return n
}

// parseJSONInt parses text, which must be a JSON number, as an exact
// non-negative int. A number with a fraction part or exponent is accepted
// when its value is an integer ("4.0", "4e0", "40e-1" are 4), since a JSON
// producer may write any of them for the same number; the digits are
// examined, never rounded through a float64, so "9007199254740993" stays
// odd. why says what is wrong when ok is false.
func parseJSONInt(text string) (n int, why string) {
	r := jsonReader{data: []byte(text)}
	if _, err := r.numberSpan(); err != nil || r.pos != len(text) {
		return 0, "not a JSON number"
	}
	neg := text[0] == '-'
	if neg {
		text = text[1:]
	}
	mant, exp := text, 0
	if i := strings.IndexAny(mant, "eE"); i >= 0 {
		e, err := strconv.Atoi(mant[i+1:])
		if err != nil { // an exponent beyond int: 0 or far too large
			e = math.MaxInt32
			if mant[i+1] == '-' {
				e = math.MinInt32
			}
		}
		mant, exp = mant[:i], e
	}
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		frac := mant[i+1:]
		mant = mant[:i] + frac
		exp -= len(frac)
	}
	// mant × 10^exp with mant a digit string: drop leading zeros, then move
	// trailing zeros into the exponent.
	for len(mant) > 1 && mant[0] == '0' {
		mant = mant[1:]
	}
	if mant == "0" {
		return 0, ""
	}
	for mant[len(mant)-1] == '0' {
		mant = mant[:len(mant)-1]
		exp++
	}
	switch {
	case exp < 0:
		return 0, "has a fraction"
	case neg:
		return 0, "negative"
	case len(mant)+exp > 19:
		return 0, "too large for an int"
	}
	v, err := strconv.ParseInt(mant+"0000000000000000000"[:exp], 10, 0)
	if err != nil {
		return 0, "too large for an int"
	}
	return int(v), ""
}
