package spica

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorMessageShape(t *testing.T) {
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{"path, message and offset", errorAt(ErrInvalidSLA, "sla.e2e_ms", 17, "is %d, want a finite number > 0", -1),
			"spica: sla.e2e_ms: is -1, want a finite number > 0 (at byte 17)"},
		{"no path leaves the path part out", errorf(ErrInvalidMatrix, "", "dims is 0, want at least 1"),
			"spica: dims is 0, want at least 1"},
		{"offset zero is still an offset", errorAt(ErrInvalidGoal, "", 0, "unexpected end of input"),
			"spica: unexpected end of input (at byte 0)"},
		{"no offset when not parsing", errorf(ErrInvalidCandidate, "candidate 3.objectives.e2e_latency", "is missing"),
			"spica: candidate 3.objectives.e2e_latency: is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
			if !errors.Is(tt.err, tt.err.Err) {
				t.Errorf("errors.Is(err, %v) = false", tt.err.Err)
			}
		})
	}
}

// sentinels is every sentinel the package exports.
var sentinels = []error{ErrUnknownTarget, ErrNoScalarDirection, ErrInvalidSLA, ErrSLARequired,
	ErrInvalidParetoObjectives, ErrUnknownField, ErrDuplicateKey, ErrInvalidGoal, ErrInvalidReport,
	ErrInvalidCandidate, ErrInvalidBound, ErrInvalidMatrix, ErrInvalidJSON}

// oneSentinel says what is wrong unless err is an *Error wrapping exactly
// one of the sentinels ("" when it is).
func oneSentinel(err error) string {
	var e *Error
	if !errors.As(err, &e) {
		return fmt.Sprintf("error %v (%T) is not an *Error", err, err)
	}
	var found []error
	for _, s := range sentinels {
		if errors.Is(err, s) {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		return fmt.Sprintf("error %v wraps %d sentinels %v, want exactly one", err, len(found), found)
	}
	return ""
}
