package spica

import (
	"encoding/json"
	"slices"
	"strconv"
)

// candidateJSON is the wire form of a Candidate when encoding; jsonFloat
// carries the non-finite encoding described on [Candidate].
type candidateJSON struct {
	Config     map[string]any       `json:"config"`
	UsedGPUs   int                  `json:"used_gpus"`
	Score      jsonFloat            `json:"score"`
	Metrics    map[string]jsonFloat `json:"metrics"`
	Objectives map[string]jsonFloat `json:"objectives"`
}

// jsonFloat is a float64 whose JSON form is one of the strings of
// nonFiniteTokens when it is not finite.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	if name := nonFiniteName(float64(f)); name != "" {
		return strconv.AppendQuote(nil, name), nil
	}
	return json.Marshal(float64(f))
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
// [Candidate]. It writes nothing [Candidate.UnmarshalJSON] would reject: a
// negative UsedGPUs is an error wrapping [ErrInvalidCandidate] with Path
// "used_gpus", and a Config value that encoding/json cannot encode (a NaN,
// a channel) one whose Path names the config key ("config.batch").
func (c Candidate) MarshalJSON() ([]byte, error) {
	if c.UsedGPUs < 0 {
		return nil, errorf(ErrInvalidCandidate, "used_gpus", "is %d, want a non-negative integer", c.UsedGPUs)
	}
	data, err := json.Marshal(candidateJSON{
		Config:     c.Config,
		UsedGPUs:   c.UsedGPUs,
		Score:      jsonFloat(c.Score),
		Metrics:    convertFloats[float64, jsonFloat](c.Metrics),
		Objectives: convertFloats[float64, jsonFloat](c.Objectives),
	})
	if err != nil {
		return nil, configError(c.Config, err)
	}
	return data, nil
}

// configError finds the config key whose value could not be encoded; err is
// what encoding the whole candidate gave.
func configError(config map[string]any, err error) error {
	keys := make([]string, 0, len(config))
	for k := range config {
		keys = append(keys, k)
	}
	slices.Sort(keys) // encoding/json writes keys in this order too
	for _, k := range keys {
		if _, kerr := json.Marshal(config[k]); kerr != nil {
			return errorf(ErrInvalidCandidate, "config."+k, "cannot be encoded as JSON: %v", kerr)
		}
	}
	return errorf(ErrInvalidCandidate, "config", "cannot be encoded as JSON: %v", err)
}

// UnmarshalJSON implements [json.Unmarshaler]: it accepts what
// [Candidate.MarshalJSON] writes, as strictly as a goal is read. The keys
// are config, used_gpus, score, metrics and objectives, matched exactly; an
// unknown key is an error wrapping [ErrUnknownField], a key given twice in
// the candidate or in its metrics or objectives one wrapping
// [ErrDuplicateKey]. Config is decoded as encoding/json decodes a
// map[string]any. used_gpus is a non-negative integer, read exactly from its
// digits ("4.0" and "4e0" are 4). A float is a number or one of the strings
// "NaN", "Infinity" and "-Infinity" (the bare tokens too, when the method is
// called directly). A null score or used_gpus (what Python writes for a
// failed run) is an error naming the field, never 0, which would rank
// first; a null config, metrics or objectives leaves the field unset, and a
// null entry of metrics or objectives is left out, as [ParseReport] leaves
// out a null metric. A number beyond the float64 range (1e400) is an error
// at its own field, wherever it is: "metrics.gpu_hours", "score",
// "config.batch", "config.sizes[2]". Every other error wraps
// [ErrInvalidCandidate], with Path naming the field ("metrics.gpu_hours")
// and Offset relative to the candidate. JSON null
// leaves c unchanged; on error c is unchanged too. It costs O(len(data)).
func (c *Candidate) UnmarshalJSON(data []byte) error {
	r := jsonReader{data: data, nonFinite: true, sentinel: ErrInvalidCandidate}
	isNull, err := r.null()
	var v Candidate
	if err == nil && !isNull {
		v, err = decodeCandidate(&r)
	}
	if err == nil {
		err = r.end()
	}
	if err != nil || isNull {
		return err
	}
	*c = v
	return nil
}

// decodeCandidate reads a candidate object at r.
func decodeCandidate(r *jsonReader) (Candidate, error) {
	var c Candidate
	if k := r.peek(); k != kindObject {
		if k == kindInvalid {
			return c, r.skip()
		}
		return c, r.errorf(r.pos, "a candidate must be a JSON object, got %s", k)
	}
	err := r.object("", func(key string, keyAt int) error {
		switch key {
		case "used_gpus", "score":
			// Python writes None for a failed run; read as 0, such a score
			// would rank first among latency candidates and pass IsFeasible.
			if r.peek() == kindNull {
				return errorAt(ErrInvalidCandidate, key, r.pos, "is null, want a number")
			}
		case "config", "metrics", "objectives":
			if isNull, err := r.null(); err != nil || isNull {
				return err // null leaves the field at its zero value
			}
		}
		var err error
		switch key {
		case "config":
			c.Config, err = decodeConfig(r)
		case "used_gpus":
			c.UsedGPUs, err = decodeUsedGPUs(r)
		case "score":
			c.Score, err = r.float(ErrInvalidCandidate, key)
		case "metrics":
			c.Metrics, err = decodeFloats(r, key)
		case "objectives":
			c.Objectives, err = decodeFloats(r, key)
		default:
			err = errorAt(ErrUnknownField, key, keyAt, "unknown key %q in candidate (valid: config, used_gpus, score, metrics, objectives)", key)
		}
		return err
	})
	return c, err
}

// decodeConfig reads the config object as encoding/json reads a
// map[string]any.
func decodeConfig(r *jsonReader) (map[string]any, error) {
	if k := r.peek(); k != kindObject {
		if k == kindInvalid {
			return nil, r.skip()
		}
		return nil, errorAt(ErrInvalidCandidate, "config", r.pos, "is %s, want an object", k)
	}
	start := r.pos
	r.nonFinite = false // standard JSON only: encoding/json reads it next
	err := r.skipChecked(ErrInvalidCandidate, "config")
	r.nonFinite = true
	if err != nil {
		return nil, err
	}
	var config map[string]any
	if err := json.Unmarshal(r.data[start:r.pos], &config); err != nil {
		return nil, errorAt(ErrInvalidCandidate, "config", start, "%v", err) // not reached: syntax and ranges are checked
	}
	return config, nil
}

// decodeUsedGPUs reads used_gpus: a non-negative integer, exactly.
func decodeUsedGPUs(r *jsonReader) (int, error) {
	if k := r.peek(); k != kindNumber {
		if k == kindInvalid {
			return 0, r.skip()
		}
		return 0, errorAt(ErrInvalidCandidate, "used_gpus", r.pos, "is %s, want a non-negative integer", k)
	}
	start, err := r.numberSpan()
	if err != nil {
		return 0, err
	}
	text := string(r.data[start:r.pos])
	n, why := parseJSONInt(text)
	if why != "" {
		return 0, errorAt(ErrInvalidCandidate, "used_gpus", start, "is %s: %s", text, why)
	}
	return n, nil
}

// decodeFloats reads an object of floats named field; a null entry is left
// out.
func decodeFloats(r *jsonReader, field string) (map[string]float64, error) {
	if k := r.peek(); k != kindObject {
		if k == kindInvalid {
			return nil, r.skip()
		}
		return nil, errorAt(ErrInvalidCandidate, field, r.pos, "is %s, want an object of numbers", k)
	}
	m := map[string]float64{}
	err := r.object(field+".", func(key string, _ int) error {
		if isNull, err := r.null(); err != nil || isNull {
			return err
		}
		v, err := r.float(ErrInvalidCandidate, field+"."+key)
		m[key] = v
		return err
	})
	return m, err
}
