package spica

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"unicode/utf8"

	"github.com/spica-search/spica/internal/nd"
)

// nan and inf are the values of the non-finite tokens "NaN", "Infinity"
// and "-Infinity" that Python's json module writes (see nonFiniteTokens).
var (
	nan = math.NaN()
	inf = math.Inf(1)
)

// Report is one replay report ("trace_report"): a flat map from metric key
// to value. Real reports carry many keys this package never reads; they are
// kept and ignored. A missing key reads as described by [ObjectiveValue].
type Report map[string]float64

// The report keys this package reads.
const (
	MetricOutputThroughput  = "output_throughput_tok_s"
	MetricMeanTTFT          = "mean_ttft_ms"
	MetricMeanTPOT          = "mean_tpot_ms"
	MetricMeanE2ELatency    = "mean_e2e_latency_ms"
	MetricThroughputPerUser = "mean_output_token_throughput_per_user"
	MetricGoodput           = "goodput_output_throughput_tok_s"
	MetricGPUHours          = "gpu_hours"
	MetricDurationMs        = "duration_ms"
	MetricPlannerTotalTicks = "planner_total_ticks"
)

var metricKeys = [...]string{
	MetricOutputThroughput,
	MetricMeanTTFT,
	MetricMeanTPOT,
	MetricMeanE2ELatency,
	MetricThroughputPerUser,
	MetricGoodput,
	MetricGPUHours,
	MetricDurationMs,
	MetricPlannerTotalTicks,
}

// MetricKeys returns the nine metric keys in the order of their constants,
// in a new slice the caller may modify.
func MetricKeys() []string { return append([]string(nil), metricKeys[:]...) }

// isMetricKey reports whether key is one of the nine metric keys.
func isMetricKey[S ~string | ~[]byte](key S) bool {
	for _, k := range metricKeys {
		if string(key) == k {
			return true
		}
	}
	return false
}

// ParseReport decodes a replay report: a JSON object of metrics. Every
// number becomes an entry, whatever its key; so do the strings "NaN",
// "Infinity" and "-Infinity" (what [NormalizeJSON] makes of Python's bare
// tokens), and the bare tokens NaN, Infinity and -Infinity themselves. For
// keys this package does not read, values of any other kind are skipped:
// they are only checked to be well-formed, without building their keys or
// strings, and what repeats inside them is not checked. For the nine metric
// keys (see [MetricKeys]) null means missing and any other non-number is an
// error whose Path is the key. A number beyond the float64 range (1e400) is an
// error wrapping [ErrInvalidReport] whose Path is the key, rather than a
// silent infinity. A key given twice at the top level is an
// error wrapping [ErrDuplicateKey], since which value was meant cannot be
// known. A top level that is not an object, or malformed JSON, is an error
// giving the byte offset. Every other error wraps [ErrInvalidReport].
//
// It costs O(len(data)) plus O(k log k) for k top-level keys.
func ParseReport(data []byte) (Report, error) {
	r := jsonReader{data: data, nonFinite: true, sentinel: ErrInvalidReport}
	rep, err := decodeReport(&r)
	if err == nil {
		err = r.end()
	}
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// UnmarshalJSON implements [json.Unmarshaler] with the rules of
// [ParseReport], so a report nested in a larger record decodes with
// encoding/json; offsets in its errors are relative to the report. The
// decoded report replaces *rep. JSON null leaves *rep unchanged, as
// encoding/json expects of an Unmarshaler; on error *rep is unchanged too.
// encoding/json itself refuses Python's bare NaN before this method runs:
// pass such a record through [NormalizeJSON] first.
func (rep *Report) UnmarshalJSON(data []byte) error {
	r := jsonReader{data: data, nonFinite: true, sentinel: ErrInvalidReport}
	isNull, err := r.null()
	var v Report
	if err == nil && !isNull {
		v, err = decodeReport(&r)
	}
	if err == nil {
		err = r.end()
	}
	if err != nil || isNull {
		return err
	}
	*rep = v
	return nil
}

// decodeReport reads a report object at r.
func decodeReport(r *jsonReader) (Report, error) {
	if k := r.peek(); k != kindObject {
		start := r.pos
		if err := r.skip(); err != nil {
			return nil, err // malformed: say where, not only that it is no object
		}
		return nil, r.errorf(start, "a report must be a JSON object, got %s", k)
	}
	rep := Report{}
	// The keys' spans, to find a repeated one once the object is read,
	// without building a string per skipped key.
	var keys []reportKey
	err := r.members(func(ks, ke int) error {
		key := r.data[ks+1 : ke-1]
		if hasEscape(key) || !utf8.Valid(key) {
			key = []byte(r.keyString(ks, ke)) // as encoding/json reads it
		}
		keys = append(keys, reportKey{key, ks})
		switch k := r.peek(); {
		case k == kindNumber:
			v, err := r.number(ErrInvalidReport, string(key))
			rep[string(key)] = v
			return err
		case k == kindString:
			at := r.pos
			escaped, err := r.strSpan()
			if err != nil {
				return err
			}
			text := r.data[at+1 : r.pos-1]
			if escaped || !utf8.Valid(text) {
				text = []byte(r.keyString(at, r.pos))
			}
			if v, ok := nonFiniteValue(text); ok {
				rep[string(key)] = v
			} else if isMetricKey(key) {
				return errorAt(ErrInvalidReport, string(key), at, "must be a number or null, got a string")
			}
			return nil
		case k == kindNull || k == kindInvalid || !isMetricKey(key):
			return r.skip()
		default:
			return errorAt(ErrInvalidReport, string(key), r.pos, "must be a number or null, got %s", k)
		}
	})
	if err != nil {
		return nil, err
	}
	if err := repeatedKey(keys); err != nil {
		return nil, err
	}
	return rep, nil
}

// reportKey is a top-level key of a report and its offset.
type reportKey struct {
	key []byte
	at  int
}

// repeatedKey reports the key given twice whose second occurrence comes
// first in the document, if any.
func repeatedKey(keys []reportKey) error {
	slices.SortFunc(keys, func(a, b reportKey) int {
		if c := bytes.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.at, b.at)
	})
	var repeats []reportKey // each key's occurrences after its first
	for i := 1; i < len(keys); i++ {
		if bytes.Equal(keys[i-1].key, keys[i].key) {
			repeats = append(repeats, keys[i])
		}
	}
	if len(repeats) == 0 {
		return nil
	}
	dup := slices.MinFunc(repeats, func(a, b reportKey) int { return cmp.Compare(a.at, b.at) })
	return errorAt(ErrDuplicateKey, string(dup.key), dup.at, "key %q given twice", dup.key)
}

// ObjectiveValue returns the raw value of the scalar target t for report r,
// in t's natural units and not signed. A maximized target reads 0 when its
// key is missing; e2e_latency reads +Inf, so that a report without latency
// scores worst, never best. The per-GPU targets divide by [AvgGPU] and are 0
// when it is 0 (and NaN when it is NaN). [TargetPareto] has no scalar value:
// it is an error wrapping [ErrNoScalarDirection]; use [ObjectiveVector].
// An out-of-range target wraps [ErrUnknownTarget].
func ObjectiveValue(r Report, t OptimizationTarget) (float64, error) {
	if !t.IsValid() {
		return 0, unknownTargetValue("", t)
	}
	info := &targetTable[t]
	if info.dir == dirPerObjective {
		return 0, errorf(ErrNoScalarDirection, "", "%s is multi-objective; use ObjectiveVector or ParetoFront", t)
	}
	v, ok := r[info.metric]
	if !ok && info.dir == dirMinimize {
		return math.Inf(1), nil
	}
	if info.perGPU {
		avg := AvgGPU(r)
		if avg == 0 {
			return 0, nil
		}
		v /= avg
	}
	return v, nil
}

// ScoreReport returns the score of report r under the scalar target t:
// [ObjectiveValue], negated for the minimized target, so that higher is
// always better. The errors are those of [ObjectiveValue].
func ScoreReport(r Report, t OptimizationTarget) (float64, error) {
	v, err := ObjectiveValue(r, t)
	if err != nil {
		return 0, err
	}
	if targetTable[t].dir == dirMinimize {
		v = -v
	}
	return v, nil
}

// ObjectiveVector returns the raw value of each objective for report r,
// keyed by the objective's text form. The list must hold known targets
// ([ErrUnknownTarget]), none of them pareto and none repeated
// ([ErrInvalidParetoObjectives]); Path names the entry ("objectives[1]").
func ObjectiveVector(r Report, objectives []OptimizationTarget) (map[string]float64, error) {
	if err := checkObjectives(objectives, 0, "objectives"); err != nil {
		return nil, err
	}
	vec := make(map[string]float64, len(objectives))
	for _, t := range objectives {
		vec[t.String()], _ = ObjectiveValue(r, t) // t is a known scalar target: no error
	}
	return vec, nil
}

// IsFeasible reports whether a candidate using usedGPUs fits in a budget of
// gpuBudget GPUs. It is the only feasibility rule: latency bounds are
// accounted for inside the goodput metric, not as a gate.
func IsFeasible(usedGPUs, gpuBudget int) bool { return usedGPUs <= gpuBudget }

// Candidate is one scored configuration.
//
// JSON: Config is encoded as encoding/json encodes it. The float fields are
// numbers when finite; since JSON has no non-finite numbers, NaN, +Inf and
// -Inf are written as the strings "NaN", "Infinity" and "-Infinity" (the
// spelling of Python's json module and of protobuf's JSON mapping, which a
// Python reader turns back with float(x)), and decoding accepts those
// strings besides numbers, so every Candidate survives a round trip. See
// [Candidate.UnmarshalJSON] for the strict decoding rules.
type Candidate struct {
	Config     map[string]any     `json:"config"`
	UsedGPUs   int                `json:"used_gpus"`
	Score      float64            `json:"score"`
	Metrics    map[string]float64 `json:"metrics"`
	Objectives map[string]float64 `json:"objectives"` // nil for a scalar goal
}

// MakeCandidate scores report r for configuration config under goal.
//
// The goal is validated first. UsedGPUs is read from config["used_gpus"]: 0
// when absent; otherwise a non-negative integral value of any Go numeric
// type, a finite float64 with no fraction (as JSON decoding yields) or a
// json.Number holding such a value; anything else is an error wrapping
// [ErrInvalidCandidate] naming the key. Metrics holds those of the nine
// metric keys present in r. For a scalar goal, Score is the signed score of
// [ScoreReport] and Objectives is nil. For a pareto goal, Objectives holds
// the raw value of every resolved objective and Score is the first
// objective's raw value: a headline number only, never used for Pareto
// ranking.
//
// used_gpus as a [json.Number] (what a decoder with UseNumber yields) is
// read from its digits, never through a float64, so "9007199254740993" is
// exact; only JSON number syntax is accepted ("+4", "0x1p4" and "1_0" are
// errors), and "4.0" or "4e0" are 4, as the float64 4 that plain decoding of
// the same document gives is.
//
// Config is copied (shallowly), so later changes to the caller's map do not
// reach the candidate; r is not retained.
func MakeCandidate(config map[string]any, r Report, goal OptimizationGoal) (Candidate, error) {
	if err := goal.Validate(); err != nil {
		return Candidate{}, err
	}
	used, err := usedGPUs(config)
	if err != nil {
		return Candidate{}, err
	}
	c := Candidate{Config: maps.Clone(config), UsedGPUs: used, Metrics: map[string]float64{}}
	for _, k := range metricKeys {
		if v, ok := r[k]; ok {
			c.Metrics[k] = v
		}
	}
	if goal.IsPareto() {
		objs := goal.ResolvedParetoObjectives()
		c.Objectives, _ = ObjectiveVector(r, objs) // valid: Validate passed
		c.Score = c.Objectives[objs[0].String()]
		return c, nil
	}
	c.Score, _ = ScoreReport(r, goal.Target) // valid: Validate passed
	return c, nil
}

// usedGPUsKey is the config key that holds a candidate's GPU count.
const usedGPUsKey = "used_gpus"

// usedGPUs reads config["used_gpus"] under the rules of MakeCandidate. It
// goes by the value's kind, so named numeric types are accepted too.
func usedGPUs(config map[string]any) (int, error) {
	raw, ok := config[usedGPUsKey]
	if !ok {
		return 0, nil
	}
	bad := func(why string) (int, error) {
		return 0, errorf(ErrInvalidCandidate, "config."+usedGPUsKey, "is %#v: %s", raw, why)
	}
	var f float64
	switch v := reflect.ValueOf(raw); v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n := v.Int(); n >= 0 && uint64(n) <= math.MaxInt {
			return int(n), nil
		}
		return bad("want a non-negative integer")
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if n := v.Uint(); n <= math.MaxInt {
			return int(n), nil
		}
		return bad("too large for an int")
	case reflect.Float32, reflect.Float64:
		f = v.Float()
	case reflect.String:
		num, isNumber := raw.(json.Number)
		if !isNumber {
			return bad(fmt.Sprintf("want a non-negative integer, got %T", raw))
		}
		n, why := parseJSONInt(string(num))
		if why != "" {
			return bad(why)
		}
		return n, nil
	default:
		return bad(fmt.Sprintf("want a non-negative integer, got %T", raw))
	}
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return bad("not finite")
	case f < 0:
		return bad("negative")
	case f != math.Trunc(f):
		return bad("has a fraction")
	case f >= math.MaxInt: // float64(math.MaxInt) rounds up to 2^63
		return bad("too large for an int")
	}
	return int(f), nil
}

// Rank returns the candidates in a new slice, best first: higher Score
// first, ties toward fewer UsedGPUs, remaining ties in input order. NaN
// scores rank after every number (and -0.0 ties with 0.0), so the order is
// total and deterministic. cands is not modified.
func Rank(cands []Candidate) []Candidate {
	out := slices.Clone(cands)
	slices.SortStableFunc(out, func(a, b Candidate) int {
		if c := cmp.Compare(nd.ObjectiveKey(a.Score, true), nd.ObjectiveKey(b.Score, true)); c != 0 {
			return c
		}
		return cmp.Compare(a.UsedGPUs, b.UsedGPUs)
	})
	return out
}
