package spica

// Report is one replay report ("trace_report"): a flat map from metric key
// to value. Real reports carry many keys this package never reads; they are
// kept and ignored. A missing key reads as described by [ObjectiveValue].
type Report map[string]float64

// The report keys this package reads.
const (
	MetricOutputThroughput  = "output_throughput_tok_s"
	MetricMeanTTFT          = "mean_ttft_ms"
	MetricMeanTPOT          = "mean_tpot_ms"
	MetricMeanE2ELatency    = "mean_e2e_latency_ms"
	MetricThroughputPerUser = "mean_output_token_throughput_per_user"
	MetricGoodput           = "goodput_output_throughput_tok_s"
	MetricGPUHours          = "gpu_hours"
	MetricDurationMs        = "duration_ms"
	MetricPlannerTotalTicks = "planner_total_ticks"
)

var metricKeys = [...]string{
	MetricOutputThroughput,
	MetricMeanTTFT,
	MetricMeanTPOT,
	MetricMeanE2ELatency,
	MetricThroughputPerUser,
	MetricGoodput,
	MetricGPUHours,
	MetricDurationMs,
	MetricPlannerTotalTicks,
}

// MetricKeys returns the nine metric keys in the order of their constants,
// in a new slice the caller may modify.
func MetricKeys() []string { return append([]string(nil), metricKeys[:]...) }
