package spica

import (
	"bytes"
	"flag"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
)

// TestTargetsInSlogHandlers is issue 8's case: with a uint8 base type,
// slog's text handler printed []OptimizationTarget as "\x01\x02\x03".
func TestTargetsInSlogHandlers(t *testing.T) {
	objs := []OptimizationTarget{TargetThroughputPerGPU, TargetThroughputPerUser, TargetE2ELatency}
	removeTime := func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}
	for _, tt := range []struct {
		name    string
		handler func(io.Writer) slog.Handler
		want    string
	}{
		{"text", func(w io.Writer) slog.Handler {
			return slog.NewTextHandler(w, &slog.HandlerOptions{ReplaceAttr: removeTime})
		},
			`level=INFO msg=sweep target=e2e_latency objectives="[throughput_per_gpu throughput_per_user e2e_latency]"` + "\n"},
		{"JSON", func(w io.Writer) slog.Handler {
			return slog.NewJSONHandler(w, &slog.HandlerOptions{ReplaceAttr: removeTime})
		},
			`{"level":"INFO","msg":"sweep","target":"e2e_latency","objectives":["throughput_per_gpu","throughput_per_user","e2e_latency"]}` + "\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			slog.New(tt.handler(&b)).Info("sweep", "target", TargetE2ELatency, "objectives", objs)
			if b.String() != tt.want {
				t.Errorf("got  %s\nwant %s", b.String(), tt.want)
			}
		})
	}
}

func TestGoalLogValue(t *testing.T) {
	for _, tt := range []struct {
		goal OptimizationGoal
		want string
		keys []string // of the group LogValue returns
	}{
		{OptimizationGoal{}, `goal.target=throughput`, []string{"target"}},
		{OptimizationGoal{Target: TargetPareto}, `goal.target=pareto goal.pareto_objectives="[throughput_per_gpu throughput_per_user]"`,
			[]string{"target", "pareto_objectives"}},
		{OptimizationGoal{Target: TargetGoodput, SLA: SLATarget{TTFTMs: 500, ITLMs: 50}}, `goal.target=goodput goal.sla.ttft_ms=500 goal.sla.itl_ms=50`,
			[]string{"target", "sla"}},
	} {
		// A goal without an SLA carries no sla group, not an empty one.
		var keys []string
		for _, a := range tt.goal.LogValue().Group() {
			keys = append(keys, a.Key)
		}
		if !slices.Equal(keys, tt.keys) {
			t.Errorf("%v: LogValue's keys are %q, want %q", tt.goal, keys, tt.keys)
		}
		var b bytes.Buffer
		h := slog.NewTextHandler(&b, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == slog.LevelKey || a.Key == slog.MessageKey {
				return slog.Attr{}
			}
			return a
		}})
		slog.New(h).Info("", "goal", tt.goal)
		if got := strings.TrimSpace(b.String()); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

func TestTargetWithFlagTextVar(t *testing.T) {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var target OptimizationTarget
	fs.TextVar(&target, "target", TargetThroughputPerGPU, "what to optimize")
	if got := fs.Lookup("target").DefValue; got != "throughput_per_gpu" {
		t.Errorf("default shows as %q", got)
	}
	if err := fs.Parse([]string{"-target", "e2e_latency"}); err != nil || target != TargetE2ELatency {
		t.Errorf("-target e2e_latency: %v, %v", target, err)
	}
	// The flag package formats the error with %v, so only its text is left.
	err := fs.Parse([]string{"-target", "latency"})
	if err == nil || !strings.Contains(err.Error(), `unknown target "latency"`) {
		t.Errorf("-target latency: %v, want the unknown-target error", err)
	}
}

func TestTargetAppendText(t *testing.T) {
	b, err := TargetGoodput.AppendText([]byte("t="))
	if err != nil || string(b) != "t=goodput" {
		t.Errorf("AppendText = %q, %v", b, err)
	}
	b, err = OptimizationTarget(-3).AppendText([]byte("t="))
	checkError(t, err, ErrUnknownTarget, "", -1)
	if string(b) != "t=" {
		t.Errorf("AppendText of an invalid target appended %q", b)
	}
	if OptimizationTarget(-1).IsValid() || OptimizationTarget(-1).String() != "OptimizationTarget(-1)" {
		t.Error("a negative target must be invalid and print as OptimizationTarget(-1)")
	}
}
