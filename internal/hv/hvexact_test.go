package hv

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"pgregory.net/rapid"
)

// The oracles here compute in exact rational arithmetic (math/big), from the
// raw values and the reference point, so that accuracy claims are checked
// against the true volume rather than against another float computation.

// rat is the exact value of a finite float64.
func rat(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }

// oriented maps a value to the direction where larger is better; negation is
// exact, so no rounding happens here.
func oriented(v float64, maximize bool) float64 {
	if maximize {
		return v
	}
	return -v
}

// exactExclusive is the exact volume each row covers alone; see exactGrid.
func exactExclusive(values []float64, dims int, maximize []bool, ref []float64) []*big.Rat {
	_, excl := exactGrid(values, dims, maximize, ref)
	return excl
}

// exactGrid is the grid oracle of gridOracle in rational arithmetic: the
// exact volume covered by any row and by each row alone. Values must be
// finite.
func exactGrid(values []float64, dims int, maximize []bool, ref []float64) (*big.Rat, []*big.Rat) {
	n := len(values) / dims
	w := make([]float64, len(values))
	for i, v := range values {
		w[i] = oriented(v, maximize[i%dims])
	}
	o := make([]float64, dims)
	for j := range dims {
		o[j] = oriented(ref[j], maximize[j])
	}
	var rows []int
	for i := range n {
		in := true
		for j := range dims {
			in = in && w[i*dims+j] > o[j]
		}
		if in {
			rows = append(rows, i)
		}
	}
	edges := make([][]float64, dims)
	for j := range dims {
		e := []float64{o[j]}
		for _, i := range rows {
			e = append(e, w[i*dims+j])
		}
		sort.Float64s(e)
		edges[j] = slices.Compact(e)
	}
	// Every value is an integer times 2^-k for one k, so the cells' volumes
	// and their sums are integers times 2^-(k·dims): summing big integers
	// skips the GCD a big.Rat pays on every step.
	k := 0
	for _, e := range edges {
		for _, v := range e {
			if v != 0 {
				_, exp := math.Frexp(v)
				k = max(k, 53-exp)
			}
		}
	}
	scaled := func(v float64) *big.Int {
		f := new(big.Float).SetFloat64(v)
		i, _ := f.SetMantExp(f, k).Int(nil)
		return i
	}
	widths := make([][]*big.Int, dims)
	for j, e := range edges {
		for i := 1; i < len(e); i++ {
			widths[j] = append(widths[j], new(big.Int).Sub(scaled(e[i]), scaled(e[i-1])))
		}
	}
	sum, sums := new(big.Int), make([]*big.Int, n)
	for i := range sums {
		sums[i] = new(big.Int)
	}
	unit := new(big.Int).Lsh(big.NewInt(1), uint(k*dims))
	result := func() (*big.Rat, []*big.Rat) {
		out := make([]*big.Rat, n)
		for i := range out {
			out[i] = new(big.Rat).SetFrac(sums[i], unit)
		}
		return new(big.Rat).SetFrac(sum, unit), out
	}
	if len(rows) == 0 {
		return result()
	}
	cell := make([]int, dims)
	vol := new(big.Int)
	for {
		covering, who := 0, -1
		for _, i := range rows {
			in := true
			for j := range dims {
				in = in && w[i*dims+j] >= edges[j][cell[j]+1]
			}
			if in {
				covering++
				who = i
			}
		}
		if covering > 0 {
			vol.SetInt64(1)
			for j := range dims {
				vol.Mul(vol, widths[j][cell[j]])
			}
			sum.Add(sum, vol)
			if covering == 1 {
				sums[who].Add(sums[who], vol)
			}
		}
		j := 0
		for ; j < dims; j++ {
			cell[j]++
			if cell[j] < len(edges[j])-1 {
				break
			}
			cell[j] = 0
		}
		if j == dims {
			return result()
		}
	}
}

// exactContributions2 is the exact exclusive area of each row of a
// two-column matrix of finite values, straight from the definition: at
// abscissa a the other rows cover up to H(a) = max{y_q : q ≠ f, x_q ≥ a}, so
// row f alone covers max(0, y_f − H(a)) there. Walking left from x_f, H
// only grows, and the walk stops once it reaches y_f; on data without long
// dominated runs that is a few steps per row.
func exactContributions2(values []float64, maximize []bool, ref []float64) []*big.Rat {
	n := len(values) / 2
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i], y[i] = oriented(values[2*i], maximize[0]), oriented(values[2*i+1], maximize[1])
	}
	o0, o1 := oriented(ref[0], maximize[0]), oriented(ref[1], maximize[1])
	order := make([]int, n) // by x descending
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(x[b], x[a]) })
	// above[k] is the largest y among order[:k]; second-best tracking is
	// not needed because rows of equal x are handled apart below.
	above := make([]float64, n+1)
	above[0] = math.Inf(-1)
	for k, i := range order {
		above[k+1] = max(above[k], y[i])
	}
	out := make([]*big.Rat, n)
	for k, f := range order {
		out[f] = new(big.Rat)
		if !(x[f] > o0 && y[f] > o1) {
			continue
		}
		// The rows with x ≥ x_f other than f: those before k, and those
		// after k that tie in x.
		h := max(above[k], o1)
		e := k + 1
		for ; e < n && x[order[e]] == x[f]; e++ {
			h = max(h, y[order[e]])
		}
		right := x[f]
		for ; h < y[f]; e++ {
			left := o0
			if e < n {
				left = max(o0, x[order[e]])
			}
			if left < right {
				strip := new(big.Rat).Sub(rat(right), rat(left))
				out[f].Add(out[f], strip.Mul(strip, new(big.Rat).Sub(rat(y[f]), rat(h))))
				right = left
			}
			if e >= n || left == o0 {
				break
			}
			h = max(h, y[order[e]])
		}
	}
	return out
}

// relErr is |got − want| / want, with 0 for equal values and +Inf for a
// non-zero got against an exact 0.
func relErr(got float64, want *big.Rat) float64 {
	if math.IsInf(got, 0) || math.IsNaN(got) {
		return math.Inf(1)
	}
	d := new(big.Rat).Sub(rat(got), want)
	if d.Sign() == 0 {
		return 0
	}
	if want.Sign() == 0 {
		return math.Inf(1)
	}
	d.Quo(d.Abs(d), new(big.Rat).Abs(want))
	f, _ := d.Float64()
	return f
}

// worstRelErr checks every share against the exact one and reports the
// worst relative error and its row.
func worstRelErr(got []float64, want []*big.Rat) (float64, int) {
	worst, at := 0.0, -1
	for i, w := range want {
		if e := relErr(got[i], w); e > worst || at < 0 {
			worst, at = e, i
		}
	}
	return worst, at
}

// circleOrLine draws n points on a quarter circle or a line in [0,1]², both
// minimized, at uniform random positions, so that neighbours are often far
// closer than their distance from the reference point: the data on which
// gaps taken as differences of rounded extents lose their digits.
func circleOrLine(rng *rand.Rand, n int, circle bool) []float64 {
	values := make([]float64, 2*n)
	for i := range n {
		u := rng.Float64()
		if circle {
			values[2*i], values[2*i+1] = 1-math.Cos(u*math.Pi/2), 1-math.Sin(u*math.Pi/2)
		} else {
			values[2*i], values[2*i+1] = u, 1-u
		}
	}
	return values
}

func TestHypervolumeContributions2IsExactToAFewULPs(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	minimize := []bool{false, false}
	for _, tc := range []struct {
		name     string
		values   []float64
		maximize []bool
		ref      []float64
	}{
		{"circle n=1e4", circleOrLine(rng, 10000, true), minimize, []float64{1.1, 1.1}},
		{"line n=1e4", circleOrLine(rng, 10000, false), minimize, []float64{1.1, 1.1}},
		{"line far from the reference n=1e4", circleOrLine(rng, 10000, false), minimize, []float64{1e3, 1e3}},
		{"uniform n=1e4", func() []float64 {
			v := make([]float64, 2*10000)
			for i := range v {
				v[i] = rng.Float64()
			}
			return v
		}(), []bool{true, false}, []float64{-0.1, 1.1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := sharesOf(tc.values, 2, tc.maximize, tc.ref)
			if worst, at := worstRelErr(got, exactContributions2(tc.values, tc.maximize, tc.ref)); worst > 1e-12 {
				t.Errorf("row %d (%v): relative error %.3g, want ≤ 1e-12", at, tc.values[2*at:2*at+2], worst)
			}
		})
	}
}

// TestExactContributions2MatchesGrid checks the two-column exact oracle
// against the grid one on small sets full of ties.
func TestExactContributions2MatchesGrid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 9).Draw(t, "n")
		values := rapid.SliceOfN(rapid.SampledFrom([]float64{0, 0.5, 1, 2, 3, 4}), 2*n, 2*n).Draw(t, "values")
		maximize := rapid.SliceOfN(rapid.Bool(), 2, 2).Draw(t, "maximize")
		ref := []float64{3.5, 3.5}
		for j, up := range maximize {
			if up {
				ref[j] = 0.25
			}
		}
		a := exactContributions2(values, maximize, ref)
		b := exactExclusive(values, 2, maximize, ref)
		for i := range a {
			if a[i].Cmp(b[i]) != 0 {
				t.Fatalf("row %d: sweep %v, grid %v", i, a[i], b[i])
			}
		}
	})
}

// TestHypervolumeContributionsAccuracyInMoreColumns checks every share of
// points near a sphere against the exact grid oracle, with the reference
// point near the data and far from it, where a share is a tiny part of its
// row's box: 1 column within 1e-12 relative, 3 within 1e-10, 4 and 5 within
// 1e-9.
func TestHypervolumeContributionsAccuracyInMoreColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, tc := range []struct {
		dims, n, sets int
		tol           float64
	}{{1, 40, 20, 1e-12}, {3, 14, 20, 1e-10}, {4, 8, 20, 1e-9}, {5, 6, 10, 1e-9}} {
		for _, far := range []float64{0.1, 1e3, 1e6} {
			t.Run(fmt.Sprintf("d=%d/ref=%g", tc.dims, far), func(t *testing.T) {
				for range tc.sets {
					maximize := make([]bool, tc.dims)
					ref := make([]float64, tc.dims)
					for j := range maximize {
						maximize[j] = rng.IntN(2) == 0
						ref[j] = 1 + far
						if maximize[j] {
							ref[j] = -far
						}
					}
					values := make([]float64, tc.n*tc.dims)
					for i := range tc.n {
						row := values[i*tc.dims : (i+1)*tc.dims]
						s := 0.0
						for j := range row {
							row[j] = rng.NormFloat64()
							s += row[j] * row[j]
						}
						for j := range row {
							v := math.Abs(row[j]) / math.Sqrt(s)
							if maximize[j] {
								v = 1 - v
							}
							row[j] = v
						}
					}
					got := sharesOf(values, tc.dims, maximize, ref)
					if worst, at := worstRelErr(got, exactExclusive(values, tc.dims, maximize, ref)); worst > tc.tol {
						t.Fatalf("row %d of %v (maximize %v, ref %v): relative error %.3g, want ≤ %g", at, values, maximize, ref, worst, tc.tol)
					}
				}
			})
		}
	}
}

// TestHypervolumeStaysFiniteWhenTheVolumeFits is defect 3 of issue 9: an
// extent beyond MaxFloat64 between two finite numbers, or a partial product
// beyond it, made volumes that fit in a float64 +Inf.
func TestHypervolumeStaysFiniteWhenTheVolumeFits(t *testing.T) {
	const huge, tiny = math.MaxFloat64, 1e-300
	up := func(d int) []bool { return slices.Repeat([]bool{true}, d) }
	for _, tc := range []struct {
		name     string
		values   []float64
		maximize []bool
		ref      []float64
	}{
		{"1e200·1e200·1e-300", []float64{1e200, 1e200, tiny}, up(3), []float64{0, 0, 0}},
		{"1e200·1e200·1e-300 minimized", []float64{-1e200, -1e200, -tiny}, make([]bool, 3), []float64{0, 0, 0}},
		{"1e200·1e200·1e-300·3 in four columns", []float64{1e200, 1e200, tiny, 3}, up(4), []float64{0, 0, 0, 0}},
		{"an extent of 2·MaxFloat64 times 1e-300", []float64{huge, tiny}, up(2), []float64{-huge, 0}},
		{"an extent of 2·MaxFloat64 minimized", []float64{-huge, tiny}, []bool{false, true}, []float64{huge, 0}},
		{"an extent of 2·MaxFloat64 in three columns", []float64{huge, tiny, 0.5}, up(3), []float64{-huge, 0, 0}},
		{"a staircase of huge areas over thin slabs", []float64{
			1e200, 1e200, tiny,
			1e100, 3e200, 2 * tiny,
			2e200, 1e150, 3 * tiny,
			5e199, 5e199, 0.5 * tiny,
		}, up(3), []float64{0, 0, 0}},
		{"huge rows in four columns", []float64{
			1e200, 1e200, tiny, 1,
			1e100, 3e200, 2 * tiny, 2,
			2e200, 1e150, 3 * tiny, 0.5,
		}, up(4), []float64{0, 0, 0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dims := len(tc.ref)
			exact, _ := exactGrid(tc.values, dims, tc.maximize, tc.ref)
			want, _ := exact.Float64()
			got := volumeOf(tc.values, dims, tc.maximize, tc.ref)
			if relErr(got, exact) > 1e-14 {
				t.Errorf("Hypervolume = %v; want %v", got, want)
			}
		})
	}
}

// TestScaledMeasuresByHand holds Volume, Contributions and History to
// numbers worked out by hand on rows whose columns span more magnitudes
// than one power-of-two scale per column can hold (a partial product
// overflows, and scaling the column of MaxFloat64 down pushes the other
// rows' values into the subnormals; or a partial product underflows and
// later factors multiply what is left): where once the answer was +Inf, or
// 0, or had a few digits right.
func TestScaledMeasuresByHand(t *testing.T) {
	const huge, least = math.MaxFloat64, math.SmallestNonzeroFloat64
	up := func(d int) []bool { return slices.Repeat([]bool{true}, d) }
	// 2·MaxFloat64·2^-1074 = (2 − 2^-52)·2^-50, exactly 2^-49 − 2^-102.
	thin := math.Ldexp(1, -49) - math.Ldexp(1, -102)
	for _, tc := range []struct {
		name     string
		values   []float64
		maximize []bool
		ref      []float64
		volume   float64
		shares   []float64
	}{{
		// Boxes 1e100 and 1e-300·1e-300·1e300 = 1e-300 (rounded), meeting
		// in 1e-900: the second adds nothing a float64 can show.
		name:     "1e200·1e200·1e-300 beside 1e-300·1e-300·1e300",
		values:   []float64{1e200, 1e200, 1e-300, 1e-300, 1e-300, 1e300},
		maximize: up(3), ref: []float64{0, 0, 0},
		volume: 1e200 * 1e200 * 1e-300,
		shares: []float64{1e200 * 1e200 * 1e-300, 1e-300 * 1e-300 * 1e300},
	}, {
		// A is 2 × MaxFloat64 × 2^-1074, B is 1 × 1 × 1.5, they share
		// 1 × 1 × 2^-1074: A keeps thin − 2^-1074 (thin, rounded), B keeps
		// 1.5 − 2^-1074 (1.5), and the whole is 1.5 + thin.
		name:     "MaxFloat64 beside the least subnormal, three columns",
		values:   []float64{2, huge, least, 1, 1, 1.5},
		maximize: up(3), ref: []float64{0, 0, 0},
		volume: 1.5 + thin,
		shares: []float64{thin, 1.5},
	}, {
		name:     "the same, minimized, with a fourth column of 1s",
		values:   []float64{-2, -huge, -least, -1, -1, -1, -1.5, -1},
		maximize: make([]bool, 4), ref: []float64{0, 0, 0, 0},
		volume: 1.5 + thin,
		shares: []float64{thin, 1.5},
	}, {
		// Found by TestHypervolumeIsNeverNaN: rows on the reference point
		// or NaN keep 0; A's extents are 2, 1, MaxFloat64, 2^-1074 (its
		// box thin), B's 2, 0.5, w, 1.96875, and they share 2·0.5·w·2^-1074,
		// under 2^-1000: A keeps thin, B its box, and the whole is B's box
		// (thin is below half its ulp).
		name:     "the seed: a share of +Inf beside a finite volume",
		values:   []float64{1, 1, 1, 1, 1, math.NaN(), math.NaN(), math.NaN(), 1, least, huge, least, 1, 0.5, 2.9983279256315206e+20, 1.96875},
		maximize: []bool{true, false, true, true}, ref: []float64{-1, 1, 0, 0},
		volume: 2 * 0.5 * 2.9983279256315206e+20 * 1.96875,
		shares: []float64{0, 0, thin, 2 * 0.5 * 2.9983279256315206e+20 * 1.96875},
	}, {
		// 2^-500·2^-600 is 0 in a float64, so a box taken in that order
		// is lost. A is 2^-500·2^-600·2^1000 = 2^-100, B 2^-501·2^-599·2^999
		// = 2^-101, and they share 2^-501·2^-600·2^999 = 2^-102.
		name:     "a first product below the subnormals, three columns",
		values:   []float64{0x1p-500, 0x1p-600, 0x1p1000, 0x1p-501, 0x1p-599, 0x1p999},
		maximize: up(3), ref: []float64{0, 0, 0},
		volume: 0x1p-100 + 0x1p-101 - 0x1p-102,
		shares: []float64{0x1p-100 - 0x1p-102, 0x1p-101 - 0x1p-102},
	}, {
		name:     "extents 1e-300, 1e-300, 1e300, 1e300",
		values:   []float64{1e-300, 1e-300, 1e300, 1e300},
		maximize: up(4), ref: []float64{0, 0, 0, 0},
		volume: 1e-300 * 1e-300 * 1e300 * 1e300,
		shares: []float64{1e-300 * 1e-300 * 1e300 * 1e300},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			dims := len(tc.ref)
			// Within a few ulps: the kernels round more often than the
			// constant above, computed exactly and rounded once.
			fewULPs := func(a, b float64) bool { return math.Abs(a-b) <= 0x1p-50*b }
			if got := volumeOf(tc.values, dims, tc.maximize, tc.ref); !fewULPs(got, tc.volume) {
				t.Errorf("Volume = %v; want %v", got, tc.volume)
			}
			if got := sharesOf(tc.values, dims, tc.maximize, tc.ref); !slices.EqualFunc(got, tc.shares, fewULPs) {
				t.Errorf("Contributions = %v; want %v", got, tc.shares)
			}
			if got := historyOf(tc.values, dims, tc.maximize, tc.ref); !fewULPs(got[len(got)-1], tc.volume) {
				t.Errorf("History = %v; want it to end at %v", got, tc.volume)
			}
		})
	}
}

// hostileValue draws a coordinate from every magnitude a float64 has: 0 and
// ±MaxFloat64, subnormals, values near 1e±300 and near 1, and small
// integers, so that rows of one matrix span more than 2^2000.
func hostileValue() *rapid.Generator[float64] {
	return rapid.OneOf(
		rapid.SampledFrom([]float64{0, 1, 2, -1, math.MaxFloat64, -math.MaxFloat64,
			math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022, 1e300, -1e300, 1e-300}),
		rapid.Custom(func(t *rapid.T) float64 {
			m := rapid.Float64Range(-1, 1).Draw(t, "mantissa")
			return math.Ldexp(m, rapid.IntRange(-1074, 1023).Draw(t, "exponent")) // at most 2^1023
		}),
		rapid.Float64Range(-4, 4),
	)
}

// TestMeasuresAcrossEveryMagnitudeAreExact holds Volume, History and
// Contributions to the exact rational oracle on a few rows of finite values
// from every magnitude a float64 has: the volume within 1e-12 of the exact
// one and each share within 1e-9 (the accuracy the godoc promises), or
// within 2^-1060 where the exact value is itself down in the subnormals.
// Volumes above MaxFloat64 must be +Inf (or MaxFloat64, within the
// tolerance), and nothing else may be.
func TestMeasuresAcrossEveryMagnitudeAreExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dims := rapid.IntRange(1, 5).Draw(t, "dims")
		n := rapid.IntRange(1, []int{0, 6, 6, 5, 4, 4}[dims]).Draw(t, "n")
		maximize := rapid.SliceOfN(rapid.Bool(), dims, dims).Draw(t, "maximize")
		values := rapid.SliceOfN(hostileValue(), n*dims, n*dims).Draw(t, "values")
		ref := rapid.SliceOfN(hostileValue(), dims, dims).Draw(t, "ref")
		near := func(got float64, want *big.Rat, tol float64) bool {
			if math.IsInf(got, 1) { // the exact value is past MaxFloat64, or a rounding off it
				return want.Cmp(rat(math.MaxFloat64*(1-tol))) >= 0
			}
			if relErr(got, want) <= tol {
				return true
			}
			d := new(big.Rat).Sub(rat(got), want)
			return d.Abs(d).Cmp(rat(0x1p-1060)) <= 0
		}
		vol, excl := exactGrid(values, dims, maximize, ref)
		if got := volumeOf(values, dims, maximize, ref); !near(got, vol, 1e-12) {
			t.Fatalf("Volume = %v; exact %v", got, vol.FloatString(20))
		}
		shares := sharesOf(values, dims, maximize, ref)
		for i, w := range excl {
			if !near(shares[i], w, 1e-9) {
				t.Fatalf("row %d: share %v; exact %v", i, shares[i], w.FloatString(20))
			}
		}
		history := historyOf(values, dims, maximize, ref)
		for i := range n {
			want, _ := exactGrid(values[:(i+1)*dims], dims, maximize, ref)
			if !near(history[i], want, 1e-12) {
				t.Fatalf("History[%d] = %v; exact %v", i, history[i], want.FloatString(20))
			}
		}
	})
}
