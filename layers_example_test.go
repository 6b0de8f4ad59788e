package spica_test

import (
	"fmt"

	"github.com/spica-search/spica"
)

func ExampleNonDominatedSort() {
	// Latency (lower is better) and throughput (higher is better).
	values := []float64{
		10, 100,
		20, 150,
		15, 90, // beaten by row 0 on both
		30, 140, // beaten by row 1 on both
		25, 80, // beaten by row 2, itself in layer 1
	}
	layers, err := spica.NonDominatedSort(values, 2, []bool{false, true})
	if err != nil {
		panic(err)
	}
	fmt.Println(layers)
	// Output: [0 0 1 1 2]
}

func ExampleCrowdingDistance() {
	// A front of four rows. The ends of each column are kept at any cost;
	// the middle rows are scored by the room around them, so a selection
	// that prefers larger distances keeps the front spread out. Row 1 gets
	// (4−1)/(8−1) + (9−4)/(9−1), row 2 gets (8−2)/(8−1) + (5−1)/(9−1).
	values := []float64{
		1, 9,
		2, 5,
		4, 4,
		8, 1,
	}
	dist, err := spica.CrowdingDistance(values, 2)
	if err != nil {
		panic(err)
	}
	for _, d := range dist {
		fmt.Printf("%.4f\n", d)
	}
	// Output:
	// +Inf
	// 1.0536
	// 1.3571
	// +Inf
}
