package spica

import (
	"errors"
	"math"
	"testing"
)

// TestMatrixErrorsAreStructured checks the shape and reference-point errors
// of every matrix function: an *Error wrapping ErrInvalidMatrix and no other
// sentinel, with the path in the caller's terms, no offset, and the message
// the contract's Error() shape gives.
func TestMatrixErrorsAreStructured(t *testing.T) {
	hv := func(values []float64, dims int, maximize []bool, ref []float64) []error {
		_, e1 := Hypervolume(values, dims, maximize, ref)
		_, e2 := HypervolumeContributions(values, dims, maximize, ref)
		return []error{e1, e2}
	}
	shape := func(values []float64, dims int, maximize []bool) []error {
		_, e1 := NonDominated(values, dims, maximize)
		_, e2 := NonDominatedSort(values, dims, maximize)
		ref := make([]float64, max(dims, 0))
		return append([]error{e1, e2}, hv(values, dims, maximize, ref)...)
	}
	crowding := func(values []float64, dims int) []error {
		_, err := CrowdingDistance(values, dims)
		return []error{err}
	}
	sentinels := []error{ErrUnknownTarget, ErrNoScalarDirection, ErrInvalidSLA, ErrSLARequired,
		ErrInvalidParetoObjectives, ErrUnknownField, ErrDuplicateKey, ErrInvalidGoal, ErrInvalidReport,
		ErrInvalidCandidate, ErrInvalidBound, ErrInvalidJSON}
	for _, tc := range []struct {
		name, path, text string
		errs             []error
	}{
		{"zero dims", "dims", "spica: dims: is 0, want at least 1", shape([]float64{1}, 0, nil)},
		{"negative dims", "dims", "spica: dims: is -2, want at least 1", append(shape(nil, -2, nil), crowding(nil, -2)...)},
		{"a ragged last row", "values", "spica: values: has length 3, not a multiple of dims = 2",
			append(shape([]float64{1, 2, 3}, 2, []bool{true, true}), crowding([]float64{1, 2, 3}, 2)...)},
		{"a short direction list", "maximize", "spica: maximize: has length 1, want dims = 2", shape([]float64{1, 2}, 2, []bool{true})},
		{"a short reference point", "ref", "spica: ref: has length 1, want dims = 2", hv([]float64{1, 2}, 2, []bool{true, false}, []float64{0})},
		{"a NaN reference coordinate", "ref[1]", "spica: ref[1]: is NaN, want a finite number", hv([]float64{1, 2}, 2, []bool{true, false}, []float64{0, math.NaN()})},
		{"an infinite reference coordinate", "ref[0]", "spica: ref[0]: is -Inf, want a finite number", hv(nil, 2, []bool{true, false}, []float64{math.Inf(-1), 0})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i, err := range tc.errs {
				var e *Error
				if !errors.As(err, &e) || !errors.Is(err, ErrInvalidMatrix) {
					t.Fatalf("call %d: error %v is not an *Error wrapping ErrInvalidMatrix", i, err)
				}
				for _, s := range sentinels {
					if errors.Is(err, s) {
						t.Errorf("call %d: %v also wraps %v", i, err, s)
					}
				}
				if e.Path != tc.path || e.Offset != -1 || err.Error() != tc.text {
					t.Errorf("call %d: Path %q, Offset %d, Error() %q; want %q, -1, %q", i, e.Path, e.Offset, err.Error(), tc.path, tc.text)
				}
			}
		})
	}
}

func TestNonDominatedErrors(t *testing.T) {
	for _, tc := range []struct {
		values   []float64
		dims     int
		maximize []bool
	}{
		{[]float64{1, 2, 3}, 2, []bool{false, false}},
		{[]float64{1, 2}, 0, nil},
		{[]float64{1, 2}, 2, []bool{false}},
	} {
		if _, err := NonDominated(tc.values, tc.dims, tc.maximize); err == nil {
			t.Errorf("NonDominated(%v, %d, %v) = nil error, want ErrInvalidMatrix", tc.values, tc.dims, tc.maximize)
		}
	}
}
