package interop_test

import (
	"bytes"
	"flag"
	"io"
	"log/slog"
	"testing"

	"github.com/spica-search/spica"
)

func withoutTime(_ []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

// TestSlogHandlers is issue 8's log line: slog's text handler printed a
// []OptimizationTarget as "\x01\x02\x03" while the base type was uint8.
func TestSlogHandlers(t *testing.T) {
	goal := spica.OptimizationGoal{Target: spica.TargetPareto, SLA: spica.SLATarget{E2EMs: 2000}}
	objs := []spica.OptimizationTarget{spica.TargetThroughputPerGPU, spica.TargetThroughputPerUser, spica.TargetE2ELatency}
	for _, tt := range []struct {
		name    string
		handler func(io.Writer) slog.Handler
		want    string
	}{
		{"text", func(w io.Writer) slog.Handler {
			return slog.NewTextHandler(w, &slog.HandlerOptions{ReplaceAttr: withoutTime})
		},
			`level=INFO msg="sweep started" goal.target=pareto goal.pareto_objectives="[throughput_per_gpu throughput_per_user]" goal.sla.e2e_ms=2000 objectives="[throughput_per_gpu throughput_per_user e2e_latency]" x=e2e_latency` + "\n"},
		{"JSON", func(w io.Writer) slog.Handler {
			return slog.NewJSONHandler(w, &slog.HandlerOptions{ReplaceAttr: withoutTime})
		},
			`{"level":"INFO","msg":"sweep started","goal":{"target":"pareto","pareto_objectives":["throughput_per_gpu","throughput_per_user"],"sla":{"e2e_ms":2000}},"objectives":["throughput_per_gpu","throughput_per_user","e2e_latency"],"x":"e2e_latency"}` + "\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			slog.New(tt.handler(&b)).Info("sweep started", "goal", goal, "objectives", objs, "x", spica.TargetE2ELatency)
			if b.String() != tt.want {
				t.Errorf("got  %s\nwant %s", b.String(), tt.want)
			}
		})
	}
}

func TestFlagTextVar(t *testing.T) {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var x, y spica.OptimizationTarget
	fs.TextVar(&x, "x", spica.TargetThroughputPerUser, "x-axis objective")
	fs.TextVar(&y, "y", spica.TargetThroughputPerGPU, "y-axis objective")
	if err := fs.Parse([]string{"-x", "e2e_latency"}); err != nil {
		t.Fatal(err)
	}
	if x != spica.TargetE2ELatency || y != spica.TargetThroughputPerGPU {
		t.Errorf("x, y = %v, %v", x, y)
	}
	if err := fs.Parse([]string{"-y", "E2E_LATENCY"}); err == nil {
		t.Error("a case-mismatched name was accepted")
	}
}
