package spica_test

import (
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spica-search/spica"
)

// pictureDir says where the example pictures go: the package directory dir
// when writable(dir) says a file can be made there, so that a newcomer
// running the README's command finds them beside the code, else
// os.TempDir(), so that `go test all` from a read-only module cache neither
// fails nor panics (issue 26, defect 5).
func pictureDir(dir string, writable func(string) bool) string {
	if writable(dir) {
		return dir
	}
	return os.TempDir()
}

// dirWritable reports whether a file can be created in dir, by creating
// and removing one. It asks the file system rather than reading the mode
// bits, which root ignores.
func dirWritable(dir string) bool {
	f, err := os.CreateTemp(dir, ".spica-probe-*")
	if err != nil {
		return false
	}
	name := f.Name()
	f.Close()
	return os.Remove(name) == nil
}

// picturePath is where the picture name is written: in the package
// directory (the tests' working directory) when it is writable, else in
// os.TempDir(); the path is absolute, for a newcomer to open.
func picturePath(name string) string {
	path, err := filepath.Abs(filepath.Join(pictureDir(".", dirWritable), name))
	if err != nil {
		return filepath.Join(os.TempDir(), name)
	}
	return path
}

// writeFront draws the example sweep's front, tokens/s per GPU against
// tokens/s per user, to the file name, a tooltip on each point naming its
// configuration.
func writeFront(name string) error {
	goal := spica.OptimizationGoal{Target: spica.TargetPareto}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	err = spica.FrontSVG(f, candidates(goal), spica.TargetThroughputPerUser, spica.TargetThroughputPerGPU, spica.PlotOptions{
		Title: "Example sweep: tokens/s per GPU against tokens/s per user",
		Label: func(c spica.Candidate) string {
			return fmt.Sprintf("%s (%d GPUs): %.0f tok/s/gpu at %.0f tok/s/user", c.Config["name"], c.UsedGPUs,
				c.Objectives["throughput_per_gpu"], c.Objectives["throughput_per_user"])
		},
	})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeHistory draws the example sweep's hypervolume after each run, above
// the automatic reference point, to the file name and returns the curve.
func writeHistory(name string) ([]float64, error) {
	goal := spica.OptimizationGoal{Target: spica.TargetPareto}
	values, maximize, err := spica.ObjectiveMatrix(candidates(goal), goal.ResolvedParetoObjectives())
	if err != nil {
		return nil, err
	}
	ref, err := spica.ReferencePoint(values, 2, maximize)
	if err != nil {
		return nil, err
	}
	history, err := spica.HypervolumeHistory(values, 2, maximize, ref)
	if err != nil {
		return nil, err
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	err = spica.HistorySVG(f, history, spica.PlotOptions{Title: "Example sweep: hypervolume after each run"})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return history, err
}

// TestExamplePictures is part of the README's first command
// (`go test -run Example -v .`): it draws the example sweep's front and
// hypervolume curve beside this file, or in os.TempDir() when the package
// directory is not writable, and prints where they are, for a newcomer to
// open in a browser.
func TestExamplePictures(t *testing.T) {
	front, history := picturePath("spica-front.svg"), picturePath("spica-history.svg")
	if err := writeFront(front); err != nil {
		t.Fatal(err)
	}
	if _, err := writeHistory(history); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{front, history} {
		if _, err := os.Stat(path); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("open %s in a browser\n", path)
	}
}

// TestPictureDir is the rule of issue 26's defect 5: the package directory
// when it is writable, os.TempDir() when not, decided by the writability
// check it is given, so that the rule is tested as root too (root writes
// into a 0555 directory anyway).
func TestPictureDir(t *testing.T) {
	dir := t.TempDir()
	if got := pictureDir(dir, func(string) bool { return true }); got != dir {
		t.Errorf("writable: %q, want %q", got, dir)
	}
	if got := pictureDir(dir, func(string) bool { return false }); got != os.TempDir() {
		t.Errorf("not writable: %q, want os.TempDir() %q", got, os.TempDir())
	}
	var asked string
	pictureDir(dir, func(d string) bool { asked = d; return true })
	if asked != dir {
		t.Errorf("asked about %q, want %q", asked, dir)
	}
}

// TestDirWritable checks the real check against the file system: a
// writable directory, a missing one, and a 0555 one, which root can still
// write into, so there the answer must be what creating a file there
// actually does; the probe leaves nothing behind.
func TestDirWritable(t *testing.T) {
	dir := t.TempDir()
	if !dirWritable(dir) {
		t.Errorf("dirWritable(%q) = false for a fresh temp dir", dir)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("the probe left %v behind", left)
	}
	if dirWritable(filepath.Join(dir, "missing")) {
		t.Error("dirWritable of a missing directory = true")
	}
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(ro, 0o755) })
	got := dirWritable(ro)
	err := os.WriteFile(filepath.Join(ro, "x"), nil, 0o644)
	if got != (err == nil) {
		t.Errorf("dirWritable(0555 dir) = %v, but creating a file there gave %v", got, err)
	}
	if os.Getuid() != 0 && got {
		t.Errorf("dirWritable(0555 dir) = true for uid %d", os.Getuid())
	}
}

// svgPoint is a point of a picture in SVG coordinates.
type svgPoint struct{ x, y string }

// readFrontSVG reads back what FrontSVG drew: the tooltips of the front's
// and the dominated points, the front's points in drawing order, and the
// staircase's vertices.
func readFrontSVG(r io.Reader) (front, dominated []string, frontAt, stairs []svgPoint, err error) {
	d := xml.NewDecoder(r)
	group := ""
	var at svgPoint
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return front, dominated, frontAt, stairs, nil
		}
		if err != nil {
			return nil, nil, nil, nil, err
		}
		e, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		get := func(name string) string {
			for _, a := range e.Attr {
				if a.Name.Local == name {
					return a.Value
				}
			}
			return ""
		}
		switch e.Name.Local {
		case "g":
			group = get("class")
		case "polyline":
			if get("stroke") == "#c0392b" { // the front's colour
				for _, xy := range strings.Fields(get("points")) {
					x, y, _ := strings.Cut(xy, ",")
					stairs = append(stairs, svgPoint{x, y})
				}
			}
		case "circle":
			at = svgPoint{get("cx"), get("cy")}
		case "title":
			var title string
			if err := d.DecodeElement(&title, &e); err != nil {
				return nil, nil, nil, nil, err
			}
			name, _, _ := strings.Cut(title, " (")
			switch group {
			case "front":
				front = append(front, name)
				frontAt = append(frontAt, at)
			case "dominated":
				dominated = append(dominated, name)
			}
		}
	}
}

// checkStaircase says whether stairs runs through the front's points in
// order, each pair joined at the corner with the earlier point's x and the
// later one's y: for two maximized targets, the corner below and left of
// the step, which both points dominate.
func checkStaircase(frontAt, stairs []svgPoint) error {
	if len(stairs) != 2*len(frontAt)-1 {
		return fmt.Errorf("%d vertices for %d front points", len(stairs), len(frontAt))
	}
	for k, p := range frontAt {
		if stairs[2*k] != p {
			return fmt.Errorf("vertex %d is %v, want front point %v", 2*k, stairs[2*k], p)
		}
		if k > 0 {
			if want := (svgPoint{frontAt[k-1].x, p.y}); stairs[2*k-1] != want {
				return fmt.Errorf("corner %d is %v, want %v", k, stairs[2*k-1], want)
			}
		}
	}
	return nil
}

// The front of the example sweep as a picture, written to spica-front.svg
// beside this file (or in os.TempDir() when this directory is not
// writable; TestExamplePictures prints the full path). Open it in a
// browser and hover a point for its configuration. Read back from the
// file: of the five points, tp8, tp4 and tp2 are the front, drawn red and
// joined by a staircase, tp1 and the autoscaled run grey, as
// ExampleParetoFront works out by hand.
func ExampleFrontSVG() {
	path := picturePath("spica-front.svg")
	if err := writeFront(path); err != nil {
		fmt.Println(err)
		return
	}
	f, err := os.Open(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	front, dominated, frontAt, stairs, err := readFrontSVG(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("wrote", filepath.Base(path))
	fmt.Println("front, red:", front)
	fmt.Println("dominated, grey:", dominated)
	if err := checkStaircase(frontAt, stairs); err != nil {
		fmt.Println("staircase:", err)
		return
	}
	fmt.Println("staircase:", len(stairs), "vertices, through every front point and the corner of each step")
	// Output:
	// wrote spica-front.svg
	// front, red: [tp2 tp4 tp8]
	// dominated, grey: [tp1 autoscaled]
	// staircase: 5 vertices, through every front point and the corner of each step
}

// The convergence curve of the example sweep as a picture, written to
// spica-history.svg beside this file (or in os.TempDir(), as for
// ExampleFrontSVG): the hypervolume above the automatic reference point
// after each of the five runs (see ExampleHypervolumeHistory for the
// numbers).
func ExampleHistorySVG() {
	path := picturePath("spica-history.svg")
	history, err := writeHistory(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("wrote", filepath.Base(path)+": hypervolume", history[len(history)-1], "after", len(history), "runs")
	// Output:
	// wrote spica-history.svg: hypervolume 21350 after 5 runs
}
