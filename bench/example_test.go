package bench_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spica-search/spica"
	"github.com/spica-search/spica/bench"
)

// frontPicture is the name of the SVG ExampleReadFiles draws.
const frontPicture = "vllm-tp-front.svg"

// createPicture creates the picture file name in dir (the package
// directory, the working directory of `go test`, for the Example) when it
// can, else in os.TempDir(), and returns the open file.
func createPicture(dir, name string) (*os.File, error) {
	f, err := os.Create(filepath.Join(dir, name))
	if err == nil {
		return f, nil
	}
	f, err2 := os.Create(filepath.Join(os.TempDir(), name))
	if err2 != nil {
		return nil, errors.Join(err, err2)
	}
	return f, nil
}

// writeFrontSVG draws the candidates, tokens/s per GPU against tokens/s
// per user, into the file name (see createPicture) and returns the path
// it wrote.
func writeFrontSVG(name string, cands []spica.Candidate) (string, error) {
	f, err := createPicture(".", name)
	if err != nil {
		return "", err
	}
	err = spica.FrontSVG(f, cands, spica.TargetThroughputPerUser, spica.TargetThroughputPerGPU, spica.PlotOptions{
		Title: "vLLM sweep: tokens/s per GPU against tokens/s per user",
		Label: func(c spica.Candidate) string {
			return fmt.Sprintf("%s: %.0f tok/s/gpu at %.0f tok/s/user", label(c),
				c.Objectives["throughput_per_gpu"], c.Objectives["throughput_per_user"])
		},
	})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return f.Name(), err
}

// label names a candidate by its GPU count and the concurrency vLLM wrote
// (max_concurrency, a float64 in Meta as JSON numbers are).
func label(c spica.Candidate) string {
	return fmt.Sprintf("tp%d c%v", c.UsedGPUs, c.Config["max_concurrency"])
}

// A folder of `vllm bench serve --save-result` files, one subfolder per
// tensor-parallel size (one replica of TP size tp holds tp GPUs), each
// with a run at concurrency 16 and one at 64: the tokens/s-per-GPU against
// tokens/s-per-user front, and its picture.
//
// vLLM writes no GPU count, so the caller says it: Options.GPUs for each
// subfolder. vLLM writes no per-user rate either (these files hold no
// per-request arrays), so it is 1000 / mean_tpot_ms; per GPU is
// output_throughput / GPUs. By hand, from the files:
//
//	tp1 c16: 1600 tok/s / 1 = 1600 tok/s/gpu, 1000 / 8.00 ms = 125 tok/s/user
//	tp1 c64: every request failed (completed 0): throughput 0 tok/s/gpu, no
//	         per-user key, which a maximized target reads as 0
//	tp2 c16: 2048 / 2 = 1024,                 1000 / 6.25 = 160
//	tp2 c64: 5120 / 2 = 2560,                 1000 / 10.0 = 100
//	tp4 c16: 2560 / 4 =  640,                 1000 / 5.00 = 200
//	tp4 c64: 8192 / 4 = 2048,                 1000 / 8.00 = 125
//
// tp4 c64 (2048, 125) dominates tp1 c16 (1600, 125): as fast per user,
// more per GPU. Every other point but the failed run is on the front,
// which is sorted by its last objective (tokens/s per user) ascending.
func ExampleReadFiles() {
	goal := spica.OptimizationGoal{Target: spica.TargetPareto} // tokens/s per GPU, tokens/s per user
	var cands []spica.Candidate
	for _, tp := range []int{1, 2, 4} {
		pattern := fmt.Sprintf("testdata/vllm-tp/tp%d/*.json", tp)
		runs, err := bench.ReadFiles(pattern, bench.Options{GPUs: tp}) // the tool is detected
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, run := range runs {
			if run.Report["completed_requests"] == 0 {
				fmt.Printf("%s: 0 of %v requests completed\n", filepath.ToSlash(run.Source), run.Report["num_requests"])
			}
			c, err := spica.MakeCandidate(run.Meta, run.Report, goal)
			if err != nil {
				fmt.Println(err)
				return
			}
			cands = append(cands, c)
		}
	}
	front, err := spica.ParetoFront(cands, goal.ResolvedParetoObjectives())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(cands), "runs; the front, tokens/s per GPU at tokens/s per user:")
	for _, c := range front {
		fmt.Printf("  %-8s %6.1f tok/s/gpu at %5.1f tok/s/user\n", label(c),
			c.Objectives["throughput_per_gpu"], c.Objectives["throughput_per_user"])
	}
	// The picture goes beside this file, or into os.TempDir() when the
	// package directory is read-only; only its name is printed, so the
	// output is the same wherever it lands.
	path, err := writeFrontSVG(frontPicture, cands)
	if err != nil {
		fmt.Println("no picture:", err)
	} else {
		fmt.Println("wrote", filepath.Base(path))
	}
	// Output:
	// testdata/vllm-tp/tp1/c64.json: 0 of 400 requests completed
	// 6 runs; the front, tokens/s per GPU at tokens/s per user:
	//   tp2 c64  2560.0 tok/s/gpu at 100.0 tok/s/user
	//   tp4 c64  2048.0 tok/s/gpu at 125.0 tok/s/user
	//   tp2 c16  1024.0 tok/s/gpu at 160.0 tok/s/user
	//   tp4 c16   640.0 tok/s/gpu at 200.0 tok/s/user
	// wrote vllm-tp-front.svg
}
