package spicabeam

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spica-search/spica"
	"pgregory.net/rapid"
)

// rapidObjectives are the objective lists the property tests draw from:
// the first d of them, directions mixed from d = 2 on.
var rapidObjectives = []spica.OptimizationTarget{
	spica.TargetThroughputPerUser, spica.TargetE2ELatency, spica.TargetThroughput, spica.TargetGoodput,
}

// TestFrontFnMergesExactly drives the CombineFn as a runner would, without
// one: the pool is split into parts at random, each part added to its own
// accumulator in a random order, every accumulator sent through its coder,
// and the accumulators merged in a random order. The extracted front must
// be spica.ParetoFront of the pool in pool order, JSON for JSON. Values
// come from {0, 1, 2, 3, NaN}, so ties and equal vectors abound.
func TestFrontFnMergesExactly(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dims := rapid.IntRange(1, 4).Draw(t, "dims")
		objs := rapidObjectives[:dims]
		n := rapid.IntRange(0, 60).Draw(t, "n")
		pool := make([]Item, n)
		for i := range pool {
			obj := map[string]float64{}
			for _, o := range objs {
				v := float64(rapid.IntRange(0, 4).Draw(t, "v"))
				if v == 4 {
					v = math.NaN()
				}
				obj[o.String()] = v
			}
			b, err := spica.Candidate{Config: map[string]any{"i": i}, Objectives: obj}.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			// Places sort as i does: sources first, then indices.
			pool[i] = Item{Source: fmt.Sprintf("s%02d", i/7), Index: int64(i % 7), JSON: b}
		}
		parts := rapid.IntRange(1, 6).Draw(t, "parts")
		order := rapid.Permutation(seq(n)).Draw(t, "arrival")
		fn := &frontFn{Objectives: objs}
		accs := make([]*frontAcc, parts)
		for k := range accs {
			accs[k] = fn.CreateAccumulator()
		}
		for _, i := range order {
			k := rapid.IntRange(0, parts-1).Draw(t, "part")
			var err error
			if accs[k], err = fn.AddInput(accs[k], pool[i]); err != nil {
				t.Fatal(err)
			}
		}
		for k, a := range accs {
			b, err := encodeFrontAcc(a)
			if err != nil {
				t.Fatal(err)
			}
			if accs[k], err = decodeFrontAcc(b); err != nil {
				t.Fatal(err)
			}
		}
		for len(accs) > 1 {
			i := rapid.IntRange(0, len(accs)-1).Draw(t, "merge into")
			j := rapid.IntRange(0, len(accs)-2).Draw(t, "merge from")
			if j >= i {
				j++
			}
			merged, err := fn.MergeAccumulators(accs[i], accs[j])
			if err != nil {
				t.Fatal(err)
			}
			accs[i] = merged
			accs = slices.Delete(accs, j, j+1)
		}
		got, err := fn.ExtractOutput(accs[0])
		if err != nil {
			t.Fatal(err)
		}
		want := wantFront(t, pool, objs)
		if diff := cmp.Diff(jsonLines(want), jsonLines(got)); diff != "" {
			t.Fatalf("front (-want +got):\n%s", diff)
		}
	})
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func jsonLines(items []Item) []string {
	out := make([]string, len(items))
	for i := range items {
		out[i] = string(items[i].JSON)
	}
	return out
}

// TestFrontFnSettles adds 20000 candidates to one accumulator, so the
// batch is folded into the front many times, and checks the front against
// spica.ParetoFront.
func TestFrontFnSettles(t *testing.T) {
	objs := poolObjectives[2]
	pool := genShard(3, 0, 20000, 2)
	fn := &frontFn{Objectives: objs}
	a := fn.CreateAccumulator()
	for i := len(pool) - 1; i >= 0; i-- { // arrival order reversed
		var err error
		if a, err = fn.AddInput(a, pool[i]); err != nil {
			t.Fatal(err)
		}
		if len(a.entries) > 2*max(a.settled, minBatch) {
			t.Fatalf("after %d adds the accumulator holds %d entries over a front of %d", len(pool)-i, len(a.entries), a.settled)
		}
	}
	got, err := fn.ExtractOutput(a)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(jsonLines(wantFront(t, pool, objs)), jsonLines(got)); diff != "" {
		t.Fatalf("front (-want +got):\n%s", diff)
	}
}

// FuzzDecodeFrontAcc feeds the accumulator decoder arbitrary bytes: it must
// not panic, and what it accepts must encode to bytes it decodes to the
// same entries.
func FuzzDecodeFrontAcc(f *testing.F) {
	fn := &frontFn{Objectives: poolObjectives[2]}
	a := fn.CreateAccumulator()
	for _, it := range genShard(1, 0, 3, 2) {
		a, _ = fn.AddInput(a, it)
	}
	seed, _ := encodeFrontAcc(a)
	f.Add(seed)
	f.Add([]byte{})
	f.Add([]byte{0, 0})
	f.Add([]byte{0, 1, 0, 0, 2, '{', '}'})
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := decodeFrontAcc(b)
		if err != nil {
			return
		}
		again, err := encodeFrontAcc(a)
		if err != nil {
			t.Fatal(err)
		}
		b2, err := decodeFrontAcc(again)
		if err != nil {
			t.Fatalf("re-encoded accumulator does not decode: %v", err)
		}
		if b2.settled != a.settled || len(b2.entries) != len(a.entries) {
			t.Fatalf("round trip changed the shape: %d/%d, then %d/%d", a.settled, len(a.entries), b2.settled, len(b2.entries))
		}
		for i := range a.entries {
			x, y := &a.entries[i].item, &b2.entries[i].item
			if x.Source != y.Source || x.Index != y.Index || !bytes.Equal(x.JSON, y.JSON) {
				t.Fatalf("entry %d changed: %+v, then %+v", i, *x, *y)
			}
		}
	})
}
