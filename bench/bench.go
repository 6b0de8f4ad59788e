package bench

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spica-search/spica"
)

// Tool names the benchmark client that wrote a document. Its value is the
// client's usual name, as Options.Tool and the errors of [Detect] spell it.
type Tool string

// The tools this package reads.
const (
	Dynamo    Tool = "dynamo"       // the replay's trace_report (what spica.ParseReport reads)
	VLLM      Tool = "vllm"         // vllm bench serve / benchmark_serving.py --save-result
	SGLang    Tool = "sglang"       // sglang.bench_serving --output-file (JSON lines, appended)
	AIPerf    Tool = "aiperf"       // profile_export_aiperf.json
	GenAIPerf Tool = "genai-perf"   // *_genai_perf.json
	LLMPerf   Tool = "llmperf"      // *_summary.json
	TRTLLM    Tool = "trtllm-bench" // trtllm-bench --report_json
)

// tools lists every Tool in the order Detect names candidates.
var tools = [...]Tool{Dynamo, VLLM, SGLang, AIPerf, GenAIPerf, LLMPerf, TRTLLM}

// Options sets up [Read], [ReadFiles] and [ReadRequests]. The zero value
// detects the tool, knows no GPU count and computes no goodput.
type Options struct {
	// Tool is the client that wrote the input; "" detects it ([Detect]).
	Tool Tool
	// GPUs is the number of GPUs provisioned for the whole run. 0 takes it
	// from the document where the tool writes it (trtllm-bench's
	// world_info.world_size); no other client does, so without it the
	// per-GPU targets have no gpu_hours to divide by.
	GPUs int
	// SLA, with per-request records, yields goodput_output_throughput_tok_s.
	// nil, or the zero SLATarget, computes no goodput.
	SLA *spica.SLATarget
}

// Run is one benchmark run read from a tool's output.
type Run struct {
	// Tool is the client that wrote it.
	Tool Tool
	// Source is where it was read: the file name for ReadFiles, with
	// ":line" for a line of JSON lines and "[i]" for an element of a JSON
	// array; for Read and ReadRequests "", ":line" or "[i]" alone.
	Source string
	// Report holds the spica metric keys the run yields (see
	// [spica.MetricKeys]), plus completed_requests and num_requests where
	// known. For Dynamo it is what spica.ParseReport returns.
	Report spica.Report
	// Meta holds the document's descriptive fields (model, backend,
	// concurrency, request rate, label, metadata …), JSON-safe: numbers are
	// float64 and non-finite ones the strings "Infinity", "-Infinity" and
	// "NaN". It holds "used_gpus" (an int) when the GPU count is known, so
	// it is ready to be the config of [spica.MakeCandidate]. Never nil.
	Meta map[string]any
	// Notes say how every derived key was obtained and why every key left
	// out is missing, one sentence each, in a fixed order.
	Notes []string
}

// Keys this package adds to a Report beside spica's nine.
const (
	keyCompleted   = "completed_requests"
	keyNumRequests = "num_requests"
)

// gpusKey is the Meta key spica.MakeCandidate reads the GPU count from.
const gpusKey = "used_gpus"

// Read reads one tool's output: a JSON object, a JSON array of objects (a
// vLLM sweep's summary.json) or JSON lines (SGLang's appended output,
// vLLM's --append-result), blank lines skipped. It returns one Run per
// object, in input order. The tool is opt.Tool, or detected ([Detect]) from
// each object, so one file of JSON lines may mix tools.
//
// Errors are [*spica.Error]s wrapping spica.ErrInvalidReport (malformed
// input, a value that must be a number and is not, a tool no object
// matches), spica.ErrDuplicateKey (a key the reader maps given twice) or
// spica.ErrInvalidSLA (a bad opt.SLA). Path is the tool's key ("duration",
// "performance.total_latency_ms", "time_to_first_token.avg"), Offset the
// byte offset in data, and a line of JSON lines is named in Msg
// ("line 3: …"). Nothing in data panics it. It costs O(len(data)).
func Read(data []byte, opt Options) ([]Run, error) {
	if err := checkOptions(opt); err != nil {
		return nil, err
	}
	var nodes []node
	return readAll(data, opt, &nodes)
}

// readAll is Read with its options checked: nodes is the parser's storage,
// reused from one document to the next (no Run keeps a node or a byte of
// data, so a caller may reuse both once readAll returns).
func readAll(data []byte, opt Options, nodes *[]node) ([]Run, error) {
	var runs []Run
	err := eachDocument(data, func(part []byte, base int, where string, line int) error {
		rs, err := readDocument(part, opt, where, nodes)
		if err != nil {
			return locate(err, base, line, "")
		}
		runs = append(runs, rs...)
		return nil
	})
	return runs, err
}

// ReadFiles reads every file filepath.Glob(pattern) matches, in Glob's
// (lexical) order, with [Read]; a name ending in ".gz" is decompressed
// first. Each Run's Source is its file name, with ":line" or "[i]" as
// Read gives. A pattern that matches nothing returns no runs and no error,
// as filepath.Glob does; a malformed pattern, an unreadable file and a
// file Read refuses are errors, the file name leading the message.
func ReadFiles(pattern string, opt Options) ([]Run, error) {
	if err := checkOptions(opt); err != nil {
		return nil, err
	}
	names, err := filepath.Glob(pattern)
	if err != nil {
		return nil, &spica.Error{Path: "", Offset: -1, Err: spica.ErrInvalidReport, Msg: fmt.Sprintf("pattern %q: %v", pattern, err)}
	}
	var runs []Run
	// One file's bytes and nodes at a time: both are reused for the next
	// file, which keeps reading 1e4 small files from allocating 1e4 node
	// lists (BenchmarkReadFiles).
	var buf bytes.Buffer
	var nodes []node
	for _, name := range names {
		data, err := readFile(name, &buf)
		if err != nil {
			return nil, &spica.Error{Offset: -1, Err: spica.ErrInvalidReport, Msg: fmt.Sprintf("%s: %v", name, err)}
		}
		rs, err := readAll(data, opt, &nodes)
		if err != nil {
			return nil, locate(err, 0, 0, name)
		}
		for i := range rs {
			rs[i].Source = name + rs[i].Source
		}
		runs = append(runs, rs...)
	}
	return runs, nil
}

// readFile reads a file into buf (emptied first) and returns its bytes,
// decompressed when its name ends in ".gz"; they are valid until buf is
// used again.
func readFile(name string, buf *bytes.Buffer) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf.Reset()
	var r io.Reader = f
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		r = zr
	}
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// checkOptions refuses what no input can make right.
func checkOptions(opt Options) error {
	switch {
	case opt.Tool != "" && !known(opt.Tool):
		return &spica.Error{Path: "Options.Tool", Offset: -1, Err: spica.ErrInvalidReport,
			Msg: fmt.Sprintf("is %q, want one of %s", string(opt.Tool), toolList(tools[:]))}
	case opt.GPUs < 0:
		return &spica.Error{Path: "Options.GPUs", Offset: -1, Err: spica.ErrInvalidReport,
			Msg: fmt.Sprintf("is %d, want 0 (unknown) or more", opt.GPUs)}
	case opt.SLA != nil:
		return opt.SLA.Validate()
	}
	return nil
}

func known(t Tool) bool {
	for _, k := range tools {
		if k == t {
			return true
		}
	}
	return false
}

// toolList names tools for a message: "vllm, sglang".
func toolList(ts []Tool) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}

// locate places an error read from a part of a larger input: its offset
// moves by base, and the line (when > 0) and file name (when not "") lead
// its message.
func locate(err error, base, line int, file string) error {
	var e *spica.Error
	if !errors.As(err, &e) {
		return err
	}
	c := *e
	if c.Offset >= 0 {
		c.Offset += int64(base)
	}
	if line > 0 {
		c.Msg = "line " + strconv.Itoa(line) + ": " + c.Msg
	}
	if file != "" {
		c.Msg = file + ": " + c.Msg
	}
	return &c
}

// eachDocument calls f for every document of data: data itself, or each
// non-blank line when data is JSON lines. It is JSON lines when its first
// non-blank line is a whole JSON value and another non-blank line follows
// (a pretty-printed document's first line never is a whole value). where
// is "" or ":line"; base is the part's offset in data.
func eachDocument(data []byte, f func(part []byte, base int, where string, line int) error) error {
	first, rest, line := nextLine(data, 0, 0)
	if first < 0 || blankFrom(data, rest) {
		return f(data, 0, "", 0)
	}
	if _, err := parseDoc(data[first:rest], nil); err != nil {
		return f(data, 0, "", 0)
	}
	for start := first; start >= 0; start, rest, line = nextLine(data, rest, line) {
		if err := f(data[start:rest], start, ":"+strconv.Itoa(line), line); err != nil {
			return err
		}
	}
	return nil
}

// nextLine finds the first non-blank line at or after from: its start,
// the end of its line (after the newline, if any) and its 1-based number,
// counting from line lines before from. start is -1 when none is left.
func nextLine(data []byte, from, line int) (start, end, number int) {
	for from < len(data) {
		end := bytes.IndexByte(data[from:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += from + 1
		}
		line++
		if len(bytes.TrimSpace(data[from:end])) > 0 {
			return from, end, line
		}
		from = end
	}
	return -1, len(data), line
}

// blankFrom reports whether data[from:] is white space only.
func blankFrom(data []byte, from int) bool { return len(bytes.TrimSpace(data[from:])) == 0 }

// readDocument reads one document: an object, or an array of objects (one
// Run each). nodes is the parser's storage, grown as needed and kept for
// the next document.
func readDocument(data []byte, opt Options, where string, nodes *[]node) ([]Run, error) {
	d, err := parseDoc(data, *nodes)
	if err != nil {
		return nil, err
	}
	*nodes = d.nodes
	if d.nodes[0].kind == kindArray {
		var runs []Run
		k := 0
		for i := range d.elems(0) {
			run, err := readObject(&d, i, opt)
			if err != nil {
				return nil, err
			}
			run.Source = where + "[" + strconv.Itoa(k) + "]"
			runs = append(runs, run)
			k++
		}
		return runs, nil
	}
	run, err := readObject(&d, 0, opt)
	if err != nil {
		return nil, err
	}
	run.Source = where
	return []Run{run}, nil
}

// readObject reads the object at index i of d as one run.
func readObject(d *doc, i int, opt Options) (Run, error) {
	n := &d.nodes[i]
	if n.kind != kindObject {
		return Run{}, &spica.Error{Offset: int64(n.off), Err: spica.ErrInvalidReport,
			Msg: "a run must be a JSON object, got " + kindName(n.kind)}
	}
	tool := opt.Tool
	if tool == "" {
		var err error
		if tool, err = detectObject(d, i); err != nil {
			return Run{}, err
		}
	}
	r := newReader(d, tool)
	r.opt = opt
	if tool == Dynamo {
		readDynamo(r, i, d.data[n.off:d.end(i)], n.off)
	} else {
		readers[tool](r, i)
	}
	if r.err != nil {
		return Run{}, r.err
	}
	return r.finish(opt), nil
}

// readers maps each tool but Dynamo to the function that maps its object
// at the given index into r.
var readers = map[Tool]func(r *reader, obj int){
	VLLM:      readVLLM,
	SGLang:    readSGLang,
	AIPerf:    readAIPerf,
	GenAIPerf: readGenAIPerf,
	LLMPerf:   readLLMPerf,
	TRTLLM:    readTRTLLM,
}

func kindName(k kind) string {
	return [...]string{"null", "false", "true", "a number", "a string", "an object", "an array"}[k]
}

// end is the byte offset just past the value at index i.
func (d *doc) end(i int) int {
	n := &d.nodes[i]
	switch n.kind {
	case kindObject, kindArray:
		// The closing bracket follows the last child's end, after white
		// space.
		pos := n.off + 1
		if last := lastChild(d, i); last != noNode {
			pos = d.end(last)
		}
		// The document parsed, so the bracket is there.
		return pos + bytes.IndexAny(d.data[pos:], "}]") + 1
	case kindString:
		return n.off + len(n.raw) + 2
	case kindNumber:
		return n.off + len(n.raw)
	case kindTrue, kindNull:
		return n.off + 4
	default:
		return n.off + 5
	}
}

// lastChild is the index of the last child of the container at index i,
// or noNode.
func lastChild(d *doc, i int) int {
	last := noNode
	for j := range d.members(i) {
		last = j
	}
	return last
}

// reader maps one object into a Run, keeping the first error.
type reader struct {
	d     *doc
	tool  Tool
	opt   Options
	err   error
	rep   spica.Report
	meta  map[string]any
	notes []note

	gpus      int     // GPUs the document states, 0 when none
	completed float64 // completed requests, NaN when unknown
	perUser   bool    // the per-user key was set by the tool's reader
	goodput   bool    // goodput was computed from records, or why not noted
}

func newReader(d *doc, tool Tool) *reader {
	return &reader{d: d, tool: tool, rep: spica.Report{}, meta: map[string]any{}, completed: math.NaN()}
}

// fail keeps the first error.
func (r *reader) fail(path string, off int, format string, args ...any) {
	if r.err == nil {
		r.err = &spica.Error{Path: path, Offset: int64(off), Err: spica.ErrInvalidReport, Msg: fmt.Sprintf(format, args...)}
	}
}

// note is one line of Run.Notes; key is the report key whose value it
// explains, "" for a note about the run as a whole.
type note struct{ key, text string }

func (r *reader) notef(format string, args ...any) { r.keyNotef("", format, args...) }

// keyNotef notes how the value under key was obtained, so that the note
// goes when the key does (a failed run drops its latency and per-user keys).
func (r *reader) keyNotef(key, format string, args ...any) {
	r.notes = append(r.notes, note{key, fmt.Sprintf(format, args...)})
}

// run is the Run the reader has read.
func (r *reader) run() Run {
	notes := make([]string, len(r.notes))
	for i, n := range r.notes {
		notes[i] = n.text
	}
	return Run{Tool: r.tool, Report: r.rep, Meta: r.meta, Notes: notes}
}

// at is the index of member key of the object at index obj, or noNode. A
// key given twice is an error wrapping spica.ErrDuplicateKey, as in
// spica.ParseReport: which value was meant cannot be known.
func (r *reader) at(obj int, key, path string) int {
	if obj == noNode || r.d.nodes[obj].kind != kindObject {
		return noNode
	}
	found := noNode
	for j := range r.d.members(obj) {
		if r.d.nodes[j].keyIs(key) {
			if found != noNode && r.err == nil {
				r.err = &spica.Error{Path: path, Offset: int64(r.d.nodes[j].off), Err: spica.ErrDuplicateKey,
					Msg: "is given twice"}
			}
			found = j
		}
	}
	return found
}

// num reads the value at index i as a number. Absent (noNode) and null are
// missing (ok false). A JSON number, Python's bare NaN/Infinity/-Infinity
// and a string holding a number ("550", "inf", "Infinity", "nan") are
// numbers; anything else is an error at path.
func (r *reader) num(i int, path string) (float64, bool) {
	if i == noNode {
		return 0, false
	}
	n := &r.d.nodes[i]
	switch n.kind {
	case kindNull:
		return 0, false
	case kindNumber:
		if v, ok := numberToken(n.raw); ok {
			return v, true
		}
		r.fail(path, n.off, "is %s, beyond the float64 range", n.raw)
	case kindString:
		if !n.esc {
			if v, ok := numberString(n.raw); ok {
				return v, true
			}
		}
		r.fail(path, n.off, "is %s, want a number", strconv.Quote(n.text()))
	default:
		r.fail(path, n.off, "is %s, want a number", kindName(n.kind))
	}
	return 0, false
}

// field reads member key of the object at index obj as a number, its
// path prefix+key.
func (r *reader) field(obj int, prefix, key string) (float64, bool) {
	return r.num(r.at(obj, key, prefix+key), prefix+key)
}

// set puts a metric into the report.
func (r *reader) set(key string, v float64) { r.rep[key] = v }

// mapped copies the tool's key into the report as metric, times scale, and
// says so; a missing value is noted and left out.
func (r *reader) mapped(obj int, prefix, key, metric string, scale float64) bool {
	v, ok := r.field(obj, prefix, key)
	if !ok {
		r.notef("%s left out: %s%s is missing or null", metric, prefix, key)
		return false
	}
	r.set(metric, v*scale)
	return true
}

// metaValue converts the scalar at index i into a JSON-safe Meta value; ok
// is false for containers.
func (r *reader) metaValue(i int) (any, bool) {
	n := &r.d.nodes[i]
	switch n.kind {
	case kindNull:
		return nil, true
	case kindTrue:
		return true, true
	case kindFalse:
		return false, true
	case kindString:
		return n.text(), true
	case kindNumber:
		v, ok := numberToken(n.raw)
		if !ok {
			return string(n.raw), true // beyond float64: keep the digits
		}
		return jsonSafe(v), true
	}
	return nil, false
}

// jsonSafe is v, or its name when encoding/json cannot write it.
func jsonSafe(v float64) any {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	}
	return v
}

// metaScalars copies every scalar member of the object at index obj whose
// key skip does not refuse into Meta, under name(key).
func (r *reader) metaScalars(obj int, skip func(key string) bool) {
	for j := range r.d.members(obj) {
		key := r.d.nodes[j].keyText()
		if skip != nil && skip(key) {
			continue
		}
		if v, ok := r.metaValue(j); ok {
			r.meta[key] = v
		}
	}
}

// metaAt copies the scalar at path names under the object at index obj
// into Meta as key, when present.
func (r *reader) metaAt(obj int, key string, names ...string) {
	i := r.d.path(obj, names...)
	if i == noNode {
		return
	}
	if v, ok := r.metaValue(i); ok {
		r.meta[key] = v
	}
}

// Keys whose values a failed run must not carry: its latencies and
// per-user rate are the 0 placeholders some tools write, which would rank
// best.
var failedRunKeys = []string{spica.MetricMeanTTFT, spica.MetricMeanTPOT, spica.MetricMeanE2ELatency, spica.MetricThroughputPerUser}

// finish applies the rules every tool shares (SPEC §13) and returns the
// Run: a failed run loses its latencies, the per-user rate falls back to
// 1000 / mean TPOT, a GPU count yields gpu_hours, and goodput that could
// not be computed is noted.
func (r *reader) finish(opt Options) Run {
	if r.tool == Dynamo && r.d != nil {
		// The replay's report is spica's own dialect: kept as parsed.
		if opt.GPUs > 0 {
			r.meta[gpusKey] = opt.GPUs
		}
		return r.run()
	}
	if r.completed == 0 {
		for _, k := range failedRunKeys {
			delete(r.rep, k)
		}
		// A note on how a key it drops was obtained no longer holds.
		r.notes = slices.DeleteFunc(r.notes, func(n note) bool { return slices.Contains(failedRunKeys, n.key) })
		r.set(spica.MetricOutputThroughput, 0)
		r.notef("no request completed: %s left out (a missing latency scores worst, never the 0 ms some tools write then), %s is 0",
			strings.Join(failedRunKeys, ", "), spica.MetricOutputThroughput)
	}
	if _, ok := r.rep[spica.MetricThroughputPerUser]; !ok && !r.perUser && r.completed != 0 {
		tpot, ok := r.rep[spica.MetricMeanTPOT]
		switch {
		case ok && tpot > 0 && !math.IsInf(tpot, 1):
			r.set(spica.MetricThroughputPerUser, 1000/tpot)
			r.keyNotef(spica.MetricThroughputPerUser, "%s is 1000 / mean_tpot_ms: the run has no per-token gaps and %s writes no per-user figure this package uses", spica.MetricThroughputPerUser, r.tool)
		default:
			r.notef("%s left out: no per-token gaps, no per-user figure and no positive mean_tpot_ms", spica.MetricThroughputPerUser)
		}
	}
	gpus := opt.GPUs
	if gpus == 0 {
		gpus = r.gpus
	}
	if gpus > 0 {
		r.meta[gpusKey] = gpus
		if d, ok := r.rep[spica.MetricDurationMs]; ok {
			r.set(spica.MetricGPUHours, float64(gpus)*d/3_600_000)
			r.keyNotef(spica.MetricGPUHours, "gpu_hours is %d GPUs × duration_ms / 3600000", gpus)
		}
	} else if _, ok := r.rep[spica.MetricGPUHours]; !ok {
		r.notef("gpu_hours left out: %s writes no GPU count; set Options.GPUs", r.tool)
	}
	if _, ok := r.rep[spica.MetricGoodput]; !ok && !r.goodput {
		switch {
		case opt.SLA == nil || opt.SLA.IsZero():
			r.notef("%s left out: it needs per-request records and Options.SLA", spica.MetricGoodput)
		default:
			r.notef("%s left out: the document has no per-request records (a requests/s goodput is not tokens/s)", spica.MetricGoodput)
		}
	}
	return r.run()
}
