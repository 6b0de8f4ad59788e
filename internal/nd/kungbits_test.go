package nd

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/spica-search/spica/internal/testkit"
)

// TestSortRankKeys checks the radix sort of maximaBits against a stable
// comparison sort by rank, on ranks of every width from 0 to 31 bits, so
// that it runs one, two and three passes.
func TestSortRankKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		width := rapid.IntRange(0, 31).Draw(t, "width")
		n := rapid.IntRange(0, 300).Draw(t, "n")
		ranks := rapid.SliceOfN(rapid.Uint32Range(0, uint32(1)<<width-1), n, n).Draw(t, "ranks")
		keys := make([]uint64, n)
		top := uint32(0)
		for i, r := range ranks {
			keys[i] = uint64(r)<<16 | uint64(i)
			top = max(top, r)
		}
		want := slices.Clone(keys)
		slices.SortStableFunc(want, func(a, b uint64) int { return cmp.Compare(a>>16, b>>16) })
		sortRankKeys(keys, make([]uint64, n), bits.Len32(top))
		if !slices.Equal(keys, want) {
			t.Fatalf("sorted %v, want %v", keys, want)
		}
	})
}

// TestRankPasses checks the digits sortRankKeys sorts by: as few passes
// as digits of at most 11 bits allow, the bits shared as evenly as they
// go. Narrower digits still sort, in more passes, so
// TestSortRankKeys cannot tell.
func TestRankPasses(t *testing.T) {
	tests := []struct {
		rankBits, passes, digit int
	}{
		{0, 1, 0},   // all ranks 0: nothing to sort
		{1, 1, 1},   // (1+10)/11 = 1 pass
		{11, 1, 11}, // (11+10)/11 = 1 pass, the widest digit
		{12, 2, 6},  // (12+10)/11 = 2 passes, (12+1)/2 = 6 bits
		{17, 2, 9},  // 1<<16 distinct rows: (17+10)/11 = 2, (17+1)/2 = 9
		{22, 2, 11}, // (22+10)/11 = 2, (22+1)/2 = 11
		{23, 3, 8},  // (23+10)/11 = 3, (23+2)/3 = 8
		{31, 3, 11}, // ranks below 2³¹: (31+10)/11 = 3, (31+2)/3 = 11
	}
	for _, tt := range tests {
		passes, digit := rankPasses(tt.rankBits)
		if passes != tt.passes || digit != tt.digit {
			t.Errorf("rankPasses(%d) = %d passes of %d bits, want %d of %d", tt.rankBits, passes, digit, tt.passes, tt.digit)
		}
	}
}

// TestMaximaBitsAtScale runs the engine at its default sizes on fronts of
// tens of thousands of rows, where halves of 8192 rows go to maximaBits in
// chunks of a few thousand rows and the divide and conquer marries them
// above, against the divide and conquer alone (bits off): on points of a
// sphere and of a simplex, all on the front; on the same with every third
// row moved half its length away from the origin, so that rows nearby
// dominate it; and on a sphere rounded to 1/32, so that ranks tie and rows
// repeat.
func TestMaximaBitsAtScale(t *testing.T) {
	// -short runs the smaller size only, so that a full run checks all
	// that a short one does.
	sizes := []int{9000, 20000}
	if testing.Short() {
		sizes = sizes[:1]
	}
	kungOnly := ndDefaults
	kungOnly.bits = 0
	for _, n := range sizes {
		for d := 4; d <= 6; d++ {
			for _, shape := range []string{"sphere", "line", "sphere-pushed", "line-pushed", "sphere-rounded"} {
				t.Run(fmt.Sprintf("n=%d/d=%d/%s", n, d, shape), func(t *testing.T) {
					base, _, _ := strings.Cut(shape, "-")
					values := testkit.Matrix(base, n, d)
					for r := range n {
						row := values[r*d : (r+1)*d]
						switch {
						case strings.HasSuffix(shape, "pushed") && r%3 == 0:
							for c := range row {
								row[c] *= 1.5
							}
						case strings.HasSuffix(shape, "rounded"):
							for c := range row {
								row[c] = math.Round(row[c]*32) / 32
							}
						}
					}
					maximize := make([]bool, d)
					want := nonDominatedTuned(values, n, d, maximize, kungOnly)
					got := nonDominatedTuned(values, n, d, maximize, ndDefaults)
					if diff := gocmp.Diff(want, got); diff != "" {
						t.Fatalf("front with bit sets differs from the divide and conquer's (-want +got):\n%s", diff)
					}
					if len(want) < n/100 || len(want) == n && shape != "sphere" && shape != "line" {
						t.Fatalf("front of %d rows out of %d: the data does not test what it should", len(want), n)
					}
				})
			}
		}
	}
}

// bitsKung holds rows of ranks for maximaBits, as frontKung would: row i
// is rows[i], its ranks in columns 1 on, and its place i stands for its
// rank in column 0, so that the rows are distinct and in lexicographic
// order. It returns the kung and the list maximaBits takes.
func bitsKung(rows [][]int32, t ndTuning) (*kung, []kRec) {
	d := 1
	if len(rows) > 0 {
		d += len(rows[0])
	}
	k := &kung{dims: d, pts: make([]int32, len(rows)*d), t: t}
	s := make([]kRec, len(rows))
	for i, r := range rows {
		copy(k.pts[i*d+1:(i+1)*d], r)
		s[i] = kRec{id: uint32(i)}
	}
	return k, s
}

// bitsOracle is what maximaBits must return for bitsKung(rows): the rows
// of testkit.Front on the matrix whose row i is i then rows[i], keyed by
// their rank in column 1 and sorted stably on it.
func bitsOracle(rows [][]int32) []kRec {
	if len(rows) == 0 {
		return []kRec{}
	}
	d := 1 + len(rows[0])
	values := make([]float64, 0, len(rows)*d)
	for i, r := range rows {
		values = append(values, float64(i))
		for _, v := range r {
			values = append(values, float64(v))
		}
	}
	want := []kRec{}
	for _, i := range testkit.Front(values, d, make([]bool, d)) {
		want = append(want, kRec{uint32(rows[i][0]), uint32(i)})
	}
	slices.SortStableFunc(want, func(a, b kRec) int { return cmp.Compare(a.key, b.key) })
	return want
}

// TestMaximaBitsOracle runs maximaBits alone against the O(n²) front, on
// lists of up to four words of rows, a few rows' sets at a time or all of
// them, with ranks that tie often or spread over 31 bits. Each draw makes
// two calls on one kung's scratch, so that the second finds the first's
// words in its buffers, as frontKung's pooled scratch does.
func TestMaximaBitsOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := rapid.IntRange(2, 6).Draw(t, "d")
		t0 := ndDefaults
		t0.bitsWords = rapid.SampledFrom([]int{1, 2, 3, 5, 1 << 17}).Draw(t, "bitsWords")
		var scratch *kung
		for call := range 2 {
			m := rapid.IntRange(1, 260).Draw(t, fmt.Sprintf("m%d", call))
			top := rapid.SampledFrom([]int32{1, 3, 40, math.MaxInt32}).Draw(t, fmt.Sprintf("top%d", call))
			rank := rapid.Int32Range(0, top)
			rows := rapid.SliceOfN(rapid.SliceOfN(rank, d-1, d-1), m, m).Draw(t, fmt.Sprintf("rows%d", call))
			k, s := bitsKung(rows, t0)
			if scratch != nil {
				k.bits64, k.bits32 = scratch.bits64, scratch.bits32
			}
			scratch = k
			want := bitsOracle(rows)
			got := k.maximaBits(s)
			if diff := gocmp.Diff(want, got, gocmp.AllowUnexported(kRec{})); diff != "" {
				t.Fatalf("call %d: survivors differ from the oracle's (-want +got):\n%s", call, diff)
			}
			for _, r := range want {
				if k.dead(r.id) {
					t.Fatalf("call %d: row %d survives but is marked dead", call, r.id)
				}
			}
			if dead := m - len(want); dead != countDead(k, m) {
				t.Fatalf("call %d: %d rows marked dead, want %d", call, countDead(k, m), dead)
			}
		}
	})
}

func countDead(k *kung, m int) int {
	n := 0
	for u := range m {
		n += OneIf(k.dead(uint32(u)))
	}
	return n
}

// TestMaximaBitsScratch checks the memory maximaBits asks for on a fresh
// kung: d·m order keys (d−1 columns and the sort's scratch), then the
// sets of chunk rows of words = ⌈m/64⌉ words each, where chunk is as many
// rows as fit in bitsWords words (at least one, at most m), then one set
// for the walk; and two int32 per row of the chunk (lo and hi) and per
// row of the list (list and ids).
func TestMaximaBitsScratch(t *testing.T) {
	tests := []struct {
		name           string
		m, d           int
		bitsWords      int
		want64, want32 int
	}{
		// words = (130+63)/64 = 3, chunk = 7/3 = 2:
		// 4·130 + 2·3 + 3 = 529, 2·2 + 2·130 = 264.
		{"three words a row, two rows in seven words", 130, 4, 7, 529, 264},
		// words = 3, 1/3 = 0 rows fit, so chunk = 1:
		// 4·130 + 1·3 + 3 = 526, 2·1 + 2·130 = 262.
		{"a row wider than bitsWords is a chunk alone", 130, 4, 1, 526, 262},
		// words = (65+63)/64 = 2, chunk = 10/2 = 5:
		// 5·65 + 5·2 + 2 = 337, 2·5 + 2·65 = 140.
		{"one bit over a word takes two", 65, 5, 10, 337, 140},
		// words = (64+63)/64 = 1, chunk = min(64, 1<<17) = 64:
		// 6·64 + 64·1 + 1 = 449, 2·64 + 2·64 = 256.
		{"a list that fits is one chunk", 64, 6, 1 << 17, 449, 256},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := make([][]int32, tt.m)
			for i := range rows {
				rows[i] = make([]int32, tt.d-1)
			}
			tuning := ndDefaults
			tuning.bitsWords = tt.bitsWords
			k, s := bitsKung(rows, tuning)
			k.maximaBits(s)
			if len(k.bits64) != tt.want64 || len(k.bits32) != tt.want32 {
				t.Fatalf("asked for %d uint64 and %d int32, want %d and %d", len(k.bits64), len(k.bits32), tt.want64, tt.want32)
			}
		})
	}
}

// sphereRanks returns m points of the sphere of d columns from a stream
// of testkit.Stream as bitsKung takes them: sorted on column 0, which
// their places then stand for, with the ranks of columns 1 on.
func sphereRanks(m, d int, stream uint64) [][]int32 {
	values := testkit.Stream("sphere", m, d, stream)
	places := make([]int, m)
	for i := range places {
		places[i] = i
	}
	slices.SortFunc(places, func(a, b int) int { return cmp.Compare(values[a*d], values[b*d]) })
	rows := make([][]int32, m)
	for i := range rows {
		rows[i] = make([]int32, d-1)
	}
	byColumn := make([]int, m)
	for c := 1; c < d; c++ {
		for i := range byColumn {
			byColumn[i] = i
		}
		slices.SortFunc(byColumn, func(a, b int) int { return cmp.Compare(values[places[a]*d+c], values[places[b]*d+c]) })
		for r, i := range byColumn {
			rows[i][c-1] = int32(r)
		}
	}
	return rows
}

// BenchmarkMaximaBits times maximaBits alone on points of a sphere, which
// all survive, at the most rows it takes by default (bits) and fewer, at
// the default bitsWords, cycling through four streams of data.
func BenchmarkMaximaBits(b *testing.B) {
	for _, d := range []int{4, 5, 6} {
		for _, m := range []int{1024, ndDefaults.bits} {
			b.Run(fmt.Sprintf("d=%d/m=%d", d, m), func(b *testing.B) {
				benchMaximaBits(b, m, d, (*kung).maximaBits)
			})
		}
	}
}

func benchMaximaBits(b *testing.B, m, d int, maxima func(*kung, []kRec) []kRec) {
	var ks [4]*kung
	var ss [4][]kRec
	for i := range ks {
		ks[i], ss[i] = bitsKung(sphereRanks(m, d, uint64(i)), ndDefaults)
	}
	for i, k := range ks {
		maxima(k, slices.Clone(ss[i])) // the scratch grows once, not timed
	}
	s := make([]kRec, m)
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		k := ks[i%len(ks)]
		for u := range m {
			k.pts[u*d] = 0
		}
		copy(s, ss[i%len(ks)])
		if got := len(maxima(k, s)); got != m {
			b.Fatalf("%d of %d rows of a sphere survive", got, m)
		}
		i++
	}
}
