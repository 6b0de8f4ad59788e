package spica

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// deepCopyGoalGen draws goals for the deep-copy tests, including what
// validation rejects (out-of-range targets, NaN bounds), since DeepCopy must
// copy any value, and both a nil and a non-nil empty objective list.
func deepCopyGoalGen() *rapid.Generator[OptimizationGoal] {
	target := rapid.Custom(func(t *rapid.T) OptimizationTarget {
		return OptimizationTarget(rapid.IntRange(-1, len(targetTable)).Draw(t, "target"))
	})
	bound := rapid.SampledFrom([]float64{0, 1, 50, 2.5e3, -1, math.NaN(), math.Inf(1)})
	return rapid.Custom(func(t *rapid.T) OptimizationGoal {
		g := OptimizationGoal{
			Target: target.Draw(t, "target"),
			SLA:    SLATarget{bound.Draw(t, "ttft"), bound.Draw(t, "itl"), bound.Draw(t, "e2e")},
		}
		switch rapid.IntRange(0, 2).Draw(t, "objectives") {
		case 1:
			g.ParetoObjectives = []OptimizationTarget{}
		case 2:
			g.ParetoObjectives = rapid.SliceOfN(target, 1, 5).Draw(t, "list")
		}
		return g
	})
}

// cloneByHand is the oracle for DeepCopy: a copy written field by field,
// keeping nil apart from empty.
func cloneByHand(g OptimizationGoal) OptimizationGoal {
	c := OptimizationGoal{Target: g.Target, SLA: SLATarget{g.SLA.TTFTMs, g.SLA.ITLMs, g.SLA.E2EMs}}
	if g.ParetoObjectives != nil {
		c.ParetoObjectives = append([]OptimizationTarget{}, g.ParetoObjectives...)
	}
	return c
}

// goalsEqual compares goals with NaN equal to NaN and nil apart from empty,
// the two distinctions a deep copy must keep.
func goalsEqual(a, b OptimizationGoal) string {
	return cmp.Diff(a, b, cmp.Comparer(func(x, y float64) bool {
		return x == y || (math.IsNaN(x) && math.IsNaN(y))
	}), cmp.Comparer(func(x, y []OptimizationTarget) bool {
		return (x == nil) == (y == nil) && cmp.Equal(x, y)
	}))
}

// TestGoalDeepCopyIsDeep mutates every field of a copy, and every element
// of its objective list, and checks that the original is unchanged; the
// copy must equal the original before, nil or empty list included.
func TestGoalDeepCopyIsDeep(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := deepCopyGoalGen().Draw(t, "goal")
		want := cloneByHand(g)

		c := g.DeepCopy()
		if d := goalsEqual(want, *c); d != "" {
			t.Fatalf("DeepCopy differs from the original (-want +got):\n%s", d)
		}
		var into OptimizationGoal
		g.DeepCopyInto(&into)
		if d := goalsEqual(want, into); d != "" {
			t.Fatalf("DeepCopyInto differs from the original (-want +got):\n%s", d)
		}

		// Every field changes: ^ flips every bit of a target, so each
		// element differs from the original's whatever was drawn (a
		// constant would not: the generator draws every value from -1 to
		// TargetPareto+1), and the bound generator never draws 7, 8 or 9.
		c.Target = ^c.Target
		c.SLA.TTFTMs, c.SLA.ITLMs, c.SLA.E2EMs = 7, 8, 9
		for i := range c.ParetoObjectives {
			c.ParetoObjectives[i] = ^c.ParetoObjectives[i]
		}
		c.ParetoObjectives = append(c.ParetoObjectives, TargetGoodput)
		if d := goalsEqual(want, g); d != "" {
			t.Fatalf("mutating the copy changed the original (-before +after):\n%s", d)
		}

		// SLATarget's own copy, every field changed.
		sla := g.SLA.DeepCopy()
		var slaInto SLATarget
		g.SLA.DeepCopyInto(&slaInto)
		if d := goalsEqual(OptimizationGoal{SLA: want.SLA}, OptimizationGoal{SLA: *sla}); d != "" {
			t.Fatalf("SLATarget.DeepCopy differs from the original (-want +got):\n%s", d)
		}
		if d := goalsEqual(OptimizationGoal{SLA: want.SLA}, OptimizationGoal{SLA: slaInto}); d != "" {
			t.Fatalf("SLATarget.DeepCopyInto differs from the original (-want +got):\n%s", d)
		}
		sla.TTFTMs, sla.ITLMs, sla.E2EMs = 7, 8, 9
		slaInto.TTFTMs, slaInto.ITLMs, slaInto.E2EMs = 7, 8, 9
		if d := goalsEqual(want, g); d != "" {
			t.Fatalf("mutating a copy of the SLA changed the original (-before +after):\n%s", d)
		}
		// Within capacity, an append to the copy's list would write into
		// the original's array if they shared one.
		if len(g.ParetoObjectives) > 0 {
			in := g.DeepCopy()
			in.ParetoObjectives = in.ParetoObjectives[:len(in.ParetoObjectives)-1]
			_ = append(in.ParetoObjectives, TargetPareto+2)
			if d := goalsEqual(want, g); d != "" {
				t.Fatalf("appending to the copy changed the original (-before +after):\n%s", d)
			}
		}
	})
}

func TestDeepCopyOfNil(t *testing.T) {
	if (*OptimizationGoal)(nil).DeepCopy() != nil {
		t.Error("(*OptimizationGoal)(nil).DeepCopy() != nil")
	}
	if (*SLATarget)(nil).DeepCopy() != nil {
		t.Error("(*SLATarget)(nil).DeepCopy() != nil")
	}
}

// TestDeepCopyKeepsEmptyListRejected: a copy of a goal whose explicit empty
// list validation rejects is rejected too, not turned into the default pair.
func TestDeepCopyKeepsEmptyListRejected(t *testing.T) {
	g := OptimizationGoal{Target: TargetPareto, ParetoObjectives: []OptimizationTarget{}}
	c := g.DeepCopy()
	if c.ParetoObjectives == nil {
		t.Fatal("DeepCopy turned an empty objective list into nil")
	}
	if err := c.Validate(); err == nil {
		t.Errorf("copy of %+v validates; want the error of the original, %v", g, g.Validate())
	}
}
