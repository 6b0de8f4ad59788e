package spica

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spica-search/spica/internal/testkit"
)

// benchSizes names row counts the way the benchmark names print them.
var benchSizes = []struct {
	name string
	n    int
}{{"1e3", 1e3}, {"1e4", 1e4}, {"1e5", 1e5}, {"1e6", 1e6}}

// ndBenchMax is the largest n benchmarked per shape and width: beyond it a
// single call takes seconds and says nothing the smaller sizes do not.
func ndBenchMax(shape string, d int) int {
	if shape != "uniform" && d >= 4 {
		return 1e5
	}
	return 1e6
}

// BenchmarkNonDominated times NonDominated with every column minimized;
// compare with BenchmarkSortFloat64 of the same n in the same run.
func BenchmarkNonDominated(b *testing.B) {
	benchShapes(b, ndBenchMax, func(b *testing.B, shape string, d, n int) {
		values := testkit.Matrix(shape, n, d)
		maximize := make([]bool, d)
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			if _, err := NonDominated(values, d, maximize); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchShapes runs bench as sub-benchmarks shape=S/d=D/n=N over every shape,
// d in 2..4 and benchSizes up to maxN(shape, d).
func benchShapes(b *testing.B, maxN func(shape string, d int) int, bench func(b *testing.B, shape string, d, n int)) {
	for _, shape := range []string{"uniform", "line", "sphere"} {
		for _, d := range []int{2, 3, 4} {
			for _, size := range benchSizes {
				if size.n > maxN(shape, d) {
					continue
				}
				b.Run(fmt.Sprintf("shape=%s/d=%d/n=%s", shape, d, size.name), func(b *testing.B) {
					bench(b, shape, d, size.n)
				})
			}
		}
	}
}

// BenchmarkNonDominatedBrute times the O(n²) definition the engine replaced,
// for scale.
func BenchmarkNonDominatedBrute(b *testing.B) {
	for _, shape := range []string{"uniform", "sphere"} {
		for _, d := range []int{2, 3, 4} {
			for _, size := range benchSizes[:2] {
				b.Run(fmt.Sprintf("shape=%s/d=%d/n=%s", shape, d, size.name), func(b *testing.B) {
					values := testkit.Matrix(shape, size.n, d)
					maximize := make([]bool, d)
					b.ReportAllocs()
					b.ResetTimer()
					for b.Loop() {
						testkit.Front(values, d, maximize)
					}
				})
			}
		}
	}
}

// BenchmarkSortFloat64 is the yardstick: slices.Sort of n random float64.
// Each iteration sorts a fresh copy, and the copy is timed with it, since
// stopping the timer per iteration costs more than the copy at small n;
// BenchmarkCopyFloat64 times the copy alone so it can be subtracted.
func BenchmarkSortFloat64(b *testing.B) { benchFreshCopies(b, slices.Sort[[]float64]) }

// BenchmarkCopyFloat64 is the copy that BenchmarkSortFloat64 includes.
func BenchmarkCopyFloat64(b *testing.B) { benchFreshCopies(b, func([]float64) {}) }

// benchFreshCopies times op on a fresh copy of n random float64.
func benchFreshCopies(b *testing.B, op func([]float64)) {
	for _, size := range benchSizes {
		b.Run("n="+size.name, func(b *testing.B) {
			src := testkit.Matrix("uniform", size.n, 1)
			buf := make([]float64, size.n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				copy(buf, src)
				op(buf)
			}
		})
	}
}

// benchCandidates wraps the rows of testkit.Matrix as candidates of a pareto
// goal over the first d of benchObjectives (all maximized), as MakeCandidate
// would build them.
func benchCandidates(shape string, n, d int) []Candidate {
	values := testkit.Matrix(shape, n, d)
	cands := make([]Candidate, n)
	for r := range cands {
		obj := make(map[string]float64, d)
		for c, t := range benchObjectives[:d] {
			obj[t.String()] = values[r*d+c]
		}
		cands[r] = Candidate{UsedGPUs: r % 8, Objectives: obj}
	}
	return cands
}

var benchObjectives = []OptimizationTarget{TargetThroughputPerGPU, TargetThroughputPerUser, TargetGoodput, TargetThroughput}

// pfBenchMax caps ParetoFront's pools: a million candidates with their maps
// take long to build and say little more than NonDominated's own 1e6 runs,
// except for two objectives, the usual serving frontier.
func pfBenchMax(shape string, d int) int {
	if d == 2 {
		return ndBenchMax(shape, d)
	}
	return 1e5
}

// BenchmarkParetoFront times ParetoFront on candidates; its baseline in the
// same run is BenchmarkParetoFrontBaseline, which reads the same values out
// of the candidates' maps and calls NonDominated.
func BenchmarkParetoFront(b *testing.B) {
	benchFrontPools(b, func(b *testing.B, cands []Candidate, objs []OptimizationTarget) {
		if _, err := ParetoFront(cands, objs); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkParetoFrontBaseline is the floor under ParetoFront: one read of
// every value out of its map into a matrix, then the engine.
func BenchmarkParetoFrontBaseline(b *testing.B) {
	benchFrontPools(b, func(b *testing.B, cands []Candidate, objs []OptimizationTarget) {
		readAndFront(b, cands, objs)
	})
}

// BenchmarkParetoFrontBaselineOutput is BenchmarkParetoFrontBaseline plus
// the one thing ParetoFront cannot skip: a new []Candidate holding the front,
// here filled in the cheapest order, the pool's. When the front is the whole
// pool this output is as costly as the engine itself (a 40-byte candidate per
// row, zeroed on allocation, then written under the garbage collector's
// write barrier), so ParetoFront's ratio to this floor shows what ordering
// the front along the x-axis costs.
func BenchmarkParetoFrontBaselineOutput(b *testing.B) {
	benchFrontPools(b, func(b *testing.B, cands []Candidate, objs []OptimizationTarget) {
		rows := readAndFront(b, cands, objs)
		front := make([]Candidate, len(rows))
		for i, r := range rows {
			front[i] = cands[r]
		}
		frontSink = front
	})
}

// frontSink keeps the compiler from discarding a benchmark's front.
var frontSink []Candidate

// readAndFront reads the values of objs out of every candidate's map into a
// matrix and returns NonDominated's rows, every objective maximized.
func readAndFront(b *testing.B, cands []Candidate, objs []OptimizationTarget) []int {
	names := make([]string, len(objs))
	for i, t := range objs {
		names[i] = t.String()
	}
	values := make([]float64, 0, len(cands)*len(objs))
	for _, c := range cands {
		for _, name := range names {
			values = append(values, c.Objectives[name])
		}
	}
	maximize := make([]bool, len(objs))
	for i := range maximize {
		maximize[i] = true
	}
	rows, err := NonDominated(values, len(objs), maximize)
	if err != nil {
		b.Fatal(err)
	}
	return rows
}

func benchFrontPools(b *testing.B, run func(*testing.B, []Candidate, []OptimizationTarget)) {
	benchShapes(b, pfBenchMax, func(b *testing.B, shape string, d, n int) {
		cands := benchCandidates(shape, n, d)
		objs := benchObjectives[:d]
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			run(b, cands, objs)
		}
	})
}

func BenchmarkNonDominatedSort(b *testing.B) {
	for _, dims := range []int{2, 3} {
		maximize := make([]bool, dims)
		for _, size := range benchSizes[:3] {
			values := testkit.Matrix("uniform", size.n, dims)
			b.Run(fmt.Sprintf("shape=uniform/d=%d/n=%s", dims, size.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := NonDominatedSort(values, dims, maximize); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkCrowdingDistance(b *testing.B) {
	const dims = 2
	for _, size := range benchSizes[1:3] {
		values := testkit.Matrix("uniform", size.n, dims)
		b.Run(fmt.Sprintf("n=%s/d=%d", size.name, dims), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := CrowdingDistance(values, dims); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// hvBenchSizes are the fronts BenchmarkHypervolume times: every row on the
// front (minimized, reference point 1 in every column), so no row is
// skipped cheaply.
var hvBenchSizes = []struct {
	shape string
	d     int
	sizes []int
}{{"line", 2, []int{1e3, 1e5, 1e6}}, {"sphere", 3, []int{1e3, 1e4, 1e5}}, {"sphere", 4, []int{1e3, 1e4}}}

// hvContribSizes are the fronts BenchmarkHypervolumeContributions times.
var hvContribSizes = []struct {
	shape string
	d     int
	sizes []int
}{{"line", 2, []int{1e5}}, {"sphere", 3, []int{1e4, 1e5}}, {"sphere", 4, []int{1e3}}}

// BenchmarkHypervolume times Hypervolume; compare with BenchmarkSortFloat64
// of the same n in the same run.
func BenchmarkHypervolume(b *testing.B) {
	for _, c := range hvBenchSizes {
		benchFront(b, c.shape, c.d, c.sizes, func(values []float64, maximize []bool, ref []float64) error {
			_, err := Hypervolume(values, c.d, maximize, ref)
			return err
		})
	}
}

// BenchmarkHypervolumeContributions times HypervolumeContributions.
func BenchmarkHypervolumeContributions(b *testing.B) {
	for _, c := range hvContribSizes {
		benchFront(b, c.shape, c.d, c.sizes, func(values []float64, maximize []bool, ref []float64) error {
			_, err := HypervolumeContributions(values, c.d, maximize, ref)
			return err
		})
	}
}

func benchFront(b *testing.B, shape string, d int, sizes []int, f func(values []float64, maximize []bool, ref []float64) error) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("shape=%s/d=%d/n=1e%d", shape, d, int(math.Round(math.Log10(float64(n))))), func(b *testing.B) {
			values := testkit.Matrix(shape, n, d)
			maximize, ref := make([]bool, d), slices.Repeat([]float64{1}, d)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := f(values, maximize, ref); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParetoArchiveAdd times adding n candidates one at a time to an
// archive over two objectives, on uniform data (small front) and on a line
// (every candidate stays).
func BenchmarkParetoArchiveAdd(b *testing.B) {
	for _, shape := range []string{"uniform", "line"} {
		for _, size := range benchSizes[:2] {
			b.Run(fmt.Sprintf("shape=%s/d=2/n=%s", shape, size.name), func(b *testing.B) {
				cands := benchCandidates(shape, size.n, 2)
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					a, err := NewParetoArchive(benchObjectives[:2])
					if err != nil {
						b.Fatal(err)
					}
					for _, c := range cands {
						if _, err := a.Add(c); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}

// benchAgainstHypervolume times f beside one Hypervolume of the same rows,
// as sub-benchmarks name/f=fName and name/f=hypervolume, and in a third,
// name/f=ratio, alternates the two within each iteration and reports f's
// time over Hypervolume's, a ratio that holds on a machine whose load
// drifts.
func benchAgainstHypervolume(b *testing.B, name, fName string, f func() error, values []float64, dims int, maximize []bool, ref []float64) {
	hv := func() error {
		_, err := Hypervolume(values, dims, maximize, ref)
		return err
	}
	for _, run := range []struct {
		name string
		f    func() error
	}{{fName, f}, {"hypervolume", hv}} {
		b.Run(name+"/f="+run.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := run.f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run(name+"/f=ratio", func(b *testing.B) {
		var tf, thv time.Duration
		for b.Loop() {
			t0 := time.Now()
			if err := f(); err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			if err := hv(); err != nil {
				b.Fatal(err)
			}
			tf, thv = tf+t1.Sub(t0), thv+time.Since(t1)
		}
		b.ReportMetric(float64(tf)/float64(thv), strings.SplitN(fName, "/", 2)[0]+"/hypervolume")
	})
}
