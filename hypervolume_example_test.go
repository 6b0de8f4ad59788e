package spica_test

import (
	"fmt"

	"github.com/spica-search/spica"
)

// Latency (minimized) against throughput (maximized), measured from the
// worst acceptable point, 100 ms at 10 tokens/s. The third row is dominated
// by the second and adds nothing.
var latencyThroughput = []float64{
	20, 30,
	50, 60,
	60, 40,
}

func ExampleHypervolume() {
	hv, err := spica.Hypervolume(latencyThroughput, 2, []bool{false, true}, []float64{100, 10})
	fmt.Println(hv, err)
	// Output: 3100 <nil>
}

func ExampleHypervolumeContributions() {
	// Removing the second row would uncover part of the third, so the second
	// loses less than the area only the first two rows separate.
	c, err := spica.HypervolumeContributions(latencyThroughput, 2, []bool{false, true}, []float64{100, 10})
	fmt.Println(c, err)
	// Output: [600 1100 0] <nil>
}
