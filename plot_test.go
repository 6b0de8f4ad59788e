package spica

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// svgSummary is what the tests read back from a picture.
type svgSummary struct {
	circles map[string]int // circles with a <title>, by the class of their group
	titles  []string       // the text of every <title>
	notes   []string       // the text of every note
	texts   []string       // the text of every <text>
}

// readSVG parses a picture with encoding/xml (readElements), failing on
// malformed XML, and sums it up.
func readSVG(t tb, data []byte) svgSummary {
	t.Helper()
	s := svgSummary{circles: map[string]int{}}
	for _, e := range readElements(t, data) {
		switch {
		case e.titled: // only circles hold a <title>
			s.titles = append(s.titles, e.text)
			if e.name == "circle" {
				s.circles[e.group]++
			}
		case e.name == "text":
			s.texts = append(s.texts, e.text)
			if e.attrs["class"] == "note" {
				s.notes = append(s.notes, e.text)
			}
		}
	}
	return s
}

// nonFiniteAttr finds a NaN or infinity in an attribute: a coordinate a
// browser would drop.
var nonFiniteAttr = regexp.MustCompile(`="[^"]*(NaN|Inf)`)

func TestFrontSVGByHand(t *testing.T) {
	nan := math.NaN()
	cand := func(gpu, user float64) Candidate {
		return Candidate{Objectives: map[string]float64{"throughput_per_gpu": gpu, "throughput_per_user": user}}
	}
	// (1500,45), (1200,80), (800,95) are the front; (1200,60) and (800,40)
	// are dominated; (NaN,50) and (900,+Inf) cannot be drawn.
	cands := []Candidate{cand(1200, 60), cand(1500, 45), cand(1200, 80), cand(800, 95), cand(800, 40),
		cand(nan, 50), cand(900, math.Inf(1))}
	var b bytes.Buffer
	if err := FrontSVG(&b, cands, TargetThroughputPerUser, TargetThroughputPerGPU, PlotOptions{}); err != nil {
		t.Fatal(err)
	}
	s := readSVG(t, b.Bytes())
	if diff := cmp.Diff(map[string]int{"front": 3, "dominated": 2}, s.circles); diff != "" {
		t.Errorf("circles (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"2 of 7 candidates not drawn: a NaN or infinite value"}, s.notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	wantTitles := []string{
		"candidate 0: throughput_per_user = 60 tok/s/user, throughput_per_gpu = 1200 tok/s/gpu",
		"candidate 4: throughput_per_user = 40 tok/s/user, throughput_per_gpu = 800 tok/s/gpu",
		"candidate 1: throughput_per_user = 45 tok/s/user, throughput_per_gpu = 1500 tok/s/gpu (Pareto front)",
		"candidate 2: throughput_per_user = 80 tok/s/user, throughput_per_gpu = 1200 tok/s/gpu (Pareto front)",
		"candidate 3: throughput_per_user = 95 tok/s/user, throughput_per_gpu = 800 tok/s/gpu (Pareto front)",
	}
	if diff := cmp.Diff(wantTitles, s.titles); diff != "" {
		t.Errorf("tooltips (-want +got):\n%s", diff)
	}
	for _, want := range []string{
		"throughput_per_user (tok/s/user, higher is better)",
		"throughput_per_gpu (tok/s/gpu, higher is better)",
		"Pareto front: throughput_per_gpu against throughput_per_user",
		// x spans 40..95, padded by 2.75 each side, ticks every 10;
		// y spans 800..1500, padded by 35, ticks every 100.
		"40", "90", "800", "1500",
	} {
		if !strings.Contains("\x00"+strings.Join(s.texts, "\x00")+"\x00", "\x00"+want+"\x00") {
			t.Errorf("no text %q in %q", want, s.texts)
		}
	}
	// The tick labels in full: on the default 608×358 frame, 608/90 + 2 = 8
	// x ticks are wanted over 60.5 (step 60.5/7 ≈ 8.6 → 10) and 358/45 + 2
	// = 9 y ticks over 770 (step 770/8 ≈ 96 → 100).
	p := checkLayout(t, b.Bytes(), 720, 480, "Pareto front: throughput_per_gpu against throughput_per_user")
	if diff := cmp.Diff([]string{"40", "50", "60", "70", "80", "90"}, p.x.texts); diff != "" {
		t.Errorf("x ticks (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"800", "900", "1000", "1100", "1200", "1300", "1400", "1500"}, p.y.texts); diff != "" {
		t.Errorf("y ticks (-want +got):\n%s", diff)
	}
	for _, absent := range []string{"30", "100", "700", "1600"} {
		for _, text := range s.texts {
			if text == absent {
				t.Errorf("tick %q outside the padded range", absent)
			}
		}
	}
}

func TestPlotSize(t *testing.T) {
	tests := []struct {
		w, h         int
		wantW, wantH string
	}{
		{0, 0, "720", "480"},
		{1000, 0, "1000", "480"},
		{-5, 600, "720", "600"},
		{100, 100, "320", "200"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := HistorySVG(&b, []float64{1, 2}, PlotOptions{Width: tt.w, Height: tt.h}); err != nil {
			t.Fatal(err)
		}
		e := firstNamed(readElements(t, b.Bytes()), "svg")
		if e.attrs["width"] != tt.wantW || e.attrs["height"] != tt.wantH {
			t.Errorf("Width %d, Height %d: svg %s×%s, want %s×%s", tt.w, tt.h, e.attrs["width"], e.attrs["height"], tt.wantW, tt.wantH)
		}
	}
}

func TestFrontSVGRejectsBadInput(t *testing.T) {
	cands := []Candidate{{Objectives: map[string]float64{"throughput": 1}}}
	var b bytes.Buffer
	if err := FrontSVG(&b, cands, TargetThroughput, TargetThroughput, PlotOptions{}); !errors.Is(err, ErrInvalidParetoObjectives) {
		t.Errorf("x == y: err = %v, want ErrInvalidParetoObjectives", err)
	}
	if err := FrontSVG(&b, cands, TargetThroughput, TargetE2ELatency, PlotOptions{}); !errors.Is(err, ErrInvalidCandidate) {
		t.Errorf("missing value: err = %v, want ErrInvalidCandidate", err)
	}
	if b.Len() != 0 {
		t.Errorf("wrote %d bytes before failing", b.Len())
	}
	wantErr := errors.New("disk full")
	cands[0].Objectives["e2e_latency"] = 3
	if err := FrontSVG(failingWriter{wantErr}, cands, TargetThroughput, TargetE2ELatency, PlotOptions{}); err != wantErr {
		t.Errorf("failing writer: err = %v, want %v", err, wantErr)
	}
	if err := HistorySVG(failingWriter{wantErr}, []float64{1}, PlotOptions{}); err != wantErr {
		t.Errorf("failing writer: err = %v, want %v", err, wantErr)
	}
}

type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }

// TestFrontSVGCounts draws random pools, with NaN and infinite values, and
// counts what a reader sees against ParetoFront of the drawable candidates.
func TestFrontSVGCounts(t *testing.T) {
	targets := []OptimizationTarget{TargetThroughput, TargetThroughputPerGPU, TargetThroughputPerUser, TargetE2ELatency}
	rapid.Check(t, func(t *rapid.T) {
		perm := rapid.Permutation(targets).Draw(t, "targets")
		x, y := perm[0], perm[1]
		n := rapid.IntRange(0, 40).Draw(t, "n")
		pool := []float64{0, 1, 2.5, 3, 1e6, -4, math.NaN(), math.Inf(1), math.Inf(-1)}
		if rapid.Bool().Draw(t, "extremes") {
			pool = append(pool, math.MaxFloat64, -math.MaxFloat64, 5e-324, 1e-300)
		}
		cands := make([]Candidate, n)
		var finite []Candidate
		for i := range cands {
			vx, vy := rapid.SampledFrom(pool).Draw(t, "x"), rapid.SampledFrom(pool).Draw(t, "y")
			cands[i] = Candidate{Objectives: map[string]float64{x.String(): vx, y.String(): vy}}
			if isFinite(vx) && isFinite(vy) {
				finite = append(finite, cands[i])
			}
		}
		size := rapid.SampledFrom([]int{0, 100, 400, 1000}).Draw(t, "size")
		opt := PlotOptions{Width: size, Height: size * 2 / 3}
		var b1, b2 bytes.Buffer
		if err := FrontSVG(&b1, cands, x, y, opt); err != nil {
			t.Fatal(err)
		}
		if err := FrontSVG(&b2, cands, x, y, opt); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
			t.Fatal("two calls wrote different bytes")
		}
		s := readSVG(t, b1.Bytes())
		if nonFiniteAttr.Match(b1.Bytes()) {
			t.Fatalf("a non-finite coordinate in\n%s", b1.Bytes())
		}
		front, err := ParetoFront(finite, []OptimizationTarget{x, y})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{}
		if len(front) > 0 {
			want["front"] = len(front)
		}
		if d := len(finite) - len(front); d > 0 {
			want["dominated"] = d
		}
		if diff := cmp.Diff(want, s.circles); diff != "" {
			t.Fatalf("circles (-want +got):\n%s", diff)
		}
		if left := n - len(finite); left > 0 != (len(s.notes) == 1) || left > 0 && !strings.HasPrefix(s.notes[0], strconv.Itoa(left)+" of ") {
			t.Fatalf("%d candidates left out, notes %q", left, s.notes)
		}
		// The legend counts what is drawn, and the staircase needs two
		// front points to be a line.
		legend := fmt.Sprintf("Pareto front (%d)|dominated (%d)", len(front), len(finite)-len(front))
		if !strings.Contains(strings.Join(s.texts, "|"), legend) {
			t.Fatalf("no legend %q in %q", legend, s.texts)
		}
		if lines, want := strings.Count(b1.String(), "<polyline"), min(len(front)-1, 1); lines != max(want, 0) {
			t.Fatalf("%d staircases for a front of %d", lines, len(front))
		}
	})
}

func TestHistorySVG(t *testing.T) {
	nan := math.NaN()
	var b bytes.Buffer
	// Changes at evaluations 1, 3 and 6; the NaN and +Inf are left out.
	history := []float64{2, 2, 5, nan, 5, 7.5, math.Inf(1), 7.5}
	if err := HistorySVG(&b, history, PlotOptions{Title: "Sweep <A & B>"}); err != nil {
		t.Fatal(err)
	}
	s := readSVG(t, b.Bytes())
	if diff := cmp.Diff(map[string]int{"changes": 3}, s.circles); diff != "" {
		t.Errorf("circles (-want +got):\n%s", diff)
	}
	wantTitles := []string{"evaluation 1: hypervolume 2", "evaluation 3: hypervolume 5", "evaluation 6: hypervolume 7.5"}
	if diff := cmp.Diff(wantTitles, s.titles); diff != "" {
		t.Errorf("tooltips (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"2 of 8 values not drawn: NaN or infinite"}, s.notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	texts := strings.Join(s.texts, "|")
	for _, want := range []string{"Sweep <A & B>", "|evaluation|", "|hypervolume"} {
		if !strings.Contains(texts, want) {
			t.Errorf("no %q in %q", want, texts)
		}
	}
	// Evaluations are whole: on 8 of them no tick reads 1.5.
	if strings.Contains(texts, "|1.5|") || strings.Contains(texts, "|2.5|") {
		t.Errorf("fractional evaluation tick in %q", texts)
	}
	for _, extreme := range [][]float64{{-math.MaxFloat64, math.MaxFloat64}, {5e-324, 1e-323, 1.5e-323}, {1e300, 1e300}} {
		b.Reset()
		if err := HistorySVG(&b, extreme, PlotOptions{}); err != nil {
			t.Fatal(err)
		}
		readSVG(t, b.Bytes())
		if nonFiniteAttr.Match(b.Bytes()) {
			t.Errorf("history %v drew a non-finite coordinate:\n%s", extreme, b.Bytes())
		}
	}
	// 1e4 rising values on a 608×358 pixel frame: circles at least 8
	// pixels apart along the curve, and the step line at most two points
	// per pixel column plus its ends.
	rising := make([]float64, 10000)
	for i := range rising {
		rising[i] = math.Sqrt(float64(i))
	}
	b.Reset()
	if err := HistorySVG(&b, rising, PlotOptions{}); err != nil {
		t.Fatal(err)
	}
	if s := readSVG(t, b.Bytes()); s.circles["changes"] > (608+358)/8+1 || s.circles["changes"] < 608/16 {
		t.Errorf("%d circles for a rising history, want about one per 8 pixels of curve", s.circles["changes"])
	}
	if points := strings.Count(b.String(), ",") - 2; points > 2*608+4 { // two commas name the fonts
		t.Errorf("%d points in the step line, want at most two per pixel column", points)
	}
	b.Reset()
	if err := HistorySVG(&b, nil, PlotOptions{}); err != nil {
		t.Fatal(err)
	}
	if s := readSVG(t, b.Bytes()); len(s.circles) != 0 || len(s.notes) != 0 {
		t.Errorf("empty history drew %v, notes %q", s.circles, s.notes)
	}
}

func TestNiceTicks(t *testing.T) {
	tests := []struct {
		name   string
		vs     []float64
		want   int
		lo, hi float64
		ticks  []string
		scale  string
	}{
		// 40..95 padded by 55/20 = 2.75; 8 ticks wanted: step ≈ 66/7 → 10.
		{"tok/s/user", []float64{40, 95, 60}, 8, 37.25, 97.75, []string{"40", "50", "60", "70", "80", "90"}, ""},
		// One value 5: ±0.5; 5 ticks: step 1/4 rounds to 0.2.
		{"one value", []float64{5}, 5, 4.5, 5.5, []string{"4.6", "4.8", "5.0", "5.2", "5.4"}, ""},
		{"nothing", nil, 3, 0, 1, []string{"0.0", "0.5", "1.0"}, ""},
		// 1e9..2e9 padded by 5e7; step 1.1e9/2 → 5e8, in units of 10⁹.
		{"billions", []float64{1e9, 2e9}, 3, 0.95e9, 2.05e9, []string{"1.0", "1.5", "2.0"}, "×10⁹"},
		// 1e-4..3e-4 padded by 1e-5; step 2.2e-4/4 → 5e-5, units of 10⁻⁶.
		{"tiny", []float64{1e-4, 3e-4}, 5, 0.9e-4, 3.1e-4, []string{"100", "150", "200", "250", "300"}, "×10⁻⁶"},
		// Values an ulp apart are drawn as one: 5 and the next float show
		// as "one value" does.
		{"an ulp apart", []float64{5, math.Nextafter(5, 6)}, 5, 4.5, 5.5, []string{"4.6", "4.8", "5.0", "5.2", "5.4"}, ""},
		// Three static deployments at 1000 tok/s/GPU as AvgGPU gives them:
		// within 2.3e-13 of each other, one value 999.9999999999999 ±
		// 99.99999999999999, a frame from 899.9999999999999 to just short
		// of 1100; 5 ticks: step 200/4 = 50.
		{"1000 from AvgGPU", []float64{999.9999999999999, 999.9999999999998, 1000}, 5, 900, 1100, []string{"900", "950", "1000", "1050"}, ""},
		// The two extremes of that trio alone, 2 ulps apart (an ulp at
		// 1000 is 2^-43 ≈ 1.1e-13): the same frame and ticks.
		{"999.9999999999998 and 1000", []float64{999.9999999999998, 1000}, 5, 900, 1100, []string{"900", "950", "1000", "1050"}, ""},
		// 1e-8 apart relative is more than a billionth: drawn apart.
		// 1000..1000.00001 padded by 5e-7; step 1.1e-5/2 → 5e-6.
		{"a hundred-millionth apart", []float64{1000, 1000.00001}, 3, 999.9999995, 1000.0000105, []string{"1000.000000", "1000.000005", "1000.000010"}, ""},
		// A span beyond MaxFloat64: ±1e308 padded by 2e308/20 = 1e307;
		// 8 ticks: step 2.2e308/7 ≈ 3.1e307 → 5e307, in units of 10³⁰⁶.
		// The step was once computed as the span times 2 over 7, +Inf, and
		// the two ends of the frame were the only ticks.
		{"beyond MaxFloat64", []float64{-1e308, 1e308}, 8, -1.1e308, 1.1e308, []string{"-100", "-50", "0", "50", "100"}, "×10³⁰⁶"},
		// A top tick of exactly a million takes the scale: 0..1e6 padded by
		// 5e4; 3 ticks: step 1.1e6/2 → 5e5.
		{"a million", []float64{0, 1e6}, 3, -5e4, 1.05e6, []string{"0.0", "0.5", "1.0"}, "×10⁶"},
		// A top tick of exactly a thousandth does not: 0..1e-3 padded by
		// 5e-5; step 1.1e-3/2 → 5e-4, four decimals.
		{"a thousandth", []float64{0, 1e-3}, 3, -5e-5, 1.05e-3, []string{"0.0000", "0.0005", "0.0010"}, ""},
		// A step of exactly a tenth needs one decimal, not two: 0.1..0.9
		// padded by 0.04; 9 ticks: step 0.88/8 = 0.11 → 0.1.
		{"tenths", []float64{0.1, 0.9}, 9, 0.06, 0.94, []string{"0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var lo, hi float64
			var ticks []float64
			returnsWithin(t, fmt.Sprintf("niceTicks(%v, %d)", tt.vs, tt.want), func() { lo, hi, ticks = niceTicks(tt.vs, tt.want) })
			texts, scale := tickTexts(ticks)
			if math.Abs(lo-tt.lo) > 1e-9*math.Abs(tt.lo) || math.Abs(hi-tt.hi) > 1e-9*math.Abs(tt.hi) {
				t.Errorf("range %v..%v, want %v..%v", lo, hi, tt.lo, tt.hi)
			}
			if diff := cmp.Diff(tt.ticks, texts); diff != "" || scale != tt.scale {
				t.Errorf("ticks %q %q, want %q %q", texts, scale, tt.ticks, tt.scale)
			}
			// However near the values, no two tick labels read the same.
			seen := map[string]bool{}
			for _, text := range texts {
				if seen[text] {
					t.Errorf("two ticks read %q: %q", text, texts)
				}
				seen[text] = true
			}
		})
	}
	// Extreme but finite ranges still give a finite frame.
	for _, vs := range [][]float64{{-math.MaxFloat64, math.MaxFloat64}, {math.MaxFloat64}, {5e-324, 1e-323}} {
		lo, hi, ticks := niceTicks(vs, 6)
		if !isFinite(lo) || !isFinite(hi) || !(lo < hi) || len(ticks) == 0 {
			t.Errorf("niceTicks(%v) = %v, %v, %v", vs, lo, hi, ticks)
		}
	}
}

// TestNiceTicksNearEqual spans values 1 to 2^40 ulps apart at magnitudes
// from 0 to MaxFloat64/2, for frames of 3 to 1000 ticks: niceTicks returns,
// and its ticks rise inside the frame (up to rounding) with labels that all
// read differently.
func TestNiceTicksNearEqual(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := rapid.Float64Range(0, math.MaxFloat64/2).Draw(t, "v")
		if rapid.Bool().Draw(t, "negative") {
			v = -v
		}
		ulps := rapid.IntRange(0, 40).Draw(t, "log2 ulps")
		w := math.Float64frombits(math.Float64bits(v) + 1<<ulps) // up in magnitude
		want := rapid.IntRange(3, 1000).Draw(t, "want")
		vs := []float64{v, w}
		var lo, hi float64
		var ticks []float64
		returnsWithin(t, fmt.Sprintf("niceTicks(%v, %d)", vs, want), func() { lo, hi, ticks = niceTicks(vs, want) })
		texts, _ := tickTexts(ticks)
		slack := (hi-lo)*1e-9 + max(-lo, hi)*0x1p-50 // k·step rounds
		for k, tk := range ticks {
			if tk < lo-slack || tk > hi+slack || k > 0 && !(tk > ticks[k-1]) {
				t.Fatalf("niceTicks(%v, %d) = %v..%v, ticks %v", vs, want, lo, hi, ticks)
			}
			if k > 0 && texts[k] == texts[k-1] {
				t.Fatalf("niceTicks(%v, %d): ticks %v and %v both read %q", vs, want, ticks[k-1], tk, texts[k])
			}
		}
	})
}

// TestNiceTicksAtTheNearEqualBound draws 0 and 1e-300, whose span, 1e-300,
// is the widest niceTicks still shows as one value (a billionth of the
// magnitude is far below it): ±1e-300 around their midpoint 5e-301,
// a frame 2e-300 wide. Twice as far apart, they are spread over their span
// padded by a twentieth of it each side: 2e-300 + 2·1e-301, 2.2e-300 wide.
func TestNiceTicksAtTheNearEqualBound(t *testing.T) {
	for _, tt := range []struct{ hi, width float64 }{{1e-300, 2e-300}, {2e-300, 2.2e-300}} {
		lo, hi, _ := niceTicks([]float64{0, tt.hi}, 5)
		if math.Abs((hi-lo)/tt.width-1) > 1e-9 {
			t.Errorf("niceTicks(0, %v) frames %v..%v, %v wide; want %v", tt.hi, lo, hi, hi-lo, tt.width)
		}
	}
}

// TestPicturesOfNearEqualValues draws values a few ulps apart, which once
// never returned: three static deployments at 1000 tok/s/GPU as AvgGPU
// gives them, and a history that rises by one ulp.
func TestPicturesOfNearEqualValues(t *testing.T) {
	cands := []Candidate{
		{Objectives: map[string]float64{"throughput_per_user": 10, "throughput_per_gpu": 1000}},
		{Objectives: map[string]float64{"throughput_per_user": 20, "throughput_per_gpu": 999.9999999999999}},
		{Objectives: map[string]float64{"throughput_per_user": 30, "throughput_per_gpu": 999.9999999999998}},
	}
	var b bytes.Buffer
	var err error
	returnsWithin(t, "FrontSVG(three deployments at 1000 tok/s/GPU)", func() {
		err = FrontSVG(&b, cands, TargetThroughputPerUser, TargetThroughputPerGPU, PlotOptions{})
	})
	if err != nil {
		t.Fatal(err)
	}
	if s := readSVG(t, b.Bytes()); s.circles["front"] != 3 {
		t.Errorf("circles %v, want the 3 on the front", s.circles)
	}
	b.Reset()
	history := []float64{1, math.Nextafter(1, 2)}
	returnsWithin(t, fmt.Sprintf("HistorySVG(%v)", history), func() { err = HistorySVG(&b, history, PlotOptions{}) })
	if err != nil {
		t.Fatal(err)
	}
	if s := readSVG(t, b.Bytes()); s.circles["changes"] != 2 {
		t.Errorf("circles %v, want 2: evaluation 1 and the change at 2", s.circles)
	}
}

// FuzzFrontSVGText feeds arbitrary text to every place a caller's text
// reaches: the output must stay well-formed XML, and text XML can hold must
// read back unchanged.
func FuzzFrontSVGText(f *testing.F) {
	for _, s := range []string{"", "tp8 <fast> & \"cheap\"", "]]>", "\x00\xff", "\u2028 ünï 🚀", "<title>x</title>", "&amp;"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, title, label string) {
		cands := []Candidate{
			{Objectives: map[string]float64{"throughput": 3, "e2e_latency": 100}},
			{Objectives: map[string]float64{"throughput": 1, "e2e_latency": 200}},
		}
		var b bytes.Buffer
		opt := PlotOptions{Title: title, Label: func(Candidate) string { return label }}
		if err := FrontSVG(&b, cands, TargetE2ELatency, TargetThroughput, opt); err != nil {
			t.Fatal(err)
		}
		s := readSVG(t, b.Bytes())
		if s.circles["front"]+s.circles["dominated"] != 2 {
			t.Fatalf("circles %v, want 2", s.circles)
		}
		if xmlSafe(label) {
			for _, got := range s.titles {
				// Escaped as &#xD;, a carriage return survives the
				// decoder's line-end folding.
				if got != label {
					t.Fatalf("tooltip %q, want %q", got, label)
				}
			}
		}
		b.Reset()
		if err := HistorySVG(&b, []float64{1, 2}, opt); err != nil {
			t.Fatal(err)
		}
		readSVG(t, b.Bytes())
	})
}

// xmlSafe reports whether s is valid UTF-8 made of characters XML allows.
func xmlSafe(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		ok := r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
		if !ok {
			return false
		}
	}
	return true
}

// TestFrontSVGStaircase reads the staircase back: between two front points
// it turns at the corner both dominate, the worse of the two in each
// target's direction.
func TestFrontSVGStaircase(t *testing.T) {
	cand := func(lat, tp float64) Candidate {
		return Candidate{Objectives: map[string]float64{"e2e_latency": lat, "throughput": tp}}
	}
	// Front, left to right: (100,10), (200,30), (300,40); (250,20) is
	// dominated.
	cands := []Candidate{cand(300, 40), cand(100, 10), cand(250, 20), cand(200, 30)}
	tests := []struct {
		name string
		x, y OptimizationTarget
		// corner k between front points k and k+1 has the x of point
		// k+xFrom and the y of point k+yFrom.
		xFrom, yFrom int
	}{
		// Latency minimized on x, throughput maximized on y: the corner
		// takes the larger latency (the right point) and the smaller
		// throughput (the left point).
		{"lower x and higher y are better", TargetE2ELatency, TargetThroughput, 1, 0},
		// Throughput on x: the front runs (10,100), (30,200), (40,300);
		// the corner takes the smaller throughput (left) and the larger
		// latency (right).
		{"higher x and lower y are better", TargetThroughput, TargetE2ELatency, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := FrontSVG(&b, cands, tt.x, tt.y, PlotOptions{}); err != nil {
				t.Fatal(err)
			}
			var pts [][2]string
			for _, e := range readElements(t, b.Bytes()) {
				if e.name == "polyline" {
					for _, p := range strings.Fields(e.attrs["points"]) {
						xy := strings.Split(p, ",")
						pts = append(pts, [2]string{xy[0], xy[1]})
					}
				}
			}
			if len(pts) != 5 {
				t.Fatalf("staircase %v, want 3 points and 2 corners", pts)
			}
			for k := 0; k < 2; k++ {
				corner, from := pts[2*k+1], [2][2]string{pts[2*k], pts[2*k+2]}
				if corner[0] != from[tt.xFrom][0] || corner[1] != from[tt.yFrom][1] {
					t.Errorf("corner %d at %v between %v and %v", k, corner, from[0], from[1])
				}
			}
		})
	}
}

// TestFrontSVGKeepsCopiesInInputOrder draws a front holding two copies of
// one point: the front's points go left to right along x, and copies,
// which tie in x, in the order of the input.
func TestFrontSVGKeepsCopiesInInputOrder(t *testing.T) {
	cand := func(lat, tp float64) Candidate {
		return Candidate{Objectives: map[string]float64{"e2e_latency": lat, "throughput": tp}}
	}
	// Latency minimized on x: (100,10) and its copy, then (200,30).
	cands := []Candidate{cand(200, 30), cand(100, 10), cand(100, 10)}
	var b bytes.Buffer
	if err := FrontSVG(&b, cands, TargetE2ELatency, TargetThroughput, PlotOptions{}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"candidate 1: e2e_latency = 100 ms, throughput = 10 tok/s (Pareto front)",
		"candidate 2: e2e_latency = 100 ms, throughput = 10 tok/s (Pareto front)",
		"candidate 0: e2e_latency = 200 ms, throughput = 30 tok/s (Pareto front)",
	}
	if diff := cmp.Diff(want, readSVG(t, b.Bytes()).titles); diff != "" {
		t.Errorf("tooltips (-want +got):\n%s", diff)
	}
}

// TestHistorySVGStepLine reads the step line of a short history back:
// a value holds until the next one that differs, so 2, 2, 5, 5, 7.5 is
// the five points (1,2) (3,2) (3,5) (5,5) (5,7.5) in pixels — equal x at
// each rise, equal y along each hold — and the attribute is a plain list.
func TestHistorySVGStepLine(t *testing.T) {
	var b bytes.Buffer
	if err := HistorySVG(&b, []float64{2, 2, 5, 5, 7.5}, PlotOptions{}); err != nil {
		t.Fatal(err)
	}
	line := firstNamed(readElements(t, b.Bytes()), "polyline")
	if line == nil {
		t.Fatal("no step line")
	}
	points := line.attrs["points"]
	if points != strings.TrimSpace(points) || strings.Contains(points, "  ") {
		t.Errorf("points %q: want single spaces between points", points)
	}
	xs, ys := line.points(t)
	if len(xs) != 5 {
		t.Fatalf("%d points %q, want 5", len(xs), points)
	}
	// x: evaluations 1, 3, 3, 5, 5 left to right; y: 2, 2, 5, 5, 7.5 rising
	// (SVG's y grows downwards).
	if !(xs[0] < xs[1] && xs[1] == xs[2] && xs[2] < xs[3] && xs[3] == xs[4]) {
		t.Errorf("x %v: want a < b = b < c = c", xs)
	}
	if !(ys[0] == ys[1] && ys[1] > ys[2] && ys[2] == ys[3] && ys[3] > ys[4]) {
		t.Errorf("y %v: want p = p > q = q > r", ys)
	}
}

// TestNiceNumber pins Heckbert's rounding at each threshold: below 1.5
// times a power of ten rounds to 1, below 3 to 2, below 7 to 5, and the
// rest to 10; what is not a positive finite number comes back as it is.
func TestNiceNumber(t *testing.T) {
	for _, tc := range []struct{ x, want float64 }{
		{1, 1}, {1.49, 1}, {1.5, 2}, {2.99, 2}, {3, 5}, {6.99, 5}, {7, 10}, {9.99, 10},
		{15, 20}, {140, 100}, {300, 500}, {7000, 10000}, {0.25, 0.2},
		{0, 0}, {-3, -3}, {math.Inf(1), math.Inf(1)},
	} {
		if got := niceNumber(tc.x); got != tc.want {
			t.Errorf("niceNumber(%g) = %g, want %g", tc.x, got, tc.want)
		}
	}
	if got := niceNumber(math.NaN()); !math.IsNaN(got) {
		t.Errorf("niceNumber(NaN) = %g, want NaN", got)
	}
}

// TestNiceTicksAtMostAThousandSteps checks niceTicks' limit on either
// side, by hand: 0 and 910 padded by a twentieth of the span each way are
// [-45.5, 955.5]; 1001 ticks wanted give a step of niceNumber(1001/1000) =
// 1, so ticks -45…955, 1000 steps, the most it draws. 0 and 911 give
// -45…956, 1001 steps: only the frame's ends.
func TestNiceTicksAtMostAThousandSteps(t *testing.T) {
	lo, hi, ticks := niceTicks([]float64{0, 910}, 1001)
	if lo != -45.5 || hi != 955.5 || len(ticks) != 1001 || ticks[0] != -45 || ticks[1000] != 955 {
		t.Errorf("niceTicks(0, 910) = [%g, %g], %d ticks", lo, hi, len(ticks))
	}
	lo, hi, ticks = niceTicks([]float64{0, 911}, 1001)
	if !slices.Equal(ticks, []float64{lo, hi}) || lo != -45.55 || hi != 956.55 {
		t.Errorf("niceTicks(0, 911) = [%g, %g], ticks %v; want the ends only", lo, hi, ticks)
	}
}

// TestHistorySVGCirclesExactlyEightApart draws two changes exactly 8
// pixels apart, in x and then in y: a circle is skipped only under 8
// pixels from the last one drawn, so both are drawn.
//
// The picture is 368×250 pixels, so the frame runs x from 84 to 368-28 =
// 340 (256 wide) and y from 52 to 250-70 = 180 (128 high). 321 evaluations
// span 1..321, padded by (321/2-1/2)/10 = 16 on each side to -15..337, a
// span of 352, so px(e) = 84 + (e+15)/352*256. The values span 0..20,
// padded by (20/2-0/2)/10 = 1 to -1..21, a span of 22, so
// py(v) = 180 - (v+1)/22*128. Every quotient used below is a dyadic
// fraction, exact in float64, and so is every product and sum:
//
//	px(161) = 84 + 176/352*256 = 84 + 1/2*256   = 212
//	px(162) = 84 + 177/352*256 ≈ 212.73         (0.73 right of 161)
//	px(172) = 84 + 187/352*256 = 84 + 17/32*256 = 220 (8 right of 161)
//	py(10)     = 180 - 11/22*128     = 180 - 1/2*128  = 116
//	py(11.375) = 180 - 12.375/22*128 = 180 - 9/16*128 = 108 (8 above)
//	py(10.5)   = 180 - 11.5/22*128   ≈ 113.09           (2.91 above)
//
// The circles at evaluation 1 (x ≈ 95.64, y ≈ 174.18) and 321 (x ≈ 328.36,
// y ≈ 57.82) are far from the others.
func TestHistorySVGCirclesExactlyEightApart(t *testing.T) {
	type circle struct{ cx, cy, title string }
	for _, tt := range []struct {
		name   string
		values []float64 // the value from evaluation at[k] on
		at     []int
		want   []circle
	}{{
		// 161 and 172: 8 pixels apart in x, 2.91 in y.
		name:   "x",
		values: []float64{0, 10, 10.5, 20},
		at:     []int{1, 161, 172, 321},
		want: []circle{
			{"95.64", "174.18", "evaluation 1: hypervolume 0"},
			{"212", "116", "evaluation 161: hypervolume 10"},
			{"220", "113.09", "evaluation 172: hypervolume 10.5"},
			{"328.36", "57.82", "evaluation 321: hypervolume 20"},
		},
	}, {
		// 161 and 162: 0.73 pixels apart in x, 8 in y.
		name:   "y",
		values: []float64{0, 10, 11.375, 20},
		at:     []int{1, 161, 162, 321},
		want: []circle{
			{"95.64", "174.18", "evaluation 1: hypervolume 0"},
			{"212", "116", "evaluation 161: hypervolume 10"},
			{"212.73", "108", "evaluation 162: hypervolume 11.375"},
			{"328.36", "57.82", "evaluation 321: hypervolume 20"},
		},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			history := make([]float64, 321)
			for k, from := range tt.at {
				for e := from; e <= 321; e++ {
					history[e-1] = tt.values[k]
				}
			}
			var b bytes.Buffer
			if err := HistorySVG(&b, history, PlotOptions{Width: 368, Height: 250}); err != nil {
				t.Fatal(err)
			}
			var got []circle
			for _, e := range readElements(t, b.Bytes()) {
				if e.name == "circle" && e.group == "changes" {
					got = append(got, circle{e.attrs["cx"], e.attrs["cy"], e.text})
				}
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(circle{})); diff != "" {
				t.Errorf("change circles (-want +got):\n%s", diff)
			}
		})
	}
}
