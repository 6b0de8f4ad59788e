package spicabeam

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // paths without a scheme
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/spica-search/spica"
)

func init() {
	register.DoFn3x1[context.Context, fileio.ReadableFile, func(Item), error](&readLinesFn{})
	register.Emitter1[Item]()
	register.DoFn2x1[context.Context, []Item, error](&writeLinesFn{})
}

// ReadPool reads a pool of candidates written as JSON lines (one candidate
// per line, as [spica.Candidate.MarshalJSON] writes it) from the files that
// glob matches, and returns a PCollection of [Item], each line at its
// file's path and its line number (from 1), so [ParetoFront] orders ties
// as [spica.ParetoFront] would on the files concatenated in lexical order
// of their paths. Blank lines are skipped; a line is not decoded until the
// front reads it. Files ending in .gz are decompressed.
//
// The glob is in the terms of Beam's file systems: a local path here, and
// gs://, s3:// … on a cluster once the program imports that file system's
// package. Each file is read by one worker, so a pool split into more files
// than workers spreads evenly. O(total size) reading.
func ReadPool(s beam.Scope, glob string) beam.PCollection {
	s = s.Scope("spica.ReadPool")
	files := fileio.ReadMatches(s, fileio.MatchFiles(s, glob))
	return beam.ParDo(s, &readLinesFn{}, files)
}

// readLinesFn emits each non-blank line of a file as an item.
type readLinesFn struct{}

func (*readLinesFn) ProcessElement(ctx context.Context, f fileio.ReadableFile, emit func(Item)) error {
	rc, err := f.Open(ctx)
	if err != nil {
		return err
	}
	defer rc.Close()
	r := bufio.NewReaderSize(rc, 1<<16)
	for line := int64(1); ; line++ {
		b, err := r.ReadBytes('\n')
		b = bytes.TrimSuffix(bytes.TrimSuffix(b, []byte("\n")), []byte("\r"))
		if len(bytes.TrimSpace(b)) > 0 {
			emit(Item{Source: f.Metadata.Path, Index: line, JSON: b})
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("spicabeam: %s:%d: %w", f.Metadata.Path, line, err)
		}
	}
}

// WriteFront writes the front that [ParetoFront] outputs to the file
// filename as JSON lines, one candidate per line in the front's order, each
// the JSON it came with; an empty front writes an empty file. filename is
// in the terms of Beam's file systems, as for [ReadPool]. O(size of the
// front).
func WriteFront(s beam.Scope, filename string, front beam.PCollection) {
	s = s.Scope("spica.WriteFront")
	beam.ParDo0(s, &writeLinesFn{Filename: filename}, front)
}

// writeLinesFn writes one front to one file. The front is a single
// element, so no grouping is needed to write it from one place.
type writeLinesFn struct {
	Filename string `json:"filename"`
}

func (fn *writeLinesFn) ProcessElement(ctx context.Context, front []Item) (err error) {
	fs, err := filesystem.New(ctx, fn.Filename)
	if err != nil {
		return err
	}
	defer fs.Close()
	wc, err := fs.OpenWrite(ctx, fn.Filename)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(wc, 1<<16)
	for i := range front {
		w.Write(front[i].JSON) // a write error sticks and is returned by Flush
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		wc.Close()
		return fmt.Errorf("spicabeam: writing %s: %w", fn.Filename, err)
	}
	return wc.Close()
}

// FrontOfFiles is the whole pipeline of a sweep too big for one machine:
// it reads the pool from the files glob matches ([ReadPool]), computes its
// front over objectives ([ParetoFront]) and writes it to output
// ([WriteFront]). An invalid objective list is returned as an error wrapping
// [spica.ErrInvalidParetoObjectives] before anything is added to s.
func FrontOfFiles(s beam.Scope, glob, output string, objectives []spica.OptimizationTarget) error {
	if _, err := spica.ParetoFront(nil, objectives); err != nil {
		return err
	}
	front, err := TryParetoFront(s, ReadPool(s, glob), objectives)
	if err != nil {
		return err
	}
	WriteFront(s, output, front)
	return nil
}
