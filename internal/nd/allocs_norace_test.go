//go:build !race

package nd

import (
	"testing"

	"github.com/spica-search/spica/internal/testkit"
)

// TestFrontAllocatesItsResultOnly holds a warm Front call that runs the
// general engine on a pool of at most marksPoolRows rows to one
// allocation, its result: six uniform columns of 1000 rows on which the
// sort-filter gives up (stream 9 of the benchmarks' generator), and of
// 4096 rows, past what the sort-filter takes. (The race detector's
// sync.Pool drops some of what it is given, hence the build tag.)
func TestFrontAllocatesItsResultOnly(t *testing.T) {
	for _, tt := range []struct {
		n      int
		stream uint64
	}{{1000, 9}, {marksPoolRows, 0}} {
		values := testkit.Stream("uniform", tt.n, 6, tt.stream)
		maximize := make([]bool, 6)
		call := func() { _ = Front(values, tt.n, 6, maximize) }
		call()
		if got := testing.AllocsPerRun(5, call); got != 1 {
			t.Errorf("n=%d stream %d: %v allocations a call, want 1", tt.n, tt.stream, got)
		}
	}
}
