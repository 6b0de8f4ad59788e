package spica

import "math"

// msPerHour converts duration_ms to hours.
const msPerHour = 3_600_000

// AvgGPU returns the time-averaged number of provisioned GPUs of a run:
//
//	avg_gpu = gpu_hours / (duration_ms / 3_600_000)
//
// the integral of provisioned GPUs over the run divided by its duration. For
// a static deployment it is the fixed GPU count; for an autoscaled run it
// averages the provisioned GPUs over startup, serving and drain. Per-GPU
// objectives divide a rate by it; dividing a rate by gpu_hours itself would
// be wrong, since the rate already has time divided out.
//
// It returns 0 when gpu_hours <= 0 or duration_ms <= 0 (a missing key reads
// as 0, so this covers missing values too). Otherwise, when either is NaN or
// +Inf it returns NaN, so that per-GPU objectives become NaN and rank last
// instead of showing a misleading finite number.
func AvgGPU(r Report) float64 {
	gpuHours, durationMs := r[MetricGPUHours], r[MetricDurationMs]
	if gpuHours <= 0 || durationMs <= 0 {
		return 0
	}
	if math.IsNaN(gpuHours) || math.IsNaN(durationMs) || math.IsInf(gpuHours, 1) || math.IsInf(durationMs, 1) {
		return math.NaN()
	}
	return gpuHours / (durationMs / msPerHour)
}
