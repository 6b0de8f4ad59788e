package spicabeam

import (
	"encoding/json"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/spica-search/spica"
)

// BenchmarkParetoFront1e6 times the front of one pool of 1e6 candidates on
// 2 objectives three ways, in one run so the ratios can be compared:
//
//   - pipeline: the pool made as JSON in 16 shards by a pipeline on the
//     local runner, its front computed by ParetoFront and handed back;
//   - library: spica.ParetoFront on the decoded pool in this process;
//   - decode+library: decoding the pool's JSON, then spica.ParetoFront,
//     the in-process twin of what the pipeline does.
//
// The pool is that of the tests (a large front with exact ties and NaN).
func BenchmarkParetoFront1e6(b *testing.B) {
	const shards, perShard, dims = 16, 62500, 2
	const seed = 11
	objs := poolObjectives[dims]
	pool := genPool(seed, shards, perShard, dims)
	cands, err := Candidates(pool)
	if err != nil {
		b.Fatal(err)
	}
	want, err := spica.ParetoFront(cands, objs)
	if err != nil {
		b.Fatal(err)
	}

	b.Run("pipeline", func(b *testing.B) {
		for b.Loop() {
			key := b.Name()
			sinks.Delete(key)
			p, s := beam.NewPipelineWithRoot()
			front := ParetoFront(s, shardedPool(s, seed, shards, perShard, dims), objs)
			beam.ParDo0(s, &sinkFn{Key: key}, front)
			if err := ptest.Run(p); err != nil {
				b.Fatal(err)
			}
			got, _ := sinks.Load(key)
			if outs, _ := got.([][]Item); len(outs) != 1 || len(outs[0]) != len(want) {
				b.Fatalf("pipeline front differs in size from the library's %d", len(want))
			}
		}
	})
	b.Run("library", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := spica.ParetoFront(cands, objs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode+library", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			decoded := make([]spica.Candidate, len(pool))
			for i := range pool {
				if err := json.Unmarshal(pool[i].JSON, &decoded[i]); err != nil {
					b.Fatal(err)
				}
			}
			if _, err := spica.ParetoFront(decoded, objs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Logf("pool %d, front %d", len(pool), len(want))
}
