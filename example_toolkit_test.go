package spica_test

import (
	"fmt"

	"github.com/spica-search/spica"
)

// sweepMatrix is the example sweep in evaluation order (tp1, tp2, tp4, tp8,
// autoscaled) as a matrix of tok/s/gpu and tok/s/user, both maximized.
func sweepMatrix() (values []float64, maximize []bool) {
	goal := spica.OptimizationGoal{Target: spica.TargetPareto}
	values, maximize, err := spica.ObjectiveMatrix(candidates(goal), goal.ResolvedParetoObjectives())
	if err != nil {
		panic(err)
	}
	return values, maximize
}

// The front of the sweep is tp2 (1500, 45), tp4 (1200, 80) and tp8 (800,
// 95). tok/s/gpu spans 800..1500 on it, so the reference point sits 70
// below 800; tok/s/user spans 45..95, so 5 below 45.
func ExampleReferencePoint() {
	values, maximize := sweepMatrix()
	ref, err := spica.ReferencePoint(values, 2, maximize)
	if err != nil {
		panic(err)
	}
	fmt.Println(ref)
	// Output:
	// [730 40]
}

// The convergence curve of the sweep against the reference point (730, 40).
// tp1's box is 470×20 = 9400; tp2 adds (770−470)×5 = 1500; tp4 covers tp1
// and adds 470×(40−20) = 9400; tp8 adds 70×(55−40) = 1050; the autoscaled
// run (40 tok/s/user) is not above the reference point and adds nothing.
func ExampleHypervolumeHistory() {
	values, maximize := sweepMatrix()
	history, err := spica.HypervolumeHistory(values, 2, maximize, []float64{730, 40})
	if err != nil {
		panic(err)
	}
	fmt.Println(history)
	// Output:
	// [9400 10900 20300 21350 21350]
}

// The best two configurations of the sweep by NSGA-II survival: the front
// (tp2, tp4, tp8) does not fit, so its two ends, whose crowding distance is
// infinite, beat tp4 in the middle.
func ExampleSelectN() {
	values, maximize := sweepMatrix()
	best, err := spica.SelectN(values, 2, maximize, 2)
	if err != nil {
		panic(err)
	}
	fmt.Println(best) // rows 1 and 3: tp2 and tp8
	// Output:
	// [1 3]
}

// The two configurations that cover the most of the trade-off above (730,
// 40): tp4 and tp2 together cover 470×40 + (770−470)×5 = 20300, more than
// tp8 with tp4 (70×55 + 400×40 = 19850) or with tp2 (3850 + 700×5 = 7350).
// Unlike SelectN, which spreads out, this keeps the middle of the front.
func ExampleHypervolumeSubset() {
	values, maximize := sweepMatrix()
	rows, volume, err := spica.HypervolumeSubset(values, 2, maximize, []float64{730, 40}, 2)
	if err != nil {
		panic(err)
	}
	fmt.Println(rows, volume) // rows 1 and 2: tp2 and tp4
	// Output:
	// [1 2] 20300
}
