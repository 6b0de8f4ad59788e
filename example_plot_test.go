package spica_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spica-search/spica"
)

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
// hypervolume curve beside this file and logs where they are, for a
// newcomer to open in a browser.
func TestExamplePictures(t *testing.T) {
	if err := writeFront("spica-front.svg"); err != nil {
		t.Fatal(err)
	}
	if _, err := writeHistory("spica-history.svg"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"spica-front.svg", "spica-history.svg"} {
		path, err := filepath.Abs(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("open %s in a browser", path)
	}
}

// The front of the example sweep as a picture, written to spica-front.svg
// beside this file (open it in a browser; hover a point for its
// configuration): five points, the front tp8, tp4 and tp2 in red along a
// staircase, tp1 and the autoscaled run grey.
func ExampleFrontSVG() {
	if err := writeFront("spica-front.svg"); err != nil {
		panic(err)
	}
	svg, err := os.ReadFile("spica-front.svg")
	if err != nil {
		panic(err)
	}
	goal := spica.OptimizationGoal{Target: spica.TargetPareto}
	front, err := spica.ParetoFront(candidates(goal), []spica.OptimizationTarget{spica.TargetThroughputPerUser, spica.TargetThroughputPerGPU})
	if err != nil {
		panic(err)
	}
	fmt.Println("wrote spica-front.svg:", strings.Count(string(svg), "<title>"), "points, the front red:")
	for _, c := range front {
		fmt.Println(" ", c.Config["name"])
	}
	// Output:
	// wrote spica-front.svg: 5 points, the front red:
	//   tp8
	//   tp4
	//   tp2
}

// The convergence curve of the example sweep as a picture, written to
// spica-history.svg beside this file: the hypervolume above the automatic
// reference point after each of the five runs (see
// ExampleHypervolumeHistory for the numbers).
func ExampleHistorySVG() {
	history, err := writeHistory("spica-history.svg")
	if err != nil {
		panic(err)
	}
	fmt.Println("wrote spica-history.svg: hypervolume", history[len(history)-1], "after", len(history), "runs")
	// Output:
	// wrote spica-history.svg: hypervolume 21350 after 5 runs
}
