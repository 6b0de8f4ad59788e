package testkit

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestBetterAndDominates(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		a, b     float64
		maximize bool
		want     bool
	}{
		{1, 2, false, true},
		{1, 2, true, false},
		{nan, 2, false, false},
		{2, nan, true, true},
		{nan, nan, false, false},
		{0, math.Copysign(0, -1), false, false},
	} {
		if got := Better(tc.a, tc.b, tc.maximize); got != tc.want {
			t.Errorf("Better(%v, %v, %v) = %v, want %v", tc.a, tc.b, tc.maximize, got, tc.want)
		}
	}
	up := []bool{false, true}
	if !Dominates([]float64{1, 5}, []float64{2, 5}, up) || Dominates([]float64{1, 5}, []float64{1, 5}, up) || Dominates([]float64{1, 4}, []float64{2, 5}, up) {
		t.Error("Dominates disagrees with the hand-checked pairs")
	}
}

func TestFrontByHand(t *testing.T) {
	// Minimizing both columns: (1,3) and (3,1) trade off, (2,2) beats
	// neither and neither beats it, (3,3) is beaten by (2,2), and the copy
	// of (1,3) is not beaten by its twin.
	values := []float64{1, 3, 3, 1, 2, 2, 3, 3, 1, 3}
	if got, want := Front(values, 2, []bool{false, false}), []int{0, 1, 2, 4}; !slices.Equal(got, want) {
		t.Errorf("Front = %v, want %v", got, want)
	}
}

func TestMatrixShapes(t *testing.T) {
	for _, shape := range []string{"uniform", "line", "sphere"} {
		m := Matrix(shape, 100, 3)
		if len(m) != 300 || !SameBits(m, Matrix(shape, 100, 3)) {
			t.Fatalf("%s: %d values, or not the same twice", shape, len(m))
		}
		for r := 0; r < 100; r++ {
			row := m[3*r : 3*r+3]
			sum, sq := row[0]+row[1]+row[2], row[0]*row[0]+row[1]*row[1]+row[2]*row[2]
			switch {
			case shape == "uniform" && slices.ContainsFunc(row, func(x float64) bool { return x < 0 || x >= 1 }):
				t.Fatalf("uniform row %v outside [0, 1)", row)
			case shape == "line" && math.Abs(sum-1) > 1e-12:
				t.Fatalf("line row %v sums to %v", row, sum)
			case shape == "sphere" && math.Abs(sq-1) > 1e-12:
				t.Fatalf("sphere row %v has norm² %v", row, sq)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Matrix of an unknown shape did not panic")
		}
	}()
	Matrix("cube", 1, 1)
}

// TestStream checks that stream 0 is Matrix, that a stream gives the same
// matrix twice, and that streams differ from each other (a matrix repeated
// would let the branch predictor learn it again), each of the shape asked
// for.
func TestStream(t *testing.T) {
	if !SameBits(Stream("sphere", 50, 3, 0), Matrix("sphere", 50, 3)) {
		t.Fatal("stream 0 is not Matrix")
	}
	var ms [][]float64
	for i := range uint64(4) {
		ms = append(ms, Stream("sphere", 50, 3, i))
	}
	for i, m := range ms {
		if len(m) != 150 || !SameBits(m, Stream("sphere", 50, 3, uint64(i))) {
			t.Fatalf("matrix %d: %d values, or not the same twice", i, len(m))
		}
		for r := range 50 {
			row := m[3*r : 3*r+3]
			if sq := row[0]*row[0] + row[1]*row[1] + row[2]*row[2]; math.Abs(sq-1) > 1e-12 {
				t.Fatalf("matrix %d: row %v has norm² %v", i, row, sq)
			}
		}
		for j := range i {
			if slices.Equal(m[:3], ms[j][:3]) {
				t.Errorf("matrices %d and %d start with the same row %v", j, i, m[:3])
			}
		}
	}
}

func TestSameBits(t *testing.T) {
	nan := math.NaN()
	if !SameBits([]float64{nan, 1}, []float64{nan, 1}) || SameBits([]float64{0}, []float64{math.Copysign(0, -1)}) {
		t.Error("SameBits compares values, not bits")
	}
}

// fakeT records what ReturnsWithin reports.
type fakeT struct{ failed string }

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed = fmt.Sprintf(format, args...)
}

func TestReturnsWithin(t *testing.T) {
	var ft fakeT
	ran := false
	ReturnsWithin(&ft, "quick()", func() { ran = true })
	if !ran || ft.failed != "" {
		t.Errorf("a call that returns: ran %v, failure %q", ran, ft.failed)
	}
	ReturnsWithin(&ft, "boom()", func() { panic("boom") })
	if !strings.HasPrefix(ft.failed, "boom() panicked: boom\n") {
		t.Errorf("a call that panics: failure %q, want it named with its value", ft.failed)
	}
	// The stack of the panic follows, from debug.Stack: its first line
	// names the goroutine.
	if _, stack, _ := strings.Cut(ft.failed, "\n"); !strings.HasPrefix(stack, "goroutine ") {
		t.Errorf("a call that panics: failure %q, want the panic's stack after the first line", ft.failed)
	}
}
