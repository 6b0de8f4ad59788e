package spica

import (
	"fmt"
	"math"
)

// SLATarget holds per-request latency bounds in milliseconds. Each bound is
// optional and its zero value means "unset": a set bound is > 0, so 0 is
// never a real bound. The zero SLATarget is "no SLA".
//
// A satisfying SLA bounds either both the time to first token and the
// inter-token latency, or the end-to-end latency (see
// [SLATarget.Satisfying]). The SLA is not a feasibility gate: it lives
// inside the goodput metric, where the replay counts only the requests that
// meet it, so gating candidates on aggregate latency as well would count it
// twice.
//
// Decoding JSON is strict: an unknown key (matched exactly and
// case-sensitively) is an error wrapping [ErrUnknownField], a repeated key is
// an error, null leaves a bound unset, and an explicit 0, a negative number
// or a non-number is an error wrapping [ErrInvalidSLA] naming the field.
type SLATarget struct {
	TTFTMs float64 `json:"ttft_ms,omitempty"` // time-to-first-token bound; pair with ITLMs
	ITLMs  float64 `json:"itl_ms,omitempty"`  // inter-token-latency bound; pair with TTFTMs
	E2EMs  float64 `json:"e2e_ms,omitempty"`  // end-to-end bound; standalone alternative
}

// slaField is one bound by its JSON name.
type slaField struct {
	name string
	v    *float64
}

// fields lists the bounds in declaration order, so validation and decoding
// name fields the same way.
func (s *SLATarget) fields() [3]slaField {
	return [3]slaField{{"ttft_ms", &s.TTFTMs}, {"itl_ms", &s.ITLMs}, {"e2e_ms", &s.E2EMs}}
}

// Validate reports whether every set bound is a finite number > 0. The
// error wraps [ErrInvalidSLA] and names the first bad field by its JSON name.
func (s SLATarget) Validate() error {
	for _, f := range s.fields() {
		if err := checkBound(f.name, *f.v); err != nil {
			return err
		}
	}
	return nil
}

// checkBound validates one set bound; 0 means unset and passes.
func checkBound(name string, v float64) error {
	if v == 0 || (v > 0 && !math.IsInf(v, 1)) {
		return nil
	}
	return fmt.Errorf("%w: %s is %v, want a finite number > 0 (or unset)", ErrInvalidSLA, name, v)
}

// Satisfying reports whether s is valid and bounds enough to decide whether
// a request meets it: the end-to-end latency, or both the time to first
// token and the inter-token latency.
func (s SLATarget) Satisfying() bool {
	return s.Validate() == nil && (s.E2EMs != 0 || (s.TTFTMs != 0 && s.ITLMs != 0))
}

// IsZero reports whether no bound is set. It also makes the `omitzero` tag
// of [OptimizationGoal] leave an empty SLA out of encoded goals.
func (s SLATarget) IsZero() bool { return s == SLATarget{} }

// UnmarshalJSON decodes an SLA object strictly (see [SLATarget]) and
// validates it. JSON null leaves s unchanged, as encoding/json expects of an
// Unmarshaler; on error s is unchanged too.
func (s *SLATarget) UnmarshalJSON(data []byte) error {
	v, isNull, err := decodeDocument(data, ErrInvalidSLA, func(r *jsonReader) (SLATarget, error) {
		return decodeSLA(r, "")
	})
	if err != nil || isNull {
		return err
	}
	*s = v
	return nil
}

// decodeSLA reads an SLA object at r; path prefixes field names in errors
// ("sla." inside a goal).
func decodeSLA(r *jsonReader, path string) (SLATarget, error) {
	var s SLATarget
	if k := r.peek(); k != kindObject {
		if k == kindInvalid {
			return s, r.skip() // the syntax error, with its offset
		}
		return s, fmt.Errorf("%w: %s must be an object, got %s", ErrInvalidSLA, pathOr(path, "SLA"), k)
	}
	err := r.object(func(key string) error {
		for _, f := range s.fields() {
			if f.name != key {
				continue
			}
			switch k := r.peek(); k {
			case kindNull:
				return r.literal("null")
			case kindNumber:
				v, err := r.number()
				if err != nil {
					return err
				}
				if v == 0 {
					return fmt.Errorf("%w: %s%s is 0, want a number > 0 (omit the key or use null to leave it unset)", ErrInvalidSLA, path, key)
				}
				*f.v = v
				return checkBound(path+key, v)
			case kindInvalid:
				return r.skip()
			default:
				return fmt.Errorf("%w: %s%s must be a number, got %s", ErrInvalidSLA, path, key, k)
			}
		}
		return fmt.Errorf("%w %q in %s (valid: ttft_ms, itl_ms, e2e_ms)", ErrUnknownField, path+key, pathOr(path, "SLA"))
	})
	return s, err
}

// pathOr names an object for messages: its path without the trailing dot,
// or def at the top level.
func pathOr(path, def string) string {
	if path == "" {
		return def
	}
	return path[:len(path)-1]
}
