package spica

import (
	"bytes"
	"math"
	"strconv"
	"strings"
)

// Numbers in the strict JSON reader (strictjson.go): the JSON grammar of a
// number, the non-finite spellings Python and protobuf's JSON mapping use,
// a float64 out of range as its field's own error, and exact integers.

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

// nonFinitePrefix returns the spelling of the non-finite token data starts
// with, "" if none.
func nonFinitePrefix(data []byte) string {
	for _, tok := range nonFiniteTokens {
		if bytes.HasPrefix(data, []byte(tok.name)) {
			return tok.name
		}
	}
	return ""
}

// numberSpan checks the number at the position (with nonFinite, also one of
// the bare non-finite tokens) and moves past it, returning its start. Only
// JSON's grammar is accepted: no '+', no hex, no '_', no leading zeros.
func (r *jsonReader) numberSpan() (start int, err error) {
	r.skipSpace()
	start = r.pos
	if r.nonFinite {
		if tok := nonFinitePrefix(r.data[r.pos:]); tok != "" {
			r.pos += len(tok)
			if r.marks != nil {
				*r.marks = append(*r.marks, start)
			}
			return start, nil
		}
	}
	if r.pos < len(r.data) && r.data[r.pos] == '-' {
		r.pos++
	}
	switch {
	case r.pos < len(r.data) && r.data[r.pos] == '0':
		r.pos++
	case !r.digits():
		return start, r.errorf(r.pos, "invalid number: expected a digit, found %s", r.describe())
	}
	if r.pos < len(r.data) && r.data[r.pos] == '.' {
		r.pos++
		if !r.digits() {
			return start, r.errorf(r.pos, "invalid number: expected a digit after '.', found %s", r.describe())
		}
	}
	if r.pos < len(r.data) && (r.data[r.pos] == 'e' || r.data[r.pos] == 'E') {
		r.pos++
		if r.pos < len(r.data) && (r.data[r.pos] == '+' || r.data[r.pos] == '-') {
			r.pos++
		}
		if !r.digits() {
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

// digits moves past a run of decimal digits and reports whether there was
// one.
func (r *jsonReader) digits() bool {
	start := r.pos
	for r.pos < len(r.data) && r.data[r.pos] >= '0' && r.data[r.pos] <= '9' {
		r.pos++
	}
	return r.pos != start
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
	if i := strings.IndexAny(mant, "eE"); i != -1 {
		e, err := strconv.Atoi(mant[i+1:])
		if err != nil { // an exponent beyond int: 0 or far too large
			e = math.MaxInt32
			if mant[i+1] == '-' {
				e = math.MinInt32
			}
		}
		mant, exp = mant[:i], e
	}
	if i := strings.IndexByte(mant, '.'); i != -1 {
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
