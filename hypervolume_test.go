package spica

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/spica-search/spica/internal/testkit"
)

func TestHypervolumeRejectsBadInput(t *testing.T) {
	tests := []struct {
		name     string
		values   []float64
		dims     int
		maximize []bool
		ref      []float64
		msg      string
	}{
		{"a NaN reference coordinate", []float64{1, 2}, 2, []bool{false, false}, []float64{3, math.NaN()}, "ref[1]: is NaN"},
		{"an infinite reference coordinate", []float64{1, 2}, 2, []bool{false, false}, []float64{math.Inf(1), 3}, "ref[0]: is +Inf"},
		{"a reference of the wrong length", []float64{1, 2}, 2, []bool{false, false}, []float64{3}, "ref: has length 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Hypervolume(tt.values, tt.dims, tt.maximize, tt.ref)
			if !errors.Is(err, ErrInvalidMatrix) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Hypervolume error = %v, want ErrInvalidMatrix saying %q", err, tt.msg)
			}
			c, err := HypervolumeContributions(tt.values, tt.dims, tt.maximize, tt.ref)
			if !errors.Is(err, ErrInvalidMatrix) || c != nil {
				t.Errorf("HypervolumeContributions = %v, %v; want nil, ErrInvalidMatrix", c, err)
			}
		})
	}
}

func TestHypervolumeHistoryRejectsBadInput(t *testing.T) {
	tests := []struct {
		name     string
		values   []float64
		maximize []bool
		ref      []float64
		path     string
	}{
		{"ragged matrix", []float64{1, 2, 3}, []bool{false, false}, []float64{4, 4}, "values"},
		{"directions of the wrong length", []float64{1, 2}, []bool{false}, []float64{4, 4}, "maximize"},
		{"short ref", []float64{1, 2}, []bool{false, false}, []float64{4}, "ref"},
		{"infinite ref", []float64{1, 2}, []bool{false, false}, []float64{math.Inf(1), 4}, "ref[0]"},
	}
	for _, tt := range tests {
		_, err := HypervolumeHistory(tt.values, 2, tt.maximize, tt.ref)
		var e *Error
		if !errors.Is(err, ErrInvalidMatrix) || !errors.As(err, &e) || e.Path != tt.path {
			t.Errorf("%s: err = %v, want ErrInvalidMatrix at Path %q", tt.name, err, tt.path)
		}
	}
}

func TestHypervolumeSubsetRejectsBadInput(t *testing.T) {
	tests := []struct {
		name string
		ref  []float64
		k    int
		path string
	}{
		{"negative k", []float64{3, 3}, -1, "k"},
		{"short ref", []float64{3}, 1, "ref"},
		{"NaN in ref", []float64{3, math.NaN()}, 1, "ref[1]"},
	}
	for _, tt := range tests {
		_, _, err := HypervolumeSubset([]float64{1, 2}, 2, []bool{false, false}, tt.ref, tt.k)
		var e *Error
		if !errors.Is(err, ErrInvalidMatrix) || !errors.As(err, &e) || e.Path != tt.path {
			t.Errorf("%s: err = %v, want ErrInvalidMatrix at Path %q", tt.name, err, tt.path)
		}
	}
	// k = 0 is a valid count: no rows, no volume.
	if rows, vol, err := HypervolumeSubset([]float64{1, 2}, 2, []bool{false, false}, []float64{3, 3}, 0); err != nil || len(rows) != 0 || vol != 0 {
		t.Errorf("k = 0: %v, %v, %v; want no rows, 0, nil", rows, vol, err)
	}
}

// BenchmarkHypervolumeHistory times the curve beside one Hypervolume of the
// same rows (minimized, reference point 1 in every column): on "line" and
// "sphere" every row is on the front, on "uniform" most rows are dominated
// by earlier ones, as in a search.
func BenchmarkHypervolumeHistory(b *testing.B) {
	for _, c := range []struct {
		shape string
		d, n  int
	}{{"line", 2, 1e5}, {"uniform", 2, 1e5}, {"uniform", 3, 1e5}, {"sphere", 3, 1e4}, {"sphere", 3, 1e5}} {
		values := testkit.Matrix(c.shape, c.n, c.d)
		maximize, ref := make([]bool, c.d), slices.Repeat([]float64{1}, c.d)
		name := fmt.Sprintf("shape=%s/d=%d/n=1e%d", c.shape, c.d, int(math.Round(math.Log10(float64(c.n)))))
		benchAgainstHypervolume(b, name, "history", func() error {
			_, err := HypervolumeHistory(values, c.d, maximize, ref)
			return err
		}, values, c.d, maximize, ref)
	}
}

// BenchmarkHypervolumeSubset times k = 10 of 1e4 rows on a line (every row
// a candidate) beside one Hypervolume of the same rows.
func BenchmarkHypervolumeSubset(b *testing.B) {
	for _, c := range []struct {
		shape string
		d, n  int
	}{{"line", 2, 1e4}, {"sphere", 3, 1e4}} {
		values := testkit.Matrix(c.shape, c.n, c.d)
		maximize, ref := make([]bool, c.d), slices.Repeat([]float64{1}, c.d)
		name := fmt.Sprintf("shape=%s/d=%d/n=1e4", c.shape, c.d)
		benchAgainstHypervolume(b, name, "subset/k=10", func() error {
			_, _, err := HypervolumeSubset(values, c.d, maximize, ref, 10)
			return err
		}, values, c.d, maximize, ref)
	}
}
