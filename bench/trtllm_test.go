package bench

import (
	"testing"

	"github.com/spica-search/spica"
)

// TestTRTLLM reads a fixture written from reporting.py's keys: the world
// size is the GPU count, the generation-phase speed the per-user rate.
func TestTRTLLM(t *testing.T) {
	runs, err := ReadFiles("testdata/trtllm/streaming.json", Options{})
	if err != nil || len(runs) != 1 || runs[0].Tool != TRTLLM {
		t.Fatalf("%v %v", runs, err)
	}
	r := runs[0]
	// 4 GPUs × 2000 ms / 3.6e6 ms per hour = 1/450 h; AvgGPU is then 4.
	if got := r.Report[spica.MetricGPUHours]; got != 4*2000/3.6e6 || spica.AvgGPU(r.Report) != 4 || r.Meta["used_gpus"] != 4 {
		t.Errorf("gpu_hours %v, AvgGPU %v, used_gpus %v", got, spica.AvgGPU(r.Report), r.Meta["used_gpus"])
	}
	// token_output_speed_tok_s 50, not output_throughput_per_user_tok_s 40 (context phase included).
	if got := r.Report[spica.MetricThroughputPerUser]; got != 50 {
		t.Errorf("per user %v, want 50", got)
	}
}
