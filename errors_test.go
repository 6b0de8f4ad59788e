package spica

import (
	"errors"
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
