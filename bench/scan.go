package bench

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/spica-search/spica"
)

// The readers do not decode into map[string]any: one pass over the bytes
// builds a flat, preorder list of nodes that point into the input, and a
// reader looks up only the keys it maps. Numbers are converted when read,
// strings unescaped only when one holds an escape. That keeps reading a
// result file cheaper than encoding/json's generic decoding of the same
// bytes (BenchmarkReadFiles measures both), and lets every error carry the
// byte offset of the value at fault.

// kind is the JSON type of a node.
type kind uint8

const (
	kindNull kind = iota
	kindFalse
	kindTrue
	kindNumber // a JSON number, or Python's bare NaN, Infinity, -Infinity
	kindString
	kindObject
	kindArray
)

// node is one JSON value. The children of an object or array follow it in
// the list; next is the index just past its subtree, so siblings are
// walked by jumping from one next to the following.
type node struct {
	kind   kind
	esc    bool   // the string value holds a backslash escape
	keyEsc bool   // the member key holds a backslash escape
	off    int    // byte offset of the value in the document
	next   int    // index of the node after this subtree
	key    []byte // the member key, quotes stripped (nil outside objects)
	raw    []byte // a number's token, or a string's bytes between its quotes
}

// maxDepth bounds nesting, as encoding/json does, so a hostile document
// of brackets cannot exhaust the stack.
const maxDepth = 10000

// doc is a parsed JSON value: its nodes, the first being the root.
type doc struct {
	data  []byte
	nodes []node
}

// parser scans one JSON value from data[pos:].
type parser struct {
	data  []byte
	pos   int
	nodes []node
	depth int
}

// syntaxError is a malformed-document error at byte off.
func syntaxError(off int, format string, args ...any) *spica.Error {
	return &spica.Error{Offset: int64(off), Err: spica.ErrInvalidReport, Msg: fmt.Sprintf(format, args...)}
}

// parseDoc parses data as exactly one JSON value with optional white space
// around it. nodes is reused as the node list's storage.
func parseDoc(data []byte, nodes []node) (doc, error) {
	p := parser{data: data, nodes: nodes[:0]}
	p.skipSpace()
	if err := p.value(nil, false); err != nil {
		return doc{}, err
	}
	p.skipSpace()
	if p.pos < len(data) {
		return doc{}, syntaxError(p.pos, "unexpected %s after the top-level value", quoteByte(data[p.pos]))
	}
	return doc{data: data, nodes: p.nodes}, nil
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// quoteByte names a byte for a message.
func quoteByte(c byte) string {
	if c < utf8.RuneSelf && strconv.IsPrint(rune(c)) {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// value parses one value at p.pos (white space already skipped) and
// appends its nodes; key and keyEsc label it as an object member.
func (p *parser) value(key []byte, keyEsc bool) error {
	if p.pos >= len(p.data) {
		return syntaxError(p.pos, "unexpected end of input, want a value")
	}
	i := len(p.nodes)
	p.nodes = append(p.nodes, node{off: p.pos, key: key, keyEsc: keyEsc})
	c := p.data[p.pos]
	switch {
	case c == '{':
		return p.container(i, kindObject)
	case c == '[':
		return p.container(i, kindArray)
	case c == '"':
		raw, esc, err := p.str()
		if err != nil {
			return err
		}
		p.nodes[i].kind, p.nodes[i].raw, p.nodes[i].esc = kindString, raw, esc
	case c == '-' || (c >= '0' && c <= '9') || c == 'N' || c == 'I':
		raw, err := p.number()
		if err != nil {
			return err
		}
		p.nodes[i].kind, p.nodes[i].raw = kindNumber, raw
	case c == 't':
		if err := p.literal("true"); err != nil {
			return err
		}
		p.nodes[i].kind = kindTrue
	case c == 'f':
		if err := p.literal("false"); err != nil {
			return err
		}
		p.nodes[i].kind = kindFalse
	case c == 'n':
		if err := p.literal("null"); err != nil {
			return err
		}
		p.nodes[i].kind = kindNull
	default:
		return syntaxError(p.pos, "unexpected %s, want a value", quoteByte(c))
	}
	p.nodes[i].next = len(p.nodes)
	return nil
}

func (p *parser) literal(word string) error {
	if !bytes.HasPrefix(p.data[p.pos:], []byte(word)) {
		return syntaxError(p.pos, "invalid literal, want %s", word)
	}
	p.pos += len(word)
	return nil
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return syntaxError(p.pos, "nested more than %d deep", maxDepth)
	}
	return nil
}

// container parses the object (k is kindObject) or array at p.pos whose
// node is at index i: its members or elements, separated by commas.
func (p *parser) container(i int, k kind) error {
	if err := p.enter(); err != nil {
		return err
	}
	closer, want := byte(']'), "',' or ']' in an array"
	if k == kindObject {
		closer, want = '}', "',' or '}' in an object"
	}
	p.nodes[i].kind = k
	p.pos++ // '{' or '['
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == closer {
		return p.close(i)
	}
	for {
		var key []byte
		esc := false
		if k == kindObject {
			if p.pos >= len(p.data) || p.data[p.pos] != '"' {
				return p.unexpected("a string key")
			}
			var err error
			if key, esc, err = p.str(); err != nil {
				return err
			}
			p.skipSpace()
			if p.pos >= len(p.data) || p.data[p.pos] != ':' {
				return p.unexpected("':' after a key")
			}
			p.pos++
			p.skipSpace()
		}
		if err := p.value(key, esc); err != nil {
			return err
		}
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			p.skipSpace()
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == closer {
			return p.close(i)
		}
		return p.unexpected(want)
	}
}

// close consumes the closing bracket of the container at index i.
func (p *parser) close(i int) error {
	p.pos++
	p.depth--
	p.nodes[i].next = len(p.nodes)
	return nil
}

func (p *parser) unexpected(want string) error {
	if p.pos >= len(p.data) {
		return syntaxError(p.pos, "unexpected end of input, want %s", want)
	}
	return syntaxError(p.pos, "unexpected %s, want %s", quoteByte(p.data[p.pos]), want)
}

// str scans a string at p.pos and returns its bytes between the quotes and
// whether it holds an escape. Escapes are checked here, so unescape cannot
// fail later.
func (p *parser) str() ([]byte, bool, error) {
	start := p.pos + 1
	esc := false
	for i := start; i < len(p.data); i++ {
		switch c := p.data[i]; {
		case c == '"':
			p.pos = i + 1
			return p.data[start:i], esc, nil
		case c == '\\':
			esc = true
			if i+1 >= len(p.data) {
				return nil, false, syntaxError(i, "unterminated escape in a string")
			}
			switch p.data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+5 >= len(p.data) || !isHex4(p.data[i+2:i+6]) {
					return nil, false, syntaxError(i, "invalid \\u escape in a string")
				}
				i += 5
			default:
				return nil, false, syntaxError(i, "invalid escape %s in a string", quoteByte(p.data[i+1]))
			}
		case c < 0x20:
			return nil, false, syntaxError(i, "control character %s in a string", quoteByte(c))
		}
	}
	return nil, false, syntaxError(p.pos, "unterminated string")
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// number scans a JSON number, or one of Python's bare tokens NaN, Infinity
// and -Infinity, at p.pos.
func (p *parser) number() ([]byte, error) {
	start := p.pos
	for _, tok := range [...]string{"NaN", "Infinity", "-Infinity"} {
		if bytes.HasPrefix(p.data[start:], []byte(tok)) {
			p.pos += len(tok)
			return p.data[start:p.pos], nil
		}
	}
	i := start
	if p.data[i] == '-' { // start is at the value's first byte
		i++
	}
	// digits moves past a run of digits and reports whether there was one.
	digits := func() bool {
		from := i
		for i < len(p.data) && p.data[i] >= '0' && p.data[i] <= '9' {
			i++
		}
		return i != from
	}
	switch {
	case i < len(p.data) && p.data[i] == '0':
		i++
	case !digits():
		return nil, syntaxError(start, "invalid number")
	}
	if i < len(p.data) && p.data[i] == '.' {
		i++
		if !digits() {
			return nil, syntaxError(start, "invalid number: no digit after '.'")
		}
	}
	if i < len(p.data) && (p.data[i] == 'e' || p.data[i] == 'E') {
		i++
		if i < len(p.data) && (p.data[i] == '+' || p.data[i] == '-') {
			i++
		}
		if !digits() {
			return nil, syntaxError(start, "invalid number: no digit in the exponent")
		}
	}
	p.pos = i
	return p.data[start:i], nil
}

// unescape returns the text of a string's raw bytes; valid escapes are
// guaranteed by str. Invalid UTF-8 and lone surrogates become U+FFFD, as
// encoding/json does.
func unescape(raw []byte, esc bool) string {
	if !esc && utf8.Valid(raw) {
		return string(raw)
	}
	b := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c >= utf8.RuneSelf {
			// Each byte of an invalid sequence is one U+FFFD.
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, raw[i:i+size]...)
			}
			i += size - 1
			continue
		}
		if c != '\\' {
			b = append(b, c)
			continue
		}
		i++
		switch raw[i] {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r := hex4(raw[i+1 : i+5])
			i += 4
			if utf16.IsSurrogate(r) && i+7 <= len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
				if r2 := hex4(raw[i+3 : i+7]); utf16.DecodeRune(r, r2) != utf8.RuneError {
					r = utf16.DecodeRune(r, r2)
					i += 6
				}
			}
			if utf16.IsSurrogate(r) {
				r = utf8.RuneError
			}
			b = utf8.AppendRune(b, r)
		default: // '"', '\\', '/'
			b = append(b, raw[i])
		}
	}
	return string(b)
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		default:
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

// keyIs reports whether node n's key is name.
func (n *node) keyIs(name string) bool {
	if n.keyEsc {
		return unescape(n.key, true) == name
	}
	return string(n.key) == name
}

// keyText is the node's key as text.
func (n *node) keyText() string { return unescape(n.key, n.keyEsc) }

// text is a string node's text.
func (n *node) text() string { return unescape(n.raw, n.esc) }

// numberToken converts a number token; Python's bare tokens are their
// values. A number beyond the float64 range is refused, as spica.ParseReport
// refuses it, rather than read as a silent infinity.
func numberToken(raw []byte) (float64, bool) {
	switch string(raw) {
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return f, err == nil // the syntax was checked: only a range error is left
}

// numberString reads a number written as a string: decimal digits as
// Python's float() and LLMPerf write them, or "inf", "nan", "Infinity" and
// the like in any case, with a sign. Hex floats and digit separators,
// which strconv accepts and Python's float does not, are refused.
func numberString(s []byte) (float64, bool) {
	s = bytes.TrimSpace(s)
	if len(s) == 0 || bytes.ContainsAny(s, "xX_pP") {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(s), 64)
	return f, err == nil
}

// object walks the members of the object at index i.
func (d *doc) members(i int) func(yield func(j int) bool) {
	return func(yield func(j int) bool) {
		for j := i + 1; j < d.nodes[i].next; j = d.nodes[j].next {
			if !yield(j) {
				return
			}
		}
	}
}

// elems walks the elements of the array at index i (the same walk as
// members).
func (d *doc) elems(i int) func(yield func(j int) bool) { return d.members(i) }

// noNode is the index field, path, at and lastChild give when there is no
// such node. A node that is there has an index of 0 or more, and only the
// root has 0, so a test against noNode cannot be mistaken for one against
// a node.
const noNode = -1

// field is the index of the member named name of the object at index i, or
// noNode. The last of repeated members wins, as in encoding/json; the
// readers that need strictness check repeats with dupKey.
func (d *doc) field(i int, name string) int {
	if i == noNode || d.nodes[i].kind != kindObject {
		return noNode
	}
	found := noNode
	for j := range d.members(i) {
		if d.nodes[j].keyIs(name) {
			found = j
		}
	}
	return found
}

// path follows names from the object at index i; noNode when any is
// missing or not an object on the way.
func (d *doc) path(i int, names ...string) int {
	for _, name := range names {
		i = d.field(i, name)
		if i == noNode {
			return noNode
		}
	}
	return i
}
