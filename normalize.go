package spica

import "strconv"

// NormalizeJSON returns data as standard JSON: each bare NaN, Infinity or
// -Infinity token outside a string, as Python's json module writes
// non-finite floats, becomes the string "NaN", "Infinity" or "-Infinity"
// (the convention of protobuf's JSON mapping); every other byte is kept as
// it is. A record that holds a Python-written report can then be split with
// encoding/json, and [Report.UnmarshalJSON] and [Candidate.UnmarshalJSON]
// read those strings back as the floats they stand for.
//
// data must hold exactly one JSON value (white space around it allowed);
// malformed input, or nesting deeper than 1000 arrays and objects, is an
// error wrapping [ErrInvalidJSON] with the byte offset of the fault. The result is always a new slice; data is not
// modified. It costs one pass over data, O(len(data)).
func NormalizeJSON(data []byte) ([]byte, error) {
	var marks []int
	r := jsonReader{data: data, nonFinite: true, sentinel: ErrInvalidJSON, marks: &marks}
	err := r.skip()
	if err == nil {
		err = r.end()
	}
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(data)+2*len(marks))
	prev := 0
	for _, at := range marks { // each at a token numberSpan read
		tok := nonFinitePrefix(data[at:])
		out = strconv.AppendQuote(append(out, data[prev:at]...), tok)
		prev = at + len(tok)
	}
	return append(out, data[prev:]...), nil
}
