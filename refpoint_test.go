package spica

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/spica-search/spica/internal/testkit"
)

func TestReferencePointByHand(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name     string
		values   []float64
		maximize []bool
		want     []float64
	}{{
		// Front (1,4), (2,2), (4,1); (3,3) is dominated by (2,2) and its 3s
		// take no part. Each column spans 1..4: 4 + 0.1·3.
		name:     "two minimized columns ignore the dominated row",
		values:   []float64{1, 4, 2, 2, 4, 1, 3, 3},
		maximize: []bool{false, false},
		want:     []float64{4.3, 4.3},
	}, {
		// (15,9) is dominated by (20,7). Column 0 (maximized) spans 10..20:
		// 10 − 1; column 1 (minimized) spans 5..7: 7 + 0.2.
		name:     "mixed directions",
		values:   []float64{10, 5, 20, 7, 15, 9},
		maximize: []bool{true, false},
		want:     []float64{9, 7.2},
	}, {
		name:     "one row: a span of 1",
		values:   []float64{3, 3},
		maximize: []bool{true, true},
		want:     []float64{2.9, 2.9},
	}, {
		// All three rows are on the front, each alone best in one column
		// (NaN is worse than every number): (-Inf, NaN, 3) in column 0,
		// (1, 2, +Inf) in column 1, (2, 4, 1) in column 2. Over the finite
		// values only: column 0 spans 1..2, 2 + 0.1·1 = 2.1; column 1 spans
		// 2..4, 4 + 0.1·2 = 4.2; column 2 spans 1..3, 3 + 0.1·2 = 3.2. Each
		// non-finite value would change its column if it took part: −Inf
		// as lo and +Inf as hi make the span infinite (the coordinate
		// would be MaxFloat64), and NaN makes min and max NaN.
		name:     "NaN and infinite values take no part",
		values:   []float64{-inf, nan, 3, 1, 2, inf, 2, 4, 1},
		maximize: []bool{false, false, false},
		want:     []float64{2.1, 4.2, 3.2},
	}, {
		// Column 0 spans −MaxFloat64..1e308, a span beyond float64 (hi − lo
		// overflows), yet a tenth of it past 1e308 is finite:
		// 1e308 + 0.1·(1e308 + 1.7976931348623157e308)
		// = 1e308 + 2.7976931348623157e307 = 1.27976931348623157e308.
		// Column 1 spans 0..1: 1 + 0.1.
		name:     "a span that overflows, a coordinate that does not",
		values:   []float64{-math.MaxFloat64, 1, 1e308, 0},
		maximize: []bool{false, false},
		want:     []float64{1.27976931348623157e308, 1.1},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReferencePoint(tt.values, len(tt.maximize), tt.maximize)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b float64) bool {
				return math.Abs(a-b) <= 1e-12*math.Abs(a)
			})); diff != "" {
				t.Errorf("ReferencePoint (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReferencePointStaysFiniteAndStrictlyWorse(t *testing.T) {
	max := math.MaxFloat64
	tests := []struct {
		name     string
		values   []float64
		maximize bool
		want     float64
	}{
		{"a span that overflows", []float64{-max, 1, max, 0}, false, max},
		{"a tenth of 1 lost next to 1e17", []float64{1e17, 0}, false, 1e17 + 16},
		{"maximized, next to -1e17", []float64{-1e17, 0}, true, -1e17 - 16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReferencePoint(tt.values, 2, []bool{tt.maximize, tt.maximize})
			if err != nil {
				t.Fatal(err)
			}
			if got[0] != tt.want {
				t.Errorf("ref[0] = %v, want %v", got[0], tt.want)
			}
		})
	}
}

func TestReferencePointRejectsBadInput(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name     string
		values   []float64
		dims     int
		maximize []bool
		path     string
	}{
		{"empty matrix", nil, 2, []bool{false, false}, "values"},
		{"a column of NaN on the front", []float64{1, nan, 2, nan}, 2, []bool{false, false}, "values"},
		{"an infinite column on the front", []float64{math.Inf(-1), 0}, 1, []bool{false}, "values"},
		{"ragged matrix", []float64{1, 2, 3}, 2, []bool{false, false}, "values"},
		{"directions of the wrong length", []float64{1, 2}, 2, []bool{false}, "maximize"},
		{"no columns", []float64{1, 2}, 0, nil, "dims"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReferencePoint(tt.values, tt.dims, tt.maximize)
			if !errors.Is(err, ErrInvalidMatrix) {
				t.Fatalf("err = %v, want ErrInvalidMatrix", err)
			}
			var e *Error
			if !errors.As(err, &e) || e.Path != tt.path {
				t.Errorf("err = %#v, want Path %q", err, tt.path)
			}
		})
	}
}

// TestReferencePointMatchesOracle checks the rule against the brute-force
// front and the formula written out, and that every finite front value is
// strictly better than the point.
func TestReferencePointMatchesOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dims := rapid.IntRange(1, 4).Draw(t, "dims")
		n := rapid.IntRange(1, 12).Draw(t, "n")
		maximize := rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
		pool := []float64{-3, -1, 0, 0.5, 2, 7, math.NaN(), math.Inf(1), math.Inf(-1)}
		values := make([]float64, n*dims)
		for i := range values {
			values[i] = rapid.SampledFrom(pool).Draw(t, "v")
		}
		front := testkit.Front(values, dims, maximize)
		want := make([]float64, dims)
		ok := true
		for j := range dims {
			var finite []float64
			for _, i := range front {
				if v := values[i*dims+j]; !math.IsNaN(v) && !math.IsInf(v, 0) {
					finite = append(finite, v)
				}
			}
			if len(finite) == 0 {
				ok = false
				break
			}
			lo, hi := finite[0], finite[0]
			for _, v := range finite {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			r := hi - lo
			if r == 0 {
				r = 1
			}
			if maximize[j] {
				want[j] = lo - 0.1*r
			} else {
				want[j] = hi + 0.1*r
			}
		}
		got, err := ReferencePoint(values, dims, maximize)
		if !ok {
			if !errors.Is(err, ErrInvalidMatrix) {
				t.Fatalf("err = %v, want ErrInvalidMatrix for a column without finite front values", err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("ReferencePoint (-want +got):\n%s", diff)
		}
		for _, i := range front {
			for j := range dims {
				v := values[i*dims+j]
				if math.IsNaN(v) || math.IsInf(v, 0) {
					continue
				}
				if maximize[j] && !(v > got[j]) || !maximize[j] && !(v < got[j]) {
					t.Fatalf("front row %d column %d = %v is not strictly better than %v", i, j, v, got[j])
				}
			}
		}
	})
}

// BenchmarkReferencePoint times the reference point of 1e5 uniform rows of
// three columns beside the NonDominated call it is built on.
func BenchmarkReferencePoint(b *testing.B) {
	values := testkit.Matrix("uniform", 1e5, 3)
	maximize := make([]bool, 3)
	b.Run("f=ReferencePoint", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ReferencePoint(values, 3, maximize); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("f=NonDominated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := NonDominated(values, 3, maximize); err != nil {
				b.Fatal(err)
			}
		}
	})
}
