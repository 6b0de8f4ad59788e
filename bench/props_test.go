package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spica-search/spica"
	"pgregory.net/rapid"
)

// dynamoMarkers are the keys Detect knows the replay's report by.
var dynamoMarkers = map[string]bool{
	"output_throughput_tok_s": true, "duration_ms": true, "gpu_hours": true,
	"mean_output_token_throughput_per_user": true, "wall_time_ms": true, "goodput_output_throughput_tok_s": true,
}

// space draws the white space between tokens.
func space(t *rapid.T, label string) string {
	return rapid.SampledFrom([]string{"", "", " ", "\n", "\t", "\r\n  "}).Draw(t, label)
}

// numberText draws a JSON number, or one of Python's bare tokens.
func numberText(t *rapid.T, label string) string {
	switch rapid.IntRange(0, 7).Draw(t, label+"-kind") {
	case 0:
		return strconv.Itoa(rapid.IntRange(-1000, 1_000_000).Draw(t, label))
	case 1:
		return strconv.FormatFloat(rapid.Float64().Draw(t, label), 'e', -1, 64)
	case 2:
		return strconv.FormatFloat(rapid.Float64Range(-1e6, 1e6).Draw(t, label), 'f', -1, 64)
	case 3:
		return rapid.SampledFrom([]string{"NaN", "Infinity", "-Infinity", "-0", "0.0", "1E+2", "5e-324"}).Draw(t, label)
	default:
		return strconv.FormatFloat(rapid.Float64().Draw(t, label), 'g', -1, 64)
	}
}

// quote writes s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// jsonText draws any JSON value (Python's bare tokens included), nested
// at most depth deep; objects may repeat keys.
func jsonText(t *rapid.T, label string, depth int) string {
	k := rapid.IntRange(0, 6).Draw(t, label+"-kind")
	if depth <= 0 && k >= 5 {
		k = 0
	}
	switch k {
	case 0:
		return numberText(t, label)
	case 1:
		return quote(rapid.StringN(0, 8, -1).Draw(t, label))
	case 2:
		return rapid.SampledFrom([]string{"true", "false", "null", `"a\"b\\c\u00e9\ud83d\ude00"`, `"NaN"`, `"inf"`}).Draw(t, label)
	case 3, 4:
		return quote(rapid.SampledFrom([]string{"x", "}", "]", "{", "[", ",", ":"}).Draw(t, label))
	case 5:
		n := rapid.IntRange(0, 3).Draw(t, label+"-n")
		parts := make([]string, n)
		for i := range parts {
			parts[i] = space(t, label+"-s") + jsonText(t, fmt.Sprintf("%s[%d]", label, i), depth-1) + space(t, label+"-s")
		}
		return "[" + strings.Join(parts, ",") + "]"
	default:
		n := rapid.IntRange(0, 3).Draw(t, label+"-n")
		parts := make([]string, n)
		for i := range parts {
			key := rapid.SampledFrom([]string{"a", "b", "mean_ttft_ms"}).Draw(t, label+"-key")
			parts[i] = space(t, label+"-s") + quote(key) + ":" + space(t, label+"-s") + jsonText(t, label+"."+key, depth-1)
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
}

// TestDynamoRoundTripProperty: for every generated replay report, Read of
// the Dynamo dialect equals spica.ParseReport — the same report, or an
// error with the same sentinel, Path and byte offset (SPEC §13 "Round
// trip"). Reports hold the nine metric keys and others, every number
// spelling, null, strings, nested values, repeated keys and white space
// anywhere.
func TestDynamoRoundTripProperty(t *testing.T) {
	pool := append(spica.MetricKeys(), "num_requests", "completed_requests", "wall_time_ms", "median_ttft_ms",
		"p99_itl_ms", "model", "trace", "config", `mean\u005fttft_ms`)
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 12).Draw(t, "n")
		parts := make([]string, n)
		marker := false
		for i := range parts {
			key := rapid.SampledFrom(pool).Draw(t, "key")
			marker = marker || dynamoMarkers[key]
			var value string
			switch rapid.IntRange(0, 9).Draw(t, "value-kind") {
			case 0:
				value = rapid.SampledFrom([]string{`"NaN"`, `"Infinity"`, `"-Infinity"`, "null"}).Draw(t, "special")
			case 1:
				value = jsonText(t, "any", 2) // under a metric key: an error unless a number
			case 2:
				value = rapid.SampledFrom([]string{"1e400", "-1e400", `"abc"`, "true", "{}"}).Draw(t, "bad")
			default:
				value = numberText(t, "number")
			}
			parts[i] = space(t, "s") + `"` + key + `"` + space(t, "s") + ":" + space(t, "s") + value + space(t, "s")
		}
		data := []byte(space(t, "lead") + "{" + strings.Join(parts, ",") + "}" + space(t, "trail"))
		want, werr := spica.ParseReport(data)
		opts := []Options{{Tool: Dynamo}}
		if marker {
			opts = append(opts, Options{})
		}
		for _, opt := range opts {
			runs, err := Read(data, opt)
			if werr != nil {
				var we, e *spica.Error
				errors.As(werr, &we)
				if !errors.As(err, &e) || e.Err != we.Err || e.Path != we.Path || e.Offset != we.Offset {
					t.Fatalf("%s\nRead(%+v) err %v (%#v)\nParseReport err %v (%#v)", data, opt, err, e, werr, we)
				}
				continue
			}
			if err != nil || len(runs) != 1 {
				t.Fatalf("%s\nRead(%+v): %d runs, %v; ParseReport %v", data, opt, len(runs), err, want)
			}
			if runs[0].Tool != Dynamo {
				t.Fatalf("tool %q", runs[0].Tool)
			}
			if diff := cmp.Diff(want, runs[0].Report, sameReport); diff != "" {
				t.Fatalf("%s\n(-ParseReport +Read):\n%s", data, diff)
			}
		}
	})
}

// genRecord is a generated per-request record.
type genRecord struct {
	completed bool
	start     float64 // ms; for AIPerf a whole number of ns / 1e6
	ttft, e2e float64 // ms
	out       int
}

// TestGoodputProperty: ReadRequests' goodput equals a brute-force count
// of the good requests' tokens over the duration, on generated records
// of the replay and of AIPerf, with every SLA bound generated exactly at,
// just above and just below a request's own value, so the inclusive
// comparisons and the one-token rule are hit on the boundary.
func TestGoodputProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tool := rapid.SampledFrom([]Tool{Dynamo, AIPerf}).Draw(t, "tool")
		n := rapid.IntRange(1, 12).Draw(t, "n")
		recs := make([]genRecord, n)
		for i := range recs {
			r := &recs[i]
			r.completed = i == 0 || rapid.IntRange(0, 4).Draw(t, "completed") > 0
			r.start = float64(rapid.IntRange(0, 10_000_000).Draw(t, "start_us")) / 1000
			r.ttft = rapid.Float64Range(0.001, 5000).Draw(t, "ttft")
			decode := rapid.Float64Range(0, 20000).Draw(t, "decode")
			if tool == AIPerf {
				// AIPerf's times are whole ns.
				r.ttft, decode = math.Round(r.ttft*1e6)/1e6, math.Round(decode*1e6)/1e6
			}
			r.e2e = r.ttft + decode
			r.out = rapid.IntRange(0, 40).Draw(t, "out")
		}
		// Each bound: unset, or at/above/below a request's value.
		bound := func(name string, value func(r genRecord) (float64, bool)) float64 {
			mode := rapid.IntRange(0, 3).Draw(t, name+"-mode")
			if mode == 0 {
				return 0
			}
			v, ok := value(recs[rapid.IntRange(0, n-1).Draw(t, name+"-ref")])
			if !ok {
				v = rapid.Float64Range(0.001, 1000).Draw(t, name+"-free")
			}
			switch mode {
			case 2:
				return math.Nextafter(v, math.Inf(1))
			case 3:
				return math.Nextafter(v, 0)
			}
			return v
		}
		s := spica.SLATarget{
			TTFTMs: bound("ttft", func(r genRecord) (float64, bool) { return r.ttft, true }),
			E2EMs:  bound("e2e", func(r genRecord) (float64, bool) { return r.e2e, true }),
			ITLMs: bound("itl", func(r genRecord) (float64, bool) {
				if r.out <= 1 || r.e2e == r.ttft {
					return 0, false
				}
				return (r.e2e - r.ttft) / float64(r.out-1), true
			}),
		}
		if s.IsZero() {
			s.E2EMs = recs[0].e2e
		}

		var b strings.Builder
		for _, r := range recs {
			status := "completed"
			if !r.completed {
				status = rapid.SampledFrom([]string{"failed", "cancelled", "timeout"}).Draw(t, "status")
			}
			g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
			if tool == Dynamo {
				fmt.Fprintf(&b, `{"uuid": "u", "arrival_time_ms": %s, "first_token_ms": %s, "last_token_ms": %s, "ttft_ms": %s, "e2e_latency_ms": %s, "output_length": %d, "terminal_status": %q}`+"\n",
					g(r.start), g(r.start+r.ttft), g(r.start+r.e2e), g(r.ttft), g(r.e2e), r.out, status)
				continue
			}
			errText := "null"
			if !r.completed {
				errText = `{"code": 500}`
			}
			startNs := int64(math.Round(r.start * 1e6))
			fmt.Fprintf(&b, `{"metadata": {"request_start_ns": %d, "request_end_ns": %d, "benchmark_phase": "profiling"}, "metrics": {"time_to_first_token": {"value": %s, "unit": "ms"}, "request_latency": {"value": %s, "unit": "ms"}, "output_sequence_length": {"value": %d, "unit": "tokens"}}, "error": %s}`+"\n",
				startNs, startNs+int64(math.Round(r.e2e*1e6)), g(r.ttft), g(r.e2e), r.out, errText)
		}

		// The brute force: the duration as SPEC §13 defines it for each
		// tool, then every completed request checked bound by bound.
		first, last := math.Inf(1), math.Inf(-1)
		good := 0
		for _, r := range recs {
			if !r.completed {
				continue
			}
			startNs := math.Round(r.start * 1e6)
			if tool == Dynamo {
				last = math.Max(last, r.start+r.e2e)
			} else {
				first = math.Min(first, startNs/1e6)
				last = math.Max(last, (startNs+math.Round(r.e2e*1e6))/1e6)
			}
			ok := true
			if s.TTFTMs != 0 && r.ttft > s.TTFTMs {
				ok = false
			}
			if s.E2EMs != 0 && r.e2e > s.E2EMs {
				ok = false
			}
			if s.ITLMs != 0 && r.out > 1 && (r.e2e-r.ttft)/float64(r.out-1) > s.ITLMs {
				ok = false
			}
			if ok {
				good += r.out
			}
		}
		duration := last
		if tool == AIPerf {
			duration = last - first
		}
		run, err := ReadRequests([]byte(b.String()), Options{SLA: &s})
		if err != nil {
			t.Fatal(err)
		}
		got, ok := run.Report[kGood]
		if duration <= 0 {
			return // an instantaneous run has no rate to compare
		}
		want := float64(good) / (duration / 1000)
		if !ok || got != want {
			t.Fatalf("%s records, SLA %+v: goodput %v (present %v), want %d tokens / %v ms = %v\n%s", tool, s, got, ok, good, duration, want, b.String())
		}
	})
}

// escapePieces are the bits a generated JSON string is made of: plain
// text, every escape, \u escapes of surrogates paired and lone, and bytes
// that are not UTF-8.
var escapePieces = []string{
	"a", "Z", " ", "é", "😀", `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u0041`, `\u00e9`,
	`\ud83d\ude00`, `\ud83d`, `\ude00`, `\ud800\u0041`, `\ud800\ud800`, `\uD834\uDD1E`, "\xff", "\xc3", "\xed\xa0\x80", `\u0000`,
}

// TestStringsAsEncodingJSON: the text of a string — a Meta value or a Meta
// key — is what encoding/json decodes: escapes, surrogate pairs, lone
// surrogates and invalid UTF-8 as U+FFFD.
func TestStringsAsEncodingJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pieces := rapid.SliceOfN(rapid.SampledFrom(escapePieces), 0, 8).Draw(t, "pieces")
		raw := strings.Join(pieces, "")
		data := []byte(`{"duration": 1, "model_id": "m", "label": "` + raw + `", "k_` + raw + `": 1}`)
		var want map[string]any
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("%q: %v", data, err)
		}
		runs, err := Read(data, Options{})
		if err != nil {
			t.Fatalf("%q: %v", data, err)
		}
		meta := runs[0].Meta
		if meta["label"] != want["label"] {
			t.Fatalf("%q: label %q, encoding/json %q", raw, meta["label"], want["label"])
		}
		var key string
		for k := range want {
			if strings.HasPrefix(k, "k_") {
				key = k
			}
		}
		if _, ok := meta[key]; !ok {
			t.Fatalf("%q: no Meta key %q (encoding/json's); Meta %q", raw, key, meta)
		}
	})
}

// TestServingRecordsProperty: on generated vLLM/SGLang per-request arrays
// (seconds; latencies, start_times and errors each present or not), every
// key Read computes equals a brute-force computation from the records:
// means over the completed requests, TPOT over those of more than one
// token, the per-user rate as the mean over every positive gap of
// 1000/gap_ms, and goodput with each SLA bound at, just above or just
// below a request's own value.
func TestServingRecordsProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 8).Draw(t, "n")
		hasLat := rapid.Bool().Draw(t, "latencies")
		hasStart := rapid.Bool().Draw(t, "start_times")
		hasErrors := rapid.Bool().Draw(t, "errors")
		type req struct {
			ok          bool
			start, ttft float64 // s
			gaps        []float64
			lat         float64
			out         int
		}
		reqs := make([]req, n)
		for i := range reqs {
			q := &reqs[i]
			q.ok = i == 0 || rapid.IntRange(0, 3).Draw(t, "ok") > 0
			q.start = float64(rapid.IntRange(0, 100_000).Draw(t, "start_ms")) / 1000
			if !q.ok {
				continue
			}
			q.ttft = rapid.Float64Range(0.0005, 2).Draw(t, "ttft")
			q.gaps = rapid.SliceOfN(rapid.SampledFrom([]float64{0, 0.001, 0.015625, 0.02, 0.1, 0.3}), 0, 5).Draw(t, "gaps")
			q.out = len(q.gaps) + 1
			q.lat = q.ttft + rapid.Float64Range(0, 3).Draw(t, "lat")
		}
		if !hasErrors {
			// Without an errors array a request with tokens completed.
			for i := range reqs {
				if !reqs[i].ok {
					reqs[i].out = 0
				}
			}
		}
		docDuration := 7.5
		ms := func(s float64) float64 { return s * 1000 }
		e2e := func(q req) float64 {
			if hasLat {
				return ms(q.lat)
			}
			sum := 0.0
			for _, g := range q.gaps {
				sum += ms(g)
			}
			return ms(q.ttft) + sum
		}
		s := spica.SLATarget{}
		pick := func(name string, v float64) float64 {
			switch rapid.IntRange(0, 3).Draw(t, name+"-mode") {
			case 1:
				return v
			case 2:
				return math.Nextafter(v, math.Inf(1))
			case 3:
				return math.Nextafter(v, 0)
			}
			return 0
		}
		ref := reqs[rapid.IntRange(0, n-1).Draw(t, "ref")]
		if ref.ok {
			s.TTFTMs = pick("ttft", ms(ref.ttft))
			s.E2EMs = pick("e2e", e2e(ref))
			if ref.out > 1 && e2e(ref) > ms(ref.ttft) {
				s.ITLMs = pick("itl", (e2e(ref)-ms(ref.ttft))/float64(ref.out-1))
			}
		}
		if s.IsZero() {
			s.E2EMs = 1000
		}

		// The document.
		var ttfts, itls, lats, starts, outs, errs []string
		g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
		for _, q := range reqs {
			ttfts = append(ttfts, g(q.ttft))
			var gs []string
			for _, x := range q.gaps {
				gs = append(gs, g(x))
			}
			itls = append(itls, "["+strings.Join(gs, ", ")+"]")
			lats = append(lats, g(q.lat))
			starts = append(starts, g(q.start))
			outs = append(outs, strconv.Itoa(q.out))
			if q.ok {
				errs = append(errs, `""`)
			} else {
				errs = append(errs, `"timeout"`)
			}
		}
		arr := func(xs []string) string { return "[" + strings.Join(xs, ", ") + "]" }
		doc := `{"backend": "vllm", "model_id": "m", "duration": ` + g(docDuration) +
			`, "ttfts": ` + arr(ttfts) + `, "itls": ` + arr(itls) + `, "output_lens": ` + arr(outs)
		if hasLat {
			doc += `, "latencies": ` + arr(lats)
		}
		if hasStart {
			doc += `, "start_times": ` + arr(starts)
		}
		if hasErrors {
			doc += `, "errors": ` + arr(errs)
		}
		doc += "}"

		// The brute force.
		var done, tokens, good int
		var ttftSum, e2eSum, tpotSum, userSum float64
		var tpotN, userN int
		first, last := math.Inf(1), math.Inf(-1)
		for _, q := range reqs {
			if !q.ok {
				continue
			}
			done++
			tokens += q.out
			e := e2e(q)
			ttftSum += ms(q.ttft)
			e2eSum += e
			if q.out > 1 {
				tpotSum += (e - ms(q.ttft)) / float64(q.out-1)
				tpotN++
			}
			for _, x := range q.gaps {
				if x > 0 {
					userSum += 1000 / ms(x)
					userN++
				}
			}
			first = math.Min(first, ms(q.start))
			last = math.Max(last, ms(q.start)+e)
			if (s.TTFTMs == 0 || ms(q.ttft) <= s.TTFTMs) && (s.E2EMs == 0 || e <= s.E2EMs) &&
				(s.ITLMs == 0 || q.out <= 1 || (e-ms(q.ttft))/float64(q.out-1) <= s.ITLMs) {
				good += q.out
			}
		}
		duration := ms(docDuration)
		if hasStart {
			duration = last - first
		}
		want := spica.Report{
			kDone: float64(done), kNum: float64(n), kDur: duration,
			kOut: float64(tokens) / (duration / 1000), kGood: float64(good) / (duration / 1000),
			kTTFT: ttftSum / float64(done), kE2E: e2eSum / float64(done),
		}
		if tpotN > 0 {
			want[kTPOT] = tpotSum / float64(tpotN)
		}
		switch {
		case userN > 0:
			want[kUser] = userSum / float64(userN)
		case tpotN > 0 && want[kTPOT] > 0:
			want[kUser] = 1000 / want[kTPOT]
		}
		if duration <= 0 {
			return // no rate to compare
		}
		runs, err := Read([]byte(doc), Options{SLA: &s})
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if diff := cmp.Diff(want, runs[0].Report, sameReport); diff != "" {
			t.Fatalf("%s\nSLA %+v\n(-brute force +Read):\n%s\nnotes:\n%s", doc, s, diff, strings.Join(runs[0].Notes, "\n"))
		}
	})
}
