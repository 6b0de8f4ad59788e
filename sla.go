package spica

import "math"

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
// Decoding JSON or YAML is strict: an unknown key (matched exactly and
// case-sensitively) is an error wrapping [ErrUnknownField], a repeated key
// one wrapping [ErrDuplicateKey], null leaves a bound unset, and an explicit
// 0, a negative or non-finite number, a number beyond the float64 range
// (1e400) or a non-number is an error wrapping [ErrInvalidSLA] whose Path
// names the field, through every entry point (a goal's "sla.e2e_ms" too).
//
// In a Kubernetes API (SPEC §14) the markers on the fields make each bound
// an optional number > 0 in a CRD schema, as [SLATarget.Validate] requires;
// JSON has no non-finite numbers, so finiteness needs no rule there.
type SLATarget struct {
	// TTFTMs bounds the time to first token, in milliseconds; pair it
	// with ITLMs.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:ExclusiveMinimum=true
	TTFTMs float64 `json:"ttft_ms,omitempty" yaml:"ttft_ms,omitempty"`
	// ITLMs bounds the inter-token latency, in milliseconds; pair it with
	// TTFTMs.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:ExclusiveMinimum=true
	ITLMs float64 `json:"itl_ms,omitempty" yaml:"itl_ms,omitempty"`
	// E2EMs bounds the end-to-end latency of a request, in milliseconds;
	// it is a satisfying SLA on its own.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:ExclusiveMinimum=true
	E2EMs float64 `json:"e2e_ms,omitempty" yaml:"e2e_ms,omitempty"`
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
// error wraps [ErrInvalidSLA] and its Path names the first bad field by its
// JSON name ("e2e_ms").
func (s SLATarget) Validate() error { return s.validate("") }

// validate is Validate with prefix before the field names ("sla." in a
// goal).
func (s SLATarget) validate(prefix string) error {
	for _, f := range s.fields() {
		if err := checkBound(prefix+f.name, *f.v, -1); err != nil {
			return err
		}
	}
	return nil
}

// checkBound validates one set bound at path, found at byte offset off (-1
// when not parsing); 0 means unset and passes.
func checkBound(path string, v float64, off int) error {
	if v >= 0 && !math.IsInf(v, 1) {
		return nil
	}
	return errorAt(ErrInvalidSLA, path, off, "is %v, want a finite number > 0 (or unset)", v)
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
// Unmarshaler; on error s is unchanged too. Offsets and paths in errors are
// relative to the SLA object; malformed JSON wraps [ErrInvalidSLA].
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

// decodeSLA reads an SLA object at r; prefix goes before field names in
// errors ("sla." inside a goal).
func decodeSLA(r *jsonReader, prefix string) (SLATarget, error) {
	var s SLATarget
	if k := r.peek(); k != kindObject {
		if k == kindInvalid {
			return s, r.skip() // the syntax error, with its offset
		}
		return s, errorAt(ErrInvalidSLA, pathOf(prefix), r.pos, "is %s, want an object of latency bounds", k)
	}
	err := r.object(prefix, func(key string, keyAt int) error {
		for _, f := range s.fields() {
			if f.name != key {
				continue
			}
			switch k := r.peek(); k {
			case kindNull:
				return r.literal("null")
			case kindNumber:
				at := r.pos
				v, err := r.number(ErrInvalidSLA, prefix+key)
				if err != nil {
					return err
				}
				if v == 0 {
					return errorAt(ErrInvalidSLA, prefix+key, at, "is 0, want a number > 0 (omit the key or use null to leave it unset)")
				}
				*f.v = v
				return checkBound(prefix+key, v, at)
			case kindInvalid:
				return r.skip()
			default:
				return errorAt(ErrInvalidSLA, prefix+key, r.pos, "is %s, want a number", k)
			}
		}
		return errorAt(ErrUnknownField, prefix+key, keyAt, "unknown key %q (valid: ttft_ms, itl_ms, e2e_ms)", key)
	})
	return s, err
}

// pathOf turns a prefix ("sla.") back into the object's own path ("sla").
func pathOf(prefix string) string {
	if prefix == "" {
		return ""
	}
	return prefix[:len(prefix)-1]
}
