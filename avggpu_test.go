package spica

import (
	"math"
	"testing"
)

func TestAvgGPU(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name                 string
		gpuHours, durationMs float64
		omitHours, omitDur   bool
		want                 float64
	}{
		{"2 GPUs for 2 s", 2.0 * 2 / 3600, 2000, false, false, 2},
		{"8 GPUs for an hour", 8, 3_600_000, false, false, 8},
		{"an autoscaled half hour averaging 3", 1.5, 1_800_000, false, false, 3},
		{"missing gpu_hours", 0, 1000, true, false, 0},
		{"missing duration", 1, 0, false, true, 0},
		{"both missing", 0, 0, true, true, 0},
		{"zero gpu_hours", 0, 1000, false, false, 0},
		{"negative duration", 1, -5, false, false, 0},
		{"negative gpu_hours beats a NaN duration", -1, nan, false, false, 0},
		{"zero gpu_hours beats a NaN duration", 0, nan, false, false, 0},
		{"zero gpu_hours beats an infinite duration", 0, inf, false, false, 0},
		{"zero duration beats NaN gpu_hours", nan, 0, false, false, 0},
		{"NaN gpu_hours with a missing duration", nan, 0, false, true, 0},
		{"NaN gpu_hours", nan, 1000, false, false, nan},
		{"NaN duration", 1, nan, false, false, nan},
		{"+Inf gpu_hours", inf, 1000, false, false, nan},
		{"+Inf duration", 1, inf, false, false, nan},
		{"-Inf duration is non-positive", 1, math.Inf(-1), false, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Report{"unrelated": 99}
			if !tt.omitHours {
				r[MetricGPUHours] = tt.gpuHours
			}
			if !tt.omitDur {
				r[MetricDurationMs] = tt.durationMs
			}
			got := AvgGPU(r)
			if got != tt.want && !(math.IsNaN(got) && math.IsNaN(tt.want)) {
				t.Errorf("AvgGPU(%v) = %v, want %v", r, got, tt.want)
			}
		})
	}
	if got := AvgGPU(nil); got != 0 {
		t.Errorf("AvgGPU(nil) = %v, want 0", got)
	}
}
