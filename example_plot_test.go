package spica_test

import (
	"fmt"
	"os"

	"github.com/spica-search/spica"
)

// The front of the example sweep as a picture: tokens/s per GPU against
// tokens/s per user, written to spica-front.svg beside this file (open it
// in a browser; hover a point for its configuration). tp2, tp4 and tp8 are
// the front, tp1 and the autoscaled run the grey dominated points.
func ExampleFrontSVG() {
	goal := spica.OptimizationGoal{Target: spica.TargetPareto}
	cands := candidates(goal)
	f, err := os.Create("spica-front.svg")
	if err != nil {
		panic(err)
	}
	err = spica.FrontSVG(f, cands, spica.TargetThroughputPerUser, spica.TargetThroughputPerGPU, spica.PlotOptions{
		Title: "Example sweep: tokens/s per GPU against tokens/s per user",
		Label: func(c spica.Candidate) string {
			return fmt.Sprintf("%s (%d GPUs): %.0f tok/s/gpu at %.0f tok/s/user", c.Config["name"], c.UsedGPUs,
				c.Objectives["throughput_per_gpu"], c.Objectives["throughput_per_user"])
		},
	})
	if err := f.Close(); err != nil {
		panic(err)
	}
	if err != nil {
		panic(err)
	}
	fmt.Println("wrote spica-front.svg: 5 candidates, 3 on the front")
	// Output:
	// wrote spica-front.svg: 5 candidates, 3 on the front
}

// The convergence curve of the example sweep as a picture, written to
// spica-history.svg beside this file: the hypervolume above the automatic
// reference point after each of the five runs (see
// ExampleHypervolumeHistory for the numbers).
func ExampleHistorySVG() {
	goal := spica.OptimizationGoal{Target: spica.TargetPareto}
	values, maximize, err := spica.ObjectiveMatrix(candidates(goal), goal.ResolvedParetoObjectives())
	if err != nil {
		panic(err)
	}
	ref, err := spica.ReferencePoint(values, 2, maximize)
	if err != nil {
		panic(err)
	}
	history, err := spica.HypervolumeHistory(values, 2, maximize, ref)
	if err != nil {
		panic(err)
	}
	f, err := os.Create("spica-history.svg")
	if err != nil {
		panic(err)
	}
	err = spica.HistorySVG(f, history, spica.PlotOptions{Title: "Example sweep: hypervolume after each run"})
	if err := f.Close(); err != nil {
		panic(err)
	}
	if err != nil {
		panic(err)
	}
	fmt.Println("wrote spica-history.svg: hypervolume", history[len(history)-1], "after", len(history), "runs")
	// Output:
	// wrote spica-history.svg: hypervolume 21350 after 5 runs
}
