package spicabeam

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/google/go-cmp/cmp"
	"github.com/spica-search/spica"
)

func init() {
	register.Function2x1(appendItems)
	register.Function1x1(oneItem)
}

func appendItems(a, b []Item) []Item { return append(a, b...) }

func oneItem(it Item) []Item { return []Item{it} }

// TestFrontOfFiles runs the file pipeline on a pool of 30000 candidates in
// twelve generated files (one gzipped, with blank and CRLF lines among
// them) and compares the file it writes with spica.ParetoFront of the files
// read in lexical order, line by line.
func TestFrontOfFiles(t *testing.T) {
	const files, perFile, dims = 12, 2500, 3
	objs := poolObjectives[dims]
	dir := t.TempDir()
	var pool []Item // in pool order: files by path, then lines
	for k := range files {
		shard := genShard(7, k, perFile, dims)
		var text bytes.Buffer
		for i, it := range shard {
			switch {
			case i%100 == 3:
				text.WriteString("\n  \n") // blank lines are skipped
			case i%100 == 5:
				text.Write(it.JSON)
				text.WriteString("\r\n") // so is a CR before the newline
				continue
			}
			text.Write(it.JSON)
			text.WriteByte('\n')
		}
		name := filepath.Join(dir, fmt.Sprintf("pool-%02d.jsonl", k))
		data := text.Bytes()
		if k == 5 {
			name += ".gz"
			var z bytes.Buffer
			w := gzip.NewWriter(&z)
			w.Write(data)
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			data = z.Bytes()
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		pool = append(pool, shard...)
	}
	// A file the glob does not match is not part of the pool.
	if err := os.WriteFile(filepath.Join(dir, "other.jsonl"), []byte("not a candidate\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	want := wantFront(t, pool, objs)
	output := filepath.Join(dir, "front.jsonl")
	p, s := beam.NewPipelineWithRoot()
	if err := FrontOfFiles(s, filepath.Join(dir, "pool-*"), output, objs); err != nil {
		t.Fatal(err)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline failed: %v", err)
	}
	got, err := os.ReadFile(output)
	if err != nil {
		t.Fatal(err)
	}
	var wantText strings.Builder
	for _, it := range want {
		wantText.Write(it.JSON)
		wantText.WriteByte('\n')
	}
	if diff := cmp.Diff(strings.Split(wantText.String(), "\n"), strings.Split(string(got), "\n")); diff != "" {
		t.Errorf("front file (-want +got):\n%s", diff)
	}
	t.Logf("pool %d, front %d", len(pool), len(want))
}

// TestReadPoolPlaces checks the places ReadPool gives: each file's path and
// line numbers counted from 1, blank lines counted but not emitted.
func TestReadPoolPlaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.jsonl")
	if err := os.WriteFile(path, []byte("{\"x\":1}\n\n{\"x\":2}\r\n{\"x\":3}"), 0o644); err != nil {
		t.Fatal(err)
	}
	key := t.Name()
	sinks.Delete(key)
	p, s := beam.NewPipelineWithRoot()
	items := ReadPool(s, filepath.Join(dir, "*.jsonl"))
	// Gather the items into one front-shaped element to hand them back.
	beam.ParDo0(s, &sinkFn{Key: key}, beam.Combine(s, appendItems, beam.ParDo(s, oneItem, items)))
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	got, _ := sinks.Load(key)
	outs, _ := got.([][]Item)
	if len(outs) != 1 {
		t.Fatalf("got %d outputs, want 1", len(outs))
	}
	items2 := outs[0]
	slices.SortFunc(items2, func(a, b Item) int { return comparePlace(&a, &b) })
	want := []Item{
		{Source: path, Index: 1, JSON: []byte(`{"x":1}`)},
		{Source: path, Index: 3, JSON: []byte(`{"x":2}`)},
		{Source: path, Index: 4, JSON: []byte(`{"x":3}`)},
	}
	if diff := cmp.Diff(want, items2); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
}

func TestFrontOfFilesBadObjectives(t *testing.T) {
	_, s := beam.NewPipelineWithRoot()
	err := FrontOfFiles(s, "*.jsonl", "front.jsonl", []spica.OptimizationTarget{spica.TargetPareto})
	if err == nil || !strings.Contains(err.Error(), "pareto") {
		t.Fatalf("err = %v, want an error about the objective list", err)
	}
}
