package spica

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTargetsAreTheSevenInSpecOrder(t *testing.T) {
	got := Targets()
	want := []OptimizationTarget{TargetThroughput, TargetThroughputPerGPU, TargetThroughputPerUser,
		TargetE2ELatency, TargetGoodput, TargetGoodputPerGPU, TargetPareto}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Targets() mismatch (-want +got):\n%s", diff)
	}
	got[0] = TargetPareto
	if Targets()[0] != TargetThroughput {
		t.Error("Targets() returned a shared slice: modifying it changed the next result")
	}
}

func TestTargetProperties(t *testing.T) {
	tests := []struct {
		target   OptimizationTarget
		name     string
		maximize bool
		needsSLA bool
		planner  string
	}{
		{TargetThroughput, "throughput", true, false, "throughput"},
		{TargetThroughputPerGPU, "throughput_per_gpu", true, false, "throughput"},
		{TargetThroughputPerUser, "throughput_per_user", true, false, "throughput"},
		{TargetE2ELatency, "e2e_latency", false, false, "latency"},
		{TargetGoodput, "goodput", true, true, "sla"},
		{TargetGoodputPerGPU, "goodput_per_gpu", true, true, "sla"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.target.String(); got != tt.name {
				t.Errorf("String() = %q, want %q", got, tt.name)
			}
			parsed, err := ParseOptimizationTarget(tt.name)
			if err != nil || parsed != tt.target {
				t.Errorf("ParseOptimizationTarget(%q) = %v, %v; want %v", tt.name, parsed, err, tt.target)
			}
			if max, err := tt.target.Maximize(); err != nil || max != tt.maximize {
				t.Errorf("Maximize() = %v, %v; want %v", max, err, tt.maximize)
			}
			if got := tt.target.NeedsSLA(); got != tt.needsSLA {
				t.Errorf("NeedsSLA() = %v, want %v", got, tt.needsSLA)
			}
			if got := tt.target.PlannerOptimizationTarget(); got != tt.planner {
				t.Errorf("PlannerOptimizationTarget() = %q, want %q", got, tt.planner)
			}
			if !tt.target.IsValid() {
				t.Error("IsValid() = false")
			}
		})
	}
}

func TestParetoTargetHasNoScalarDirection(t *testing.T) {
	if _, err := TargetPareto.Maximize(); !errors.Is(err, ErrNoScalarDirection) {
		t.Errorf("Maximize() error = %v, want ErrNoScalarDirection", err)
	}
	if TargetPareto.NeedsSLA() {
		t.Error("pareto NeedsSLA() = true; the goal decides, the target says false")
	}
	if got := TargetPareto.PlannerOptimizationTarget(); got != "throughput" {
		t.Errorf("pareto planner target = %q, want throughput", got)
	}
	if got := TargetPareto.String(); got != "pareto" {
		t.Errorf("String() = %q", got)
	}
}

func TestOutOfRangeTarget(t *testing.T) {
	bad := OptimizationTarget(7)
	if bad.IsValid() {
		t.Error("IsValid() = true for 7")
	}
	if got := bad.String(); got != "OptimizationTarget(7)" {
		t.Errorf("String() = %q, want OptimizationTarget(7)", got)
	}
	if got := OptimizationTarget(255).String(); got != "OptimizationTarget(255)" {
		t.Errorf("String() = %q", got)
	}
	if _, err := bad.MarshalText(); !errors.Is(err, ErrUnknownTarget) {
		t.Errorf("MarshalText error = %v, want ErrUnknownTarget", err)
	}
	if _, err := bad.Maximize(); !errors.Is(err, ErrUnknownTarget) {
		t.Errorf("Maximize error = %v, want ErrUnknownTarget", err)
	}
	if bad.NeedsSLA() {
		t.Error("NeedsSLA() = true for an unknown target")
	}
	if got := bad.PlannerOptimizationTarget(); got != "throughput" {
		t.Errorf("PlannerOptimizationTarget() = %q, want the default throughput", got)
	}
}

func TestParseOptimizationTargetRejectsNearMisses(t *testing.T) {
	for _, s := range []string{"", "Throughput", "THROUGHPUT", " throughput", "throughput ", "latency", "OptimizationTarget(1)", "0"} {
		t.Run(s, func(t *testing.T) {
			_, err := ParseOptimizationTarget(s)
			if !errors.Is(err, ErrUnknownTarget) {
				t.Fatalf("error = %v, want ErrUnknownTarget", err)
			}
			msg := err.Error()
			for _, want := range []string{`"` + s + `"`, "throughput_per_user", "goodput_per_gpu", "pareto"} {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q (the bad value and the valid names)", msg, want)
				}
			}
		})
	}
}

func TestTargetTextRoundTripThroughJSON(t *testing.T) {
	type doc struct {
		T  OptimizationTarget            `json:"t"`
		M  map[OptimizationTarget]string `json:"m"`
		TS []OptimizationTarget          `json:"ts"`
	}
	in := doc{T: TargetE2ELatency, M: map[OptimizationTarget]string{TargetGoodput: "g"}, TS: Targets()}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"t":"e2e_latency","m":{"goodput":"g"},"ts":["throughput","throughput_per_gpu","throughput_per_user","e2e_latency","goodput","goodput_per_gpu","pareto"]}`
	if string(data) != want {
		t.Errorf("encoded %s\nwant    %s", data, want)
	}
	var out doc
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, out); diff != "" {
		t.Errorf("round trip mismatch (-in +out):\n%s", diff)
	}
}

func TestUnmarshalTextLeavesTargetOnError(t *testing.T) {
	target := TargetGoodput
	if err := target.UnmarshalText([]byte("nope")); !errors.Is(err, ErrUnknownTarget) {
		t.Fatalf("error = %v", err)
	}
	if target != TargetGoodput {
		t.Errorf("target changed to %v on error", target)
	}
	if err := json.Unmarshal([]byte(`"goodput_per_gpu"`), &target); err != nil || target != TargetGoodputPerGPU {
		t.Errorf("json.Unmarshal = %v, %v", target, err)
	}
}

func TestZeroGoalIsDefaultThroughputGoal(t *testing.T) {
	var g OptimizationGoal
	if g.Target != TargetThroughput || !g.SLA.IsZero() || g.ParetoObjectives != nil {
		t.Errorf("zero goal = %+v", g)
	}
	if err := g.Validate(); err != nil {
		t.Errorf("zero goal Validate() = %v", err)
	}
}
