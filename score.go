package spica

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
)

// nan and inf are the values of the non-finite tokens "NaN", "Infinity"
// and "-Infinity" that Python's json module writes.
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
func isMetricKey(key string) bool {
	for _, k := range metricKeys {
		if k == key {
			return true
		}
	}
	return false
}

// ParseReport decodes a replay report: a JSON object of metrics. Every
// number becomes an entry, whatever its key. For keys this package does not
// read, values of any other kind are skipped; for the nine metric keys (see
// [MetricKeys]) null means missing and any other non-number is an error
// naming the key. The bare tokens NaN, Infinity and -Infinity that Python's
// json module writes are read as those values; a number beyond the float64
// range is an error rather than a silent infinity. A key given twice is an
// error, since which value was meant cannot be known. A top level that is
// not an object, or malformed JSON, is an error giving the byte offset.
// Every error wraps [ErrInvalidReport].
func ParseReport(data []byte) (Report, error) {
	r := jsonReader{data: data, nonFinite: true, sentinel: ErrInvalidReport}
	if k := r.peek(); k != kindObject {
		if k == kindInvalid {
			return nil, r.skip()
		}
		return nil, r.errorf(r.pos, "a report must be a JSON object, got %s", k)
	}
	rep := Report{}
	err := r.object(func(key string) error {
		switch k := r.peek(); {
		case k == kindNumber:
			v, err := r.number()
			rep[key] = v
			return err
		case k == kindNull || k == kindInvalid || !isMetricKey(key):
			return r.skip()
		default:
			return r.errorf(r.pos, "metric %q must be a number or null, got %s", key, k)
		}
	})
	if err == nil {
		err = r.end()
	}
	if err != nil {
		return nil, err
	}
	return rep, nil
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
		return 0, unknownTargetValue(t)
	}
	info := &targetTable[t]
	if info.dir == dirPerObjective {
		return 0, fmt.Errorf("%w: %s is multi-objective; use ObjectiveVector or ParetoFront", ErrNoScalarDirection, t)
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
// keyed by the objective's text form. The list must hold known scalar
// targets with no repeats (else an error wrapping
// [ErrInvalidParetoObjectives]).
func ObjectiveVector(r Report, objectives []OptimizationTarget) (map[string]float64, error) {
	if err := checkObjectives(objectives, 0); err != nil {
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
// spelling of Python's json module), and decoding accepts exactly those
// strings besides numbers, so every Candidate survives a round trip.
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
		return 0, fmt.Errorf("%w: config[%q] = %#v: %s", ErrInvalidCandidate, usedGPUsKey, raw, why)
	}
	var f float64
	if num, isNumber := raw.(json.Number); isNumber {
		var err error
		if f, err = strconv.ParseFloat(string(num), 64); err != nil {
			return bad("not a number")
		}
	} else {
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
		default:
			return bad(fmt.Sprintf("want a non-negative integer, got %T", raw))
		}
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
		if c := cmp.Compare(objectiveKey(a.Score, true), objectiveKey(b.Score, true)); c != 0 {
			return c
		}
		return cmp.Compare(a.UsedGPUs, b.UsedGPUs)
	})
	return out
}

// candidateJSON is the wire form of a Candidate; jsonFloat carries the
// non-finite encoding described on [Candidate].
type candidateJSON struct {
	Config     map[string]any       `json:"config"`
	UsedGPUs   int                  `json:"used_gpus"`
	Score      jsonFloat            `json:"score"`
	Metrics    map[string]jsonFloat `json:"metrics"`
	Objectives map[string]jsonFloat `json:"objectives"`
}

// jsonFloat is a float64 whose JSON form may be one of the strings "NaN",
// "Infinity" and "-Infinity".
type jsonFloat float64

var nonFiniteNames = [...]struct {
	name string
	v    float64
}{{"NaN", nan}, {"Infinity", inf}, {"-Infinity", -inf}}

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return []byte(`"NaN"`), nil
	case math.IsInf(v, 1):
		return []byte(`"Infinity"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Infinity"`), nil
	}
	return json.Marshal(v)
}

func (f *jsonFloat) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	if len(data) > 0 && data[0] == '"' {
		for _, nf := range nonFiniteNames {
			if string(data) == `"`+nf.name+`"` {
				*f = jsonFloat(nf.v)
				return nil
			}
		}
		return fmt.Errorf("%w: %s is not a number (the only strings allowed are \"NaN\", \"Infinity\" and \"-Infinity\")", ErrInvalidCandidate, data)
	}
	var v float64
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidCandidate, err)
	}
	*f = jsonFloat(v)
	return nil
}

// convertFloats copies a map of one float type into another, nil to nil.
func convertFloats[T, U ~float64](m map[string]T) map[string]U {
	if m == nil {
		return nil
	}
	out := make(map[string]U, len(m))
	for k, v := range m {
		out[k] = U(v)
	}
	return out
}

// MarshalJSON implements [json.Marshaler] with the encoding described on
// [Candidate].
func (c Candidate) MarshalJSON() ([]byte, error) {
	return json.Marshal(candidateJSON{
		Config:     c.Config,
		UsedGPUs:   c.UsedGPUs,
		Score:      jsonFloat(c.Score),
		Metrics:    convertFloats[float64, jsonFloat](c.Metrics),
		Objectives: convertFloats[float64, jsonFloat](c.Objectives),
	})
}

// UnmarshalJSON implements [json.Unmarshaler]: it accepts what
// [Candidate.MarshalJSON] writes. Every error wraps [ErrInvalidCandidate];
// on error c is unchanged.
func (c *Candidate) UnmarshalJSON(data []byte) error {
	var w candidateJSON
	if err := json.Unmarshal(data, &w); err != nil {
		if errors.Is(err, ErrInvalidCandidate) {
			return err // from jsonFloat, already saying which value
		}
		return fmt.Errorf("%w: %w", ErrInvalidCandidate, err)
	}
	*c = Candidate{
		Config:     w.Config,
		UsedGPUs:   w.UsedGPUs,
		Score:      float64(w.Score),
		Metrics:    convertFloats[jsonFloat, float64](w.Metrics),
		Objectives: convertFloats[jsonFloat, float64](w.Objectives),
	}
	return nil
}
