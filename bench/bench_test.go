package bench

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/spica-search/spica"
)

// benchFiles is how many result files BenchmarkReadFiles reads per
// operation (issue 25: 1e4 files of a few KB each).
const benchFiles = 10_000

// corpusWriter writes Python-json-like documents: ", " and ": "
// separators and floats in their shortest repr, as json.dump writes them.
type corpusWriter struct {
	b     bytes.Buffer
	rng   *rand.Rand
	model string // the model_id of the next vLLM result
}

func (w *corpusWriter) key(k string) {
	if n := w.b.Len(); n > 0 && w.b.Bytes()[n-1] != '{' {
		w.b.WriteString(", ")
	}
	w.b.WriteByte('"')
	w.b.WriteString(k)
	w.b.WriteString(`": `)
}

func (w *corpusWriter) num(k string, v float64) {
	w.key(k)
	w.b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
}

func (w *corpusWriter) raw(k, v string) {
	w.key(k)
	w.b.WriteString(v)
}

func (w *corpusWriter) floats(k string, vs []float64) {
	w.key(k)
	w.list(vs)
}

func (w *corpusWriter) list(vs []float64) {
	w.b.WriteByte('[')
	for i, v := range vs {
		if i > 0 {
			w.b.WriteString(", ")
		}
		w.b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	}
	w.b.WriteByte(']')
}

// stats writes mean/median/std/p99 of name in ms, as vLLM and SGLang do.
func (w *corpusWriter) stats(name string, mean float64) {
	w.num("mean_"+name+"_ms", mean)
	w.num("median_"+name+"_ms", mean*0.93)
	w.num("std_"+name+"_ms", mean*0.31)
	w.num("p99_"+name+"_ms", mean*2.2)
}

// serving writes one vLLM --save-result --save-detailed object (or, with
// sglang set, one line of SGLang's --output-file --output-details) of n
// requests with its per-request arrays: about 5 KB for n = 12.
func (w *corpusWriter) serving(sglang bool, n int) {
	r := w.rng
	ttfts := make([]float64, n)
	lats := make([]float64, n)
	starts := make([]float64, n)
	ins := make([]float64, n)
	outs := make([]float64, n)
	itls := make([][]float64, n)
	tok := 0.0
	for q := range n {
		ins[q] = float64(512 + r.IntN(512))
		outs[q] = float64(8 + r.IntN(16))
		ttfts[q] = 0.05 + 0.3*r.Float64()
		starts[q] = float64(q) * 0.05 * r.Float64()
		lats[q] = ttfts[q]
		for range int(outs[q]) - 1 {
			g := 0.006 + 0.01*r.Float64()
			itls[q] = append(itls[q], g)
			lats[q] += g
		}
		tok += outs[q]
	}
	dur := 2 + r.Float64()
	w.b.WriteByte('{')
	if sglang {
		w.raw("backend", `"sglang"`)
		w.raw("dataset_name", `"random"`)
		w.num("request_rate", 16)
		w.num("max_concurrency", 16)
		w.num("random_input_len", 1024)
		w.num("random_output_len", 16)
	} else {
		w.raw("date", `"20260901-101502"`)
		w.raw("endpoint_type", `"vllm"`)
		w.raw("backend", `"vllm"`)
		w.raw("label", "null")
		w.raw("model_id", strconv.Quote(w.model))
		w.raw("tokenizer_id", `"meta-llama/Llama-3.1-8B-Instruct"`)
		w.num("num_prompts", float64(n))
		w.raw("request_rate", `"inf"`)
		w.num("burstiness", 1)
		w.num("max_concurrency", 16)
	}
	w.num("duration", dur)
	w.num("completed", float64(n))
	if !sglang {
		w.num("failed", 0)
	}
	w.num("total_input_tokens", 768*float64(n))
	w.num("total_output_tokens", tok)
	w.num("request_throughput", float64(n)/dur)
	if !sglang {
		w.raw("request_goodput", "null")
	}
	w.num("output_throughput", tok/dur)
	w.num("total_token_throughput", (768*float64(n)+tok)/dur)
	w.stats("ttft", 180*r.Float64()+50)
	w.stats("tpot", 6+4*r.Float64())
	w.stats("itl", 6+4*r.Float64())
	if sglang {
		w.stats("e2e_latency", 300+100*r.Float64())
		w.num("concurrency", 15.2)
	}
	w.floats("input_lens", ins)
	w.floats("output_lens", outs)
	w.floats("ttfts", ttfts)
	w.key("itls")
	w.b.WriteByte('[')
	for q, gaps := range itls {
		if q > 0 {
			w.b.WriteString(", ")
		}
		w.list(gaps)
	}
	w.b.WriteByte(']')
	if !sglang {
		w.floats("latencies", lats)
		w.floats("start_times", starts)
		w.key("generated_texts")
		w.b.WriteByte('[')
		for q := range n {
			if q > 0 {
				w.b.WriteString(", ")
			}
			w.b.WriteString(`" The capital of France is Paris, which is also its largest city.\n"`)
		}
		w.b.WriteString(`], "errors": [`)
		for q := range n {
			if q > 0 {
				w.b.WriteString(", ")
			}
			w.b.WriteString(`""`)
		}
		w.b.WriteByte(']')
	}
	w.b.WriteString("}\n")
}

// metric writes one AIPerf metric object.
func (w *corpusWriter) metric(name, unit string, avg float64) {
	w.key(name)
	w.b.WriteString(`{"unit": "` + unit + `"`)
	w.num("avg", avg)
	for _, p := range []string{"p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99"} {
		w.num(p, avg*(0.5+w.rng.Float64()))
	}
	w.num("min", avg*0.4)
	w.num("max", avg*2.5)
	w.num("std", avg*0.2)
	w.b.WriteByte('}')
}

// aiperf writes one profile_export_aiperf.json: about 3 KB.
func (w *corpusWriter) aiperf() {
	r := w.rng
	w.b.WriteByte('{')
	w.raw("schema_version", `"1.0"`)
	w.raw("aiperf_version", `"0.3.0"`)
	w.metric("request_throughput", "requests/sec", 20+r.Float64())
	w.metric("request_latency", "ms", 900+100*r.Float64())
	w.metric("request_count", "requests", 400)
	w.metric("time_to_first_token", "ms", 120+30*r.Float64())
	w.metric("inter_token_latency", "ms", 7+r.Float64())
	w.metric("output_token_throughput", "tokens/sec", 4000+500*r.Float64())
	w.metric("output_token_throughput_per_user", "tokens/sec/user", 120+10*r.Float64())
	w.metric("output_sequence_length", "tokens", 128)
	w.metric("input_sequence_length", "tokens", 1024)
	w.metric("benchmark_duration", "sec", 20+r.Float64())
	w.raw("input_config", `{"endpoint": {"model_names": ["meta-llama/Llama-3.1-8B-Instruct"], "type": "chat", "streaming": true}, "loadgen": {"concurrency": 16, "request_count": 400}}`)
	w.raw("was_cancelled", "false")
	w.raw("error_summary", "[]")
	w.num("start_time", 1788000000.5)
	w.num("end_time", 1788000021.25)
	w.b.WriteString("}\n")
}

// writeCorpus writes benchFiles result files into dir — eight in ten vLLM
// results with --save-detailed arrays, one in ten SGLang JSON lines of
// two runs with --output-details arrays, one in ten AIPerf exports — and
// returns how many runs they hold and their total size.
func writeCorpus(tb testing.TB, dir string) (runs int, size int64) {
	w := corpusWriter{rng: rand.New(rand.NewPCG(25, 5))}
	for i := range benchFiles {
		w.b.Reset()
		var name string
		switch i % 10 {
		case 8:
			w.serving(true, 10)
			w.serving(true, 10)
			name, runs = fmt.Sprintf("sglang-%05d.jsonl", i), runs+2
		case 9:
			w.aiperf()
			name, runs = fmt.Sprintf("aiperf-%05d.json", i), runs+1
		default:
			w.model = "meta-llama/Llama-3.1-8B-Instruct"
			w.serving(false, 12)
			name, runs = fmt.Sprintf("vllm-%05d.json", i), runs+1
		}
		size += int64(w.b.Len())
		if err := os.WriteFile(filepath.Join(dir, name), w.b.Bytes(), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return runs, size
}

// decodeGeneric is the baseline: every JSON value of data (one, or one a
// line) decoded by encoding/json into a map[string]any.
func decodeGeneric(data []byte) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	n := 0
	for {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			if errors.Is(err, io.EOF) {
				return n, nil
			}
			return n, err
		}
		n++
	}
}

// BenchmarkReadFiles reads 1e4 result files of a few KB each with
// ReadFiles, and, as the baseline it must not be slower than, globs and
// reads the same files and decodes each with encoding/json into
// map[string]any. Both report files/s and allocations per file.
func BenchmarkReadFiles(b *testing.B) {
	dir := b.TempDir()
	wantRuns, size := writeCorpus(b, dir)
	pattern := filepath.Join(dir, "*")
	// The readers must agree with the corpus before they are timed.
	if runs, err := ReadFiles(pattern, Options{GPUs: 8}); err != nil || len(runs) != wantRuns {
		b.Fatalf("ReadFiles: %d runs, %v; want %d", len(runs), err, wantRuns)
	}
	measure := func(b *testing.B, read func() int) {
		b.ReportAllocs()
		b.SetBytes(size)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		b.ResetTimer()
		for range b.N {
			if got := read(); got != wantRuns {
				b.Fatalf("read %d runs, want %d", got, wantRuns)
			}
		}
		b.StopTimer()
		runtime.ReadMemStats(&after)
		files := float64(b.N) * benchFiles
		b.ReportMetric(files/b.Elapsed().Seconds(), "files/s")
		b.ReportMetric(float64(after.Mallocs-before.Mallocs)/files, "allocs/file")
	}
	b.Run("spica", func(b *testing.B) {
		measure(b, func() int {
			runs, err := ReadFiles(pattern, Options{GPUs: 8})
			if err != nil {
				b.Fatal(err)
			}
			return len(runs)
		})
	})
	b.Run("encoding-json-map", func(b *testing.B) {
		measure(b, func() int {
			names, err := filepath.Glob(pattern)
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for _, name := range names {
				data, err := os.ReadFile(name)
				if err != nil {
					b.Fatal(err)
				}
				k, err := decodeGeneric(data)
				if err != nil {
					b.Fatalf("%s: %v", name, err)
				}
				n += k
			}
			return n
		})
	})
}

// TestReadFilesSharesNoState checks that ReadFiles, which reuses one
// buffer for the files' bytes and one node list for the parser from file
// to file, reads each file exactly as Read reads it alone: a large
// document before small ones (stale nodes behind the new ones), JSON
// lines, a gzipped file, an array of runs and an AIPerf export, with
// model names that differ per file at the same offset, so a Meta string
// still pointing into the reused buffer would read another file's bytes.
func TestReadFilesSharesNoState(t *testing.T) {
	dir := t.TempDir()
	w := corpusWriter{rng: rand.New(rand.NewPCG(1, 2))}
	vllm := func(i, n int) []byte {
		w.b.Reset()
		w.model = fmt.Sprintf("org/model-%02d", i)
		w.serving(false, n)
		return bytes.Clone(w.b.Bytes())
	}
	gz := func(data []byte) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		if _, err := zw.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	files := map[string][]byte{
		"a00-big.json":   vllm(0, 60),
		"a01-small.json": vllm(1, 2),
		"a04-small.json": vllm(4, 3),
		"a05.json.gz":    gz(vllm(5, 5)),
		"a06-array.json": append(append(append([]byte("[\n"), vllm(6, 4)...), ",\n"...), append(vllm(7, 1), ']')...),
	}
	w.b.Reset()
	w.serving(true, 7)
	w.serving(true, 3)
	files["a02-sglang.jsonl"] = bytes.Clone(w.b.Bytes())
	w.b.Reset()
	w.aiperf()
	files["a03-aiperf.json"] = bytes.Clone(w.b.Bytes())
	names := make([]string, 0, len(files))
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	slices.Sort(names)

	opt := Options{GPUs: 2, SLA: &spica.SLATarget{TTFTMs: 200, ITLMs: 12}}
	var want []Run
	for _, name := range names {
		data := files[name]
		if strings.HasSuffix(name, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if data, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		runs, err := Read(data, opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, run := range runs {
			run.Source = filepath.Join(dir, name) + run.Source
			want = append(want, run)
		}
	}
	if len(want) != 9 {
		t.Fatalf("Read alone gives %d runs, want 9 (1+1+2 sglang lines+1+1+1+1+2 in the array)", len(want))
	}
	got, err := ReadFiles(filepath.Join(dir, "*"), opt)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("ReadFiles differs from Read of each file alone (-want +got):\n%s", diff)
	}
	if m := got[0].Meta["model_id"]; m != "org/model-00" {
		t.Errorf("first file's model_id is %q after reading the others", m)
	}
	// Read reuses its node list from line to line of JSON lines too: each
	// line of the SGLang file read alone gives the same run.
	for k, line := range bytes.SplitAfter(files["a02-sglang.jsonl"], []byte("\n"))[:2] {
		alone, err := Read(line, opt)
		if err != nil || len(alone) != 1 {
			t.Fatalf("line %d alone: %d runs, %v", k+1, len(alone), err)
		}
		alone[0].Source = filepath.Join(dir, "a02-sglang.jsonl") + ":" + strconv.Itoa(k+1)
		if diff := cmp.Diff(alone[0], got[2+k], cmpopts.EquateNaNs()); diff != "" {
			t.Errorf("line %d of JSON lines differs from it read alone (-alone +in the file):\n%s", k+1, diff)
		}
	}
}
