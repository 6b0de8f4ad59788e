package hv

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/spica-search/spica/internal/testkit"
)

// On hvInput's matrices every coordinate is a multiple of 1/2 and small, so
// every sum and product the kernels form is exact: the properties below can
// ask for equal floats, not close ones.

func TestHypervolumeOfTheFrontIsTheVolume(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		values, dims, maximize, ref := hvInput(t, 5, 12, true)
		front := frontOf(values, dims, maximize)
		var rows []float64
		for _, i := range front {
			rows = append(rows, values[i*dims:(i+1)*dims]...)
		}
		all := volumeOf(values, dims, maximize, ref)
		nd := volumeOf(rows, dims, maximize, ref)
		if all != nd {
			t.Fatalf("HV(all rows) = %v, HV(non-dominated rows %v) = %v", all, front, nd)
		}
	})
}

func TestHypervolumeIgnoresADominatedRow(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		values, dims, maximize, ref := hvInput(t, 5, 10, true)
		n := len(values) / dims
		if n == 0 {
			return
		}
		r := rapid.IntRange(0, n-1).Draw(t, "dominator")
		worse := make([]float64, dims)
		strict := rapid.IntRange(0, dims-1).Draw(t, "strict column")
		for j := range dims {
			step := float64(rapid.IntRange(0, 3).Draw(t, "step")) / 2
			if j == strict {
				step++
			}
			if maximize[j] {
				step = -step
			}
			worse[j] = values[r*dims+j] + step // NaN and ±Inf stay as they are
		}
		if !testkit.Dominates(values[r*dims:(r+1)*dims], worse, maximize) {
			return // the dominator held a NaN or an infinity in the strict column
		}
		at := rapid.IntRange(0, n).Draw(t, "at")
		more := append(append(append([]float64{}, values[:at*dims]...), worse...), values[at*dims:]...)
		before := volumeOf(values, dims, maximize, ref)
		after := volumeOf(more, dims, maximize, ref)
		if before != after {
			t.Fatalf("adding %v, dominated by row %d, changed the volume from %v to %v", worse, r, before, after)
		}
	})
}

// Scaling a column and its reference coordinate by 2^k scales every extent
// in that column by 2^k, exactly, and every term of the volume and of each
// share is linear in that column's extents. That is exact while every
// product stays a normal number: below 2^-960 (a term that passed through
// the subnormals, whose extents are all under 200 here) scaling can round,
// so such results are not compared.
func TestHypervolumeScalesExactlyWithAColumn(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dims := rapid.IntRange(1, 5).Draw(t, "dims")
		n := rapid.IntRange(0, 12).Draw(t, "n")
		maximize := rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
		values := rapid.SliceOfN(rapid.Float64Range(-100, 100), n*dims, n*dims).Draw(t, "values")
		ref := rapid.SliceOfN(rapid.Float64Range(-150, 150), dims, dims).Draw(t, "ref")
		c := rapid.IntRange(0, dims-1).Draw(t, "column")
		k := rapid.IntRange(-40, 40).Draw(t, "k")
		scaled, sref := append([]float64{}, values...), append([]float64{}, ref...)
		for i := c; i < len(scaled); i += dims {
			scaled[i] = math.Ldexp(scaled[i], k)
		}
		sref[c] = math.Ldexp(sref[c], k)
		v := volumeOf(values, dims, maximize, ref)
		sv := volumeOf(scaled, dims, maximize, sref)
		// tiny reports a result that may have lost digits to subnormals.
		tiny := func(a, b float64) bool { return min(a, b) < math.Ldexp(1, -960) }
		if math.Ldexp(v, k) != sv && !tiny(v, sv) {
			t.Fatalf("HV %v, with column %d scaled by 2^%d: %v, want %v", v, c, k, sv, math.Ldexp(v, k))
		}
		shares := sharesOf(values, dims, maximize, ref)
		scaledShares := sharesOf(scaled, dims, maximize, sref)
		for i, s := range shares {
			if math.Ldexp(s, k) != scaledShares[i] && !tiny(s, scaledShares[i]) {
				t.Fatalf("row %d: share %v, with column %d scaled by 2^%d: %v", i, s, c, k, scaledShares[i])
			}
		}
	})
}

// TestCrowdedGridsMatchTheOracle draws up to 40 rows on a lattice of five
// values per column, so that rows tie in one or more columns, repeat, and
// hide one another far more often than on the small pools of
// TestHypervolumeMatchesGridOracle: the volume, every row's share and the
// history of the prefixes against the grid oracle, which is exact on
// integers. The column count decides which kernels run, and the row count
// whether the small three-column paths or the sweeps do.
func TestCrowdedGridsMatchTheOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dims := rapid.IntRange(1, 5).Draw(t, "dims")
		checkCrowded(t, dims, []int{0, 40, 40, 40, 16, 10}[dims], 5)
	})
}

// TestContributions3SweepOnTies runs the crowded lattices of three columns
// through the sweeps (contributions3, and hv3 for the volume) with two to
// four values per column, so that most rows tie another in x or y as the
// sweep meets them: the ties its neighbours, rectangles and back rows
// break.
func TestContributions3SweepOnTies(t *testing.T) {
	useContributions3Path(t, 0)
	useHV3Path(t, 0)
	rapid.Check(t, func(t *rapid.T) {
		checkCrowded(t, 3, 30, rapid.IntRange(2, 4).Draw(t, "levels"))
	})
}

// crowdedInput draws up to maxRows rows of dims columns whose values are
// whole numbers below levels, each column in a random direction, with the
// reference point past every row or, one column in five, in the middle of
// the values, where rows lie on the bad side and on the boundary.
func crowdedInput(t *rapid.T, dims, maxRows, levels int) (values []float64, maximize []bool, ref []float64) {
	n := rapid.IntRange(0, maxRows).Draw(t, "n")
	maximize = rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
	ref = make([]float64, dims)
	for j := range ref {
		ref[j] = float64(levels) // every row inside the box, minimized
		if maximize[j] {
			ref[j] = -1
		}
		if rapid.IntRange(0, 4).Draw(t, "tight ref") == 0 {
			ref[j] = float64(levels / 2) // rows on the bad side and on the boundary too
		}
	}
	values = make([]float64, n*dims)
	for i := range values {
		values[i] = float64(rapid.IntRange(0, levels-1).Draw(t, "v"))
	}
	return values, maximize, ref
}

// checkCrowded draws a crowdedInput and checks the volume, every share and
// the prefix history against the grid oracle, exactly.
func checkCrowded(t *rapid.T, dims, maxRows, levels int) {
	values, maximize, ref := crowdedInput(t, dims, maxRows, levels)
	n := len(values) / dims
	total, _ := gridOracle(values, dims, maximize, ref)
	if got := volumeOf(values, dims, maximize, ref); got != total {
		t.Fatalf("Volume = %v, oracle %v", got, total)
	}
	want := oracleContributions(values, dims, maximize, ref)
	if diff := cmp.Diff(want, sharesOf(values, dims, maximize, ref)); diff != "" {
		t.Fatalf("Contributions (-oracle +got):\n%s", diff)
	}
	history := historyOf(values, dims, maximize, ref)
	for i := range n {
		if want := oracleHV(values[:(i+1)*dims], dims, maximize, ref); history[i] != want {
			t.Fatalf("History[%d] = %v, oracle %v", i, history[i], want)
		}
	}
}

// TestContributions3SmallOnTies runs the three-column small path
// (contributions3Small) on lattices with up to twelve values per column and
// up to 200 rows, against the sweep (contributions3), which the crowded
// tests hold to the grid oracle: exact agreement on integers. Fronts grow
// past the sixteen steps at which contrib3Search bisects, and rows still
// tie the steps they meet in x or y.
func TestContributions3SmallOnTies(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		levels := rapid.SampledFrom([]int{3, 5, 12}).Draw(t, "levels")
		values, maximize, ref := crowdedInput(t, 3, 200, levels)
		small := sharesOnPath(1<<30, values, maximize, ref)
		sweep := sharesOnPath(0, values, maximize, ref)
		if diff := cmp.Diff(sweep, small); diff != "" {
			t.Fatalf("contributions3Small (+) against contributions3 (-):\n%s", diff)
		}
	})
}

// TestHistoryWithInfinitiesMatchesGridOracle is the prefix history on the
// pools of hvInput with NaN and ±Inf among the values: a row inside the box
// with an infinite value on its good side makes that prefix and every later
// one +Inf, a NaN or a value on the bad side leaves the row out, and every
// other prefix is measured as the grid oracle measures it.
func TestHistoryWithInfinitiesMatchesGridOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		values, dims, maximize, ref := hvInput(t, 5, 8, true)
		n := len(values) / dims
		history := historyOf(values, dims, maximize, ref)
		for i := range n {
			if want := oracleHV(values[:(i+1)*dims], dims, maximize, ref); !approxEqual(history[i], want) {
				t.Fatalf("History[%d] of %v = %v, oracle %v", i, values, history[i], want)
			}
		}
	})
}
