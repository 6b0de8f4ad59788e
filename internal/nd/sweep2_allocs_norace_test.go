//go:build !race

package nd

import (
	"math"
	"testing"
)

// TestFront2Allocations counts front2's allocations on 64 rows, none of
// them pooled: with the pre-filter, four, newPivotSet's keys, floats and
// set, and the filter's buffer of 2·64 records, which holds the records
// and the sort's scratch whether the filter runs to the end or stands down
// at the probe (all of a line's rows survive, so it does at row 8); with
// no pre-filter, one, the records and the scratch. The filter's buffer
// alone is one allocation when few rows survive.
func TestFront2Allocations(t *testing.T) {
	const n = 64
	line, diagonal := make([]float64, 2*n), make([]float64, 2*n)
	for r := range n {
		line[2*r], line[2*r+1] = float64(r), float64(n-1-r)
		diagonal[2*r], diagonal[2*r+1] = float64(r), float64(r)
	}
	flip := KeyFlips([]bool{false, false})
	for _, tt := range []struct {
		name   string
		values []float64
		tuning ndTuning
		want   float64
	}{
		{"a line, filtered to the end", line, ndTuning{prefilterMin: 1, probe: math.MaxInt, radixMin: 256}, 4},
		{"a line, the filter standing down", line, ndTuning{prefilterMin: 1, probe: 8, radixMin: 256}, 4},
		{"a line, radix sorted", line, ndTuning{prefilterMin: 1, probe: 8, radixMin: 2}, 4},
		{"a diagonal, filtered", diagonal, ndTuning{prefilterMin: 1, probe: 8, radixMin: 256}, 4},
		{"a line, not filtered", line, ndTuning{prefilterMin: n + 1, radixMin: 256}, 1},
	} {
		if got := testing.AllocsPerRun(5, func() { front2(tt.values, n, flip, tt.tuning) }); got != tt.want {
			t.Errorf("%s: %v allocations a call, want %v", tt.name, got, tt.want)
		}
	}
	if got := testing.AllocsPerRun(5, func() { front2Filter(diagonal, n, flip, n-1, filterOn) }); got != 4 {
		t.Errorf("front2Filter of a diagonal: %v allocations a call, want 4", got)
	}
}
