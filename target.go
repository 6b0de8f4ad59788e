package spica

import (
	"strconv"
	"strings"
)

// OptimizationTarget names what a search optimizes. It is a small integer;
// its zero value is [TargetThroughput], which makes the zero
// [OptimizationGoal] the default goal. Its text form (see [Targets] and
// [OptimizationTarget.String]) is what JSON, YAML and flag libraries read and
// write through [encoding.TextMarshaler], [encoding.TextAppender] and
// [encoding.TextUnmarshaler]: it works with [flag.TextVar], as a JSON map key,
// and in both of slog's handlers.
//
// Its base type is int, as that of [log/slog.Level] and [time.Month] is: with
// a byte-sized base, reflection would see a []OptimizationTarget as a []byte,
// and slog's text handler would print it as a quoted byte string.
//
// In a Kubernetes API (SPEC §14) a target is its text form, so the markers
// below tell controller-gen to write a string enum of the seven names into
// a CRD schema instead of the integer of the Go base type.
//
// +kubebuilder:validation:Type=string
// +kubebuilder:validation:Enum=throughput;throughput_per_gpu;throughput_per_user;e2e_latency;goodput;goodput_per_gpu;pareto
type OptimizationTarget int

// The targets, in their canonical order.
const (
	// TargetThroughput maximizes output_throughput_tok_s (tok/s).
	TargetThroughput OptimizationTarget = iota
	// TargetThroughputPerGPU maximizes output_throughput_tok_s / avg_gpu
	// (tok/s/gpu); see [AvgGPU].
	TargetThroughputPerGPU
	// TargetThroughputPerUser maximizes
	// mean_output_token_throughput_per_user (tok/s/user). That metric is
	// already a rate, so it is not normalised by GPUs or time.
	TargetThroughputPerUser
	// TargetE2ELatency minimizes mean_e2e_latency_ms. It is the only
	// minimized target.
	TargetE2ELatency
	// TargetGoodput maximizes goodput_output_throughput_tok_s, the
	// throughput of SLA-satisfying requests; it needs an SLA.
	TargetGoodput
	// TargetGoodputPerGPU maximizes goodput_output_throughput_tok_s /
	// avg_gpu; it needs an SLA.
	TargetGoodputPerGPU
	// TargetPareto optimizes a vector of objectives at once (see
	// [OptimizationGoal.ResolvedParetoObjectives]); it has no single
	// direction.
	TargetPareto
)

// direction is a target's scalar direction.
type direction uint8

const (
	dirMaximize direction = iota
	dirMinimize
	dirPerObjective // pareto: one direction per objective
)

// targetInfo is everything the package knows about one target; the methods
// of OptimizationTarget read this table instead of repeating a switch.
type targetInfo struct {
	name     string
	dir      direction
	metric   string // the report key the value is read from ("" for pareto)
	perGPU   bool   // the value is divided by avg_gpu
	needsSLA bool
	planner  string
}

var targetTable = [...]targetInfo{
	TargetThroughput:        {"throughput", dirMaximize, MetricOutputThroughput, false, false, "throughput"},
	TargetThroughputPerGPU:  {"throughput_per_gpu", dirMaximize, MetricOutputThroughput, true, false, "throughput"},
	TargetThroughputPerUser: {"throughput_per_user", dirMaximize, MetricThroughputPerUser, false, false, "throughput"},
	TargetE2ELatency:        {"e2e_latency", dirMinimize, MetricMeanE2ELatency, false, false, "latency"},
	TargetGoodput:           {"goodput", dirMaximize, MetricGoodput, false, true, "sla"},
	TargetGoodputPerGPU:     {"goodput_per_gpu", dirMaximize, MetricGoodput, true, true, "sla"},
	TargetPareto:            {"pareto", dirPerObjective, "", false, false, "throughput"},
}

// validTargetNames lists the text forms for error messages.
var validTargetNames = func() string {
	names := make([]string, len(targetTable))
	for i, info := range targetTable {
		names[i] = info.name
	}
	return strings.Join(names, ", ")
}()

// Targets returns all seven targets in their canonical order, in a new
// slice the caller may modify.
func Targets() []OptimizationTarget {
	ts := make([]OptimizationTarget, len(targetTable))
	for i := range ts {
		ts[i] = OptimizationTarget(i)
	}
	return ts
}

// IsValid reports whether t is one of the seven known targets.
func (t OptimizationTarget) IsValid() bool { return t >= 0 && int(t) < len(targetTable) }

// String returns the text form of t, such as "throughput_per_gpu". A value
// outside the known targets prints as OptimizationTarget(N).
func (t OptimizationTarget) String() string {
	if !t.IsValid() {
		return "OptimizationTarget(" + strconv.Itoa(int(t)) + ")"
	}
	return targetTable[t].name
}

// ParseOptimizationTarget returns the target whose text form is exactly s
// (case-sensitive, no surrounding space allowed). Any other string is an
// error wrapping [ErrUnknownTarget] that quotes s and lists the valid names.
func ParseOptimizationTarget(s string) (OptimizationTarget, error) {
	for i, info := range targetTable {
		if info.name == s {
			return OptimizationTarget(i), nil
		}
	}
	return 0, unknownTargetName("", s)
}

// unknownTargetName is the error for the name s at path.
func unknownTargetName(path, s string) *Error {
	return errorf(ErrUnknownTarget, path, "unknown target %q (valid: %s)", s, validTargetNames)
}

// unknownTargetValue is the error for the out-of-range value t at path.
func unknownTargetValue(path string, t OptimizationTarget) *Error {
	return errorf(ErrUnknownTarget, path, "unknown target %s (valid: %s)", t, validTargetNames)
}

// MarshalText implements [encoding.TextMarshaler]. It fails with
// [ErrUnknownTarget] for a value outside the known targets, so an invalid
// target is never written where it could not be read back.
func (t OptimizationTarget) MarshalText() ([]byte, error) {
	return t.AppendText(nil)
}

// AppendText implements [encoding.TextAppender]: it appends the text form
// of t to b, with the rules of [OptimizationTarget.MarshalText].
func (t OptimizationTarget) AppendText(b []byte) ([]byte, error) {
	if !t.IsValid() {
		return b, unknownTargetValue("", t)
	}
	return append(b, targetTable[t].name...), nil
}

// UnmarshalText implements [encoding.TextUnmarshaler] with the rules of
// [ParseOptimizationTarget]. On error t is left unchanged.
func (t *OptimizationTarget) UnmarshalText(text []byte) error {
	v, err := ParseOptimizationTarget(string(text))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// Maximize reports whether larger values of t are better. Only
// [TargetE2ELatency] is minimized. It fails with [ErrNoScalarDirection] for
// [TargetPareto] and with [ErrUnknownTarget] for an out-of-range value.
func (t OptimizationTarget) Maximize() (bool, error) {
	if !t.IsValid() {
		return false, unknownTargetValue("", t)
	}
	if targetTable[t].dir == dirPerObjective {
		return false, errorf(ErrNoScalarDirection, "", "%s optimizes one direction per objective", t)
	}
	return t.maximized(), nil
}

// maximized is Maximize for a target already known to be valid and scalar,
// as every objective of a checked list is.
func (t OptimizationTarget) maximized() bool { return targetTable[t].dir == dirMaximize }

// NeedsSLA reports whether the scalar target t is only meaningful under an
// SLA: true for [TargetGoodput] and [TargetGoodputPerGPU] only. It is false
// for [TargetPareto], whose need depends on its objectives; ask
// [OptimizationGoal.NeedsSLA] for that.
func (t OptimizationTarget) NeedsSLA() bool { return t.IsValid() && targetTable[t].needsSLA }

// PlannerOptimizationTarget returns the autoscaling planner's objective for
// t: "sla" for the goodput targets, "latency" for [TargetE2ELatency], and
// "throughput" for every other target, pareto included. An out-of-range
// value also gives "throughput", the planner's default.
func (t OptimizationTarget) PlannerOptimizationTarget() string {
	if !t.IsValid() {
		return targetTable[TargetThroughput].planner
	}
	return targetTable[t].planner
}
