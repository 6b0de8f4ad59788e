package spica

import (
	"errors"
	"fmt"
	"strconv"
)

// The sentinel errors. Every error this package returns is an [*Error]
// wrapping exactly one of them, so callers branch with [errors.Is] and read
// where and what with [errors.As].
var (
	// ErrUnknownTarget reports a target name or value outside the seven
	// known targets.
	ErrUnknownTarget = errors.New("unknown optimization target")
	// ErrNoScalarDirection reports a request for the single direction of
	// the pareto target, which has one direction per objective instead.
	ErrNoScalarDirection = errors.New("target has no scalar direction")
	// ErrInvalidSLA reports an SLA bound that is not a finite number > 0.
	ErrInvalidSLA = errors.New("invalid SLA target")
	// ErrSLARequired reports a goodput objective without a satisfying SLA.
	ErrSLARequired = errors.New("SLA target required")
	// ErrInvalidParetoObjectives reports a bad pareto objective list.
	ErrInvalidParetoObjectives = errors.New("invalid pareto objectives")
	// ErrUnknownField reports a key the schema does not define.
	ErrUnknownField = errors.New("unknown field")
	// ErrDuplicateKey reports a key given twice in one JSON or YAML object.
	ErrDuplicateKey = errors.New("duplicate key")
	// ErrInvalidGoal reports a goal document that is not well-formed or
	// holds a value of the wrong type.
	ErrInvalidGoal = errors.New("invalid optimization goal")
	// ErrInvalidReport reports a replay report that cannot be read.
	ErrInvalidReport = errors.New("invalid report")
	// ErrInvalidCandidate reports a candidate that lacks a needed value or
	// carries a malformed one.
	ErrInvalidCandidate = errors.New("invalid candidate")
	// ErrInvalidBound reports a constraint that no value can be compared
	// with.
	ErrInvalidBound = errors.New("invalid bound")
	// ErrInvalidMatrix reports a values matrix, direction list or reference
	// point of the wrong shape or content.
	ErrInvalidMatrix = errors.New("invalid matrix")
	// ErrInvalidJSON reports malformed input to [NormalizeJSON].
	ErrInvalidJSON = errors.New("invalid JSON")
)

// Error is the one error type this package returns. It says where the
// fault is in the caller's terms and wraps one sentinel, the way
// [strconv.NumError] and [encoding/json.UnmarshalTypeError] carry theirs:
//
//	var e *spica.Error
//	if errors.As(err, &e) && errors.Is(err, spica.ErrInvalidSLA) {
//		fmt.Println("bad field:", e.Path) // e.g. "sla.e2e_ms"
//	}
type Error struct {
	// Path locates the fault in the caller's terms: "sla.e2e_ms",
	// "pareto_objectives[2]", "candidate 3.objectives.e2e_latency",
	// "gpu_hours"; "" when nothing narrower applies. For a value nested in a
	// larger document it is relative to that value.
	Path string
	// Offset is the byte offset of the fault in the document being parsed,
	// relative to the value being decoded, or -1 when not parsing.
	Offset int64
	// Err is the sentinel this error wraps.
	Err error
	// Msg says what is wrong, e.g. "is -1, want a finite number > 0".
	Msg string
}

// Error returns "spica: " + Path + ": " + Msg, the path part left out when
// Path is empty, followed by " (at byte N)" when Offset >= 0.
func (e *Error) Error() string {
	b := []byte("spica: ")
	if e.Path != "" {
		b = append(b, e.Path...)
		b = append(b, ": "...)
	}
	b = append(b, e.Msg...)
	if e.Offset >= 0 {
		b = append(b, " (at byte "...)
		b = strconv.AppendInt(b, e.Offset, 10)
		b = append(b, ')')
	}
	return string(b)
}

// Unwrap returns the sentinel, so that [errors.Is] finds it.
func (e *Error) Unwrap() error { return e.Err }

// errorf makes an *Error that is not tied to a byte offset.
func errorf(sentinel error, path, format string, args ...any) *Error {
	return &Error{Path: path, Offset: -1, Err: sentinel, Msg: fmt.Sprintf(format, args...)}
}

// errorAt makes an *Error found at byte offset off of a parsed document.
func errorAt(sentinel error, path string, off int, format string, args ...any) *Error {
	return &Error{Path: path, Offset: int64(off), Err: sentinel, Msg: fmt.Sprintf(format, args...)}
}
