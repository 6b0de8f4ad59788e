package spica

import "errors"

// The sentinel errors. Every error this package returns wraps exactly one
// of them (occasionally two, see [OptimizationGoal.Validate]), so callers
// can branch with [errors.Is]; the message of the wrapping error names the
// field, key or value at fault.
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
	// ErrUnknownField reports a JSON key the schema does not define, or a
	// key given twice in one object.
	ErrUnknownField = errors.New("unknown field")
	// ErrInvalidGoal reports a goal document that is not well-formed JSON
	// or holds a value of the wrong type.
	ErrInvalidGoal = errors.New("invalid optimization goal")
	// ErrInvalidReport reports a replay report that cannot be read.
	ErrInvalidReport = errors.New("invalid report")
	// ErrInvalidCandidate reports a candidate that lacks a needed value or
	// carries a malformed one.
	ErrInvalidCandidate = errors.New("invalid candidate")
	// ErrInvalidBound reports a constraint of [BestSubjectTo] that no value
	// can be compared with.
	ErrInvalidBound = errors.New("invalid bound")
	// ErrInvalidMatrix reports a values matrix, direction list or reference
	// point of the wrong shape or content.
	ErrInvalidMatrix = errors.New("invalid matrix")
)
