package spicabeam_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/spica-search/spica"
	spicabeam "github.com/spica-search/spica/beam"
)

// A sweep wrote its candidates as JSON lines in two files; the pipeline
// reads both, computes the front of tokens/s per GPU against tokens/s per
// user (the default pareto objectives) and writes it as JSON lines, along
// the x-axis, tokens/s per user. It runs on prism in this process; the
// -runner flag (with that runner's flags) sends the same pipeline to a
// Flink, Spark or Dataflow cluster.
func ExampleFrontOfFiles() {
	dir, err := os.MkdirTemp("", "spica-sweep")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	files := map[string]string{
		"sweep-1.jsonl": `{"config":{"tp":1},"objectives":{"throughput_per_gpu":900,"throughput_per_user":20}}
{"config":{"tp":2},"objectives":{"throughput_per_gpu":700,"throughput_per_user":45}}
{"config":{"tp":4},"objectives":{"throughput_per_gpu":400,"throughput_per_user":60}}
`,
		"sweep-2.jsonl": `{"config":{"tp":2,"batch":32},"objectives":{"throughput_per_gpu":650,"throughput_per_user":40}}
{"config":{"tp":8},"objectives":{"throughput_per_gpu":150,"throughput_per_user":60}}
{"config":{"tp":4,"batch":32},"objectives":{"throughput_per_gpu":400,"throughput_per_user":60}}
{"config":{"tp":1,"batch":512},"objectives":{"throughput_per_gpu":950,"throughput_per_user":10}}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}

	p, s := beam.NewPipelineWithRoot()
	objectives := spica.DefaultParetoObjectives() // throughput_per_gpu, throughput_per_user
	output := filepath.Join(dir, "front.jsonl")
	if err := spicabeam.FrontOfFiles(s, filepath.Join(dir, "sweep-*.jsonl"), output, objectives); err != nil {
		log.Fatal(err)
	}
	if err := beamx.Run(context.Background(), p); err != nil {
		log.Fatal(err)
	}
	front, err := os.ReadFile(output)
	if err != nil {
		log.Fatal(err)
	}
	// tp=2,batch=32 falls to tp=2 and tp=8 to tp=4; the two tp=4 lines are
	// equal and both kept, in file order.
	fmt.Print(string(front))
	// Output:
	// {"config":{"tp":1,"batch":512},"objectives":{"throughput_per_gpu":950,"throughput_per_user":10}}
	// {"config":{"tp":1},"objectives":{"throughput_per_gpu":900,"throughput_per_user":20}}
	// {"config":{"tp":2},"objectives":{"throughput_per_gpu":700,"throughput_per_user":45}}
	// {"config":{"tp":4},"objectives":{"throughput_per_gpu":400,"throughput_per_user":60}}
	// {"config":{"tp":4,"batch":32},"objectives":{"throughput_per_gpu":400,"throughput_per_user":60}}
}
