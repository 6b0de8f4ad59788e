package spica

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// hostileBases are the floats that break arithmetic: the extremes, the
// subnormals, the edge of the normals, the non-finite values, −0, and the
// ordinary values AvgGPU gives a few ulps apart.
var hostileBases = []float64{
	0, math.Copysign(0, -1), 1, -1, 1000, 999.9999999999998, 999.9999999999999,
	math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
	0x1p-1022, -0x1p-1022, 1e308, -1e308, 1e-308, 1e-300, 1e300,
	math.Inf(1), math.Inf(-1), math.NaN(),
}

// hostileFloat draws a hostile base, or one a few ulps beside it, or any
// float64 at all.
var hostileFloat = rapid.Custom(func(t *rapid.T) float64 {
	v := rapid.SampledFrom(hostileBases).Draw(t, "base")
	switch rapid.IntRange(0, 3).Draw(t, "kind") {
	case 1: // a few ulps away, staying finite when the base is
		if isFinite(v) {
			for range rapid.IntRange(1, 4).Draw(t, "ulps") {
				w := math.Nextafter(v, math.Inf(2*rapid.IntRange(0, 1).Draw(t, "up")-1))
				if isFinite(w) {
					v = w
				}
			}
		}
	case 2:
		v = rapid.Float64().Draw(t, "any")
	}
	return v
})

// hostileTargets are the six targets with a value, in a fixed order.
var hostileTargets = []OptimizationTarget{
	TargetThroughput, TargetThroughputPerGPU, TargetThroughputPerUser,
	TargetE2ELatency, TargetGoodput, TargetGoodputPerGPU,
}

// mustBeOurs fails unless err is nil or an *Error wrapping a sentinel: a
// hostile float may be rejected, but only the package's way.
func mustBeOurs(t *rapid.T, call string, err error) {
	var e *Error
	if err != nil && (!errors.As(err, &e) || e.Err == nil) {
		t.Fatalf("%s: error %v is not a *spica.Error with a sentinel", call, err)
	}
}

// TestEveryExportedFunctionReturnsOnHostileFloats is issue 26's property:
// every exported function that takes floats, candidates or matrices returns
// (no hang, no panic) on hostile floats — ±MaxFloat64, subnormals, values a
// few ulps apart, ±Inf, NaN, −0, huge and tiny reference points — over 1 to
// 6 columns, each call under returnsWithin's deadline of a second, so that
// a hang fails in a second instead of stalling CI. The list is `go doc -all
// .`'s; functions of no float (Targets, MetricKeys, ParseOptimizationTarget,
// the target methods, DeepCopy, Error) are left out. Errors must be the
// package's own.
func TestEveryExportedFunctionReturnsOnHostileFloats(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dims := rapid.IntRange(1, 6).Draw(t, "dims")
		n := rapid.IntRange(0, 8).Draw(t, "rows")
		values := make([]float64, n*dims)
		// Half the time the matrix holds only a few hostile values, so
		// that extremes meet each other (an extent of MaxFloat64 − −Max
		// overflows) and ties and near-ties are common.
		palette := rapid.SliceOfN(hostileFloat, 1, 4).Draw(t, "palette")
		fromPalette := rapid.Bool().Draw(t, "from palette")
		for i := range values {
			if fromPalette {
				values[i] = rapid.SampledFrom(palette).Draw(t, "value")
			} else {
				values[i] = hostileFloat.Draw(t, "value")
			}
		}
		maximize := make([]bool, dims)
		for j := range maximize {
			maximize[j] = rapid.Bool().Draw(t, "maximize")
		}
		ref := make([]float64, dims)
		switch rapid.IntRange(0, 3).Draw(t, "ref kind") {
		case 0: // ReferencePoint's own, below
		case 1: // each coordinate hostile
			for j := range ref {
				ref[j] = hostileFloat.Draw(t, "ref")
			}
		case 2: // huge
			for j := range ref {
				ref[j] = math.MaxFloat64
				if maximize[j] {
					ref[j] = -math.MaxFloat64
				}
			}
		case 3: // tiny
			for j := range ref {
				ref[j] = math.SmallestNonzeroFloat64 * float64(1-2*rapid.IntRange(0, 1).Draw(t, "sign"))
			}
		}
		// A quarter of the time, one of the inputs that once never
		// returned (issue 26), so that a regression is caught on every run
		// rather than by luck.
		if rapid.IntRange(0, 3).Draw(t, "known") == 0 {
			kc := rapid.SampledFrom(knownHangs).Draw(t, "known case")
			dims, values, maximize, ref = kc.dims, slices.Clone(kc.values), slices.Clone(kc.maximize), slices.Clone(kc.ref)
			n = len(values) / dims
		}
		k := rapid.IntRange(-1, n+1).Draw(t, "k")
		call := func(name string, f func() error) {
			t.Helper()
			var err error
			what := fmt.Sprintf("%s(values %v, dims %d, maximize %v, ref %v, k %d)", name, values, dims, maximize, ref, k)
			returnsWithin(t, what, func() { err = f() })
			mustBeOurs(t, what, err)
		}
		noErr := func(f func()) func() error { return func() error { f(); return nil } }

		// The matrix functions.
		call("ReferencePoint", func() error {
			r, err := ReferencePoint(values, dims, maximize)
			if err == nil && ref[0] == 0 && len(r) == dims {
				copy(ref, r) // case 0: the automatic reference
			}
			return err
		})
		call("NonDominated", func() error { _, err := NonDominated(values, dims, maximize); return err })
		call("NonDominatedSort", func() error { _, err := NonDominatedSort(values, dims, maximize); return err })
		call("CrowdingDistance", func() error { _, err := CrowdingDistance(values, dims); return err })
		call("Hypervolume", func() error { _, err := Hypervolume(values, dims, maximize, ref); return err })
		call("HypervolumeContributions", func() error { _, err := HypervolumeContributions(values, dims, maximize, ref); return err })
		call("HypervolumeHistory", func() error { _, err := HypervolumeHistory(values, dims, maximize, ref); return err })
		call("HypervolumeSubset", func() error { _, _, err := HypervolumeSubset(values, dims, maximize, ref, k); return err })
		call("SelectN", func() error { _, err := SelectN(values, dims, maximize, k); return err })

		// The same numbers as candidates over the first dims targets.
		objs := hostileTargets[:dims]
		cands := make([]Candidate, n)
		for i := range cands {
			c := Candidate{
				Config:     map[string]any{"i": i},
				UsedGPUs:   rapid.IntRange(-2, 16).Draw(t, "gpus"),
				Score:      hostileFloat.Draw(t, "score"),
				Objectives: map[string]float64{},
			}
			for j, tg := range objs {
				c.Objectives[tg.String()] = values[i*dims+j]
			}
			cands[i] = c
		}
		bounds := []Bound{{Target: objs[0], Value: hostileFloat.Draw(t, "bound")}}
		call("ObjectiveMatrix", func() error { _, _, err := ObjectiveMatrix(cands, objs); return err })
		call("ParetoFront", func() error { _, err := ParetoFront(cands, objs); return err })
		call("ParetoLayers", func() error { _, err := ParetoLayers(cands, objs); return err })
		call("BestSubjectTo", func() error { _, _, err := BestSubjectTo(cands, objs[dims-1], bounds...); return err })
		call("SubjectTo", func() error { _, err := SubjectTo(cands, bounds...); return err })
		call("Rank", noErr(func() { Rank(cands) }))
		if n >= 2 {
			call("Dominates", func() error { _, err := Dominates(cands[0].Objectives, cands[1].Objectives, objs); return err })
		}
		call("ParetoArchive", func() error {
			a, err := NewParetoArchive(objs)
			if err != nil {
				return err
			}
			for _, c := range cands {
				if _, err := a.Add(c); err != nil {
					return err
				}
			}
			a.Front()
			a.Len()
			return nil
		})
		y := TargetE2ELatency
		if dims >= 2 {
			y = objs[1]
		} else if objs[0] == y {
			y = TargetThroughput
		}
		call("FrontSVG", func() error { return FrontSVG(io.Discard, cands, objs[0], y, PlotOptions{}) })
		history := make([]float64, rapid.IntRange(0, 6).Draw(t, "history"))
		for i := range history {
			history[i] = hostileFloat.Draw(t, "hv")
		}
		call("HistorySVG", func() error { return HistorySVG(io.Discard, history, PlotOptions{}) })

		// A report of hostile metrics, and what reads it.
		rep := Report{}
		doc := []byte{'{'}
		for i, key := range metricKeys {
			if rapid.Bool().Draw(t, "has "+key) {
				v := hostileFloat.Draw(t, key)
				rep[key] = v
				if i > 0 {
					doc = append(doc, ',')
				}
				doc = strconv.AppendQuote(doc, key)
				doc = append(doc, ':')
				if name := nonFiniteName(v); name != "" {
					doc = append(doc, name...) // Python's bare token
				} else {
					doc = strconv.AppendFloat(doc, v, 'g', -1, 64)
				}
			} else if i > 0 {
				doc = append(doc, `,"x`+strconv.Itoa(i)+`":null`...)
			} else {
				doc = append(doc, `"x":null`...)
			}
		}
		doc = append(doc, '}')
		goal := OptimizationGoal{Target: rapid.SampledFrom(Targets()).Draw(t, "target"),
			SLA: SLATarget{TTFTMs: hostileFloat.Draw(t, "ttft"), ITLMs: hostileFloat.Draw(t, "itl"), E2EMs: hostileFloat.Draw(t, "e2e")}}
		call("ParseReport", func() error { _, err := ParseReport(doc); return err })
		call("Report.UnmarshalJSON", func() error { var r Report; return r.UnmarshalJSON(doc) })
		call("NormalizeJSON", func() error { _, err := NormalizeJSON(doc); return err })
		call("AvgGPU", noErr(func() { hostileSink = AvgGPU(rep) }))
		call("IsFeasible", noErr(func() { hostileSink = IsFeasible(cands0GPUs(cands), k) }))
		for _, tg := range Targets() {
			call("ObjectiveValue", func() error { _, err := ObjectiveValue(rep, tg); return err })
			call("ScoreReport", func() error { _, err := ScoreReport(rep, tg); return err })
		}
		call("ObjectiveVector", func() error { _, err := ObjectiveVector(rep, objs); return err })
		call("MakeCandidate", func() error { _, err := MakeCandidate(map[string]any{"x": 1}, rep, goal); return err })

		// The goal and SLA methods that read floats, and the candidate
		// codec.
		call("SLATarget methods", noErr(func() {
			hostileSink = []any{goal.SLA.Validate(), goal.SLA.Satisfying(), goal.SLA.IsZero()}
			hostileSink, _ = goal.SLA.MarshalYAML()
		}))
		call("OptimizationGoal.Validate", goal.Validate)
		call("OptimizationGoal.SamplerObjectives", func() error { _, err := goal.SamplerObjectives(); return err })
		call("OptimizationGoal.LogValue", noErr(func() { goal.LogValue().Resolve() }))
		call("OptimizationGoal.MarshalYAML", func() error { _, err := goal.MarshalYAML(); return err })
		for _, c := range cands {
			call("Candidate JSON", func() error {
				data, err := c.MarshalJSON()
				if err != nil {
					return err
				}
				var back Candidate
				return back.UnmarshalJSON(data)
			})
		}
	})
}

// knownHangs are inputs that once never returned: issue 26's
// HypervolumeContributions case (a finite value's extent overflowing, 4
// columns), the same with ReferencePoint's reference, and the three static
// deployments at 1000 tok/s/GPU as AvgGPU gives them (FrontSVG's axis).
var knownHangs = func() []struct {
	values   []float64
	dims     int
	maximize []bool
	ref      []float64
} {
	const maxF = math.MaxFloat64
	type kc = struct {
		values   []float64
		dims     int
		maximize []bool
		ref      []float64
	}
	mat := []float64{-maxF, 0, 0, 0, -maxF, 1, 0, 1}
	min4 := []bool{false, false, false, false}
	auto, _ := ReferencePoint([]float64{-maxF, 0, 0, maxF, -maxF, 1, 0, 1}, 4, min4)
	return []kc{
		{mat, 4, min4, []float64{1e308, 1e308, 1e308, 1e308}},
		{[]float64{-maxF, 0, 0, maxF, -maxF, 1, 0, 1}, 4, min4, auto},
		{[]float64{999.9999999999999, 10, 999.9999999999998, 20, 1000, 30}, 2, []bool{true, true}, []float64{0, 0}},
	}
}()

// hostileSink keeps results of calls made only to see them return.
var hostileSink any

// cands0GPUs is the first candidate's GPU count, or 0.
func cands0GPUs(cands []Candidate) int {
	if len(cands) == 0 {
		return 0
	}
	return cands[0].UsedGPUs
}
