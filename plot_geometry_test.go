package spica

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// The geometry tests read a picture back as elements and check how they
// sit against each other: the frame inside the canvas, grid lines and tick
// labels at the same pixels, every point where the tick labels say its
// values belong, the extreme points a twentieth of the span inside the
// frame, titles and legend clear of the frame. A layout slip moves an
// element where one of these relations no longer holds.

// tb is what the checks need of a *testing.T and a *rapid.T.
type tb interface {
	Helper()
	Errorf(string, ...any)
	Fatalf(string, ...any)
}

// svgElement is one element of a picture: its attributes, its text (the
// text of its <title> for a circle, its tspans joined by a space for a
// text) and the class of the group around it.
type svgElement struct {
	name   string
	attrs  map[string]string
	text   string
	lines  []string // a text's tspans
	dys    []string // and their dy attributes
	titled bool     // whether it holds a <title>
	group  string
}

func readElements(t tb, data []byte) []*svgElement {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	var all, stack []*svgElement
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("malformed SVG: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &svgElement{name: tok.Name.Local, attrs: map[string]string{}}
			for _, a := range tok.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i].name == "g" {
					e.group = stack[i].attrs["class"]
					break
				}
			}
			if e.name == "title" && len(stack) > 0 {
				stack[len(stack)-1].titled = true
			}
			if e.name == "tspan" && len(stack) > 0 {
				if stack[len(stack)-1].text != "" {
					stack[len(stack)-1].text += " "
				}
				stack[len(stack)-1].lines = append(stack[len(stack)-1].lines, "")
				stack[len(stack)-1].dys = append(stack[len(stack)-1].dys, e.attrs["dy"])
			}
			stack = append(stack, e)
			if e.name != "title" && e.name != "tspan" {
				all = append(all, e)
			}
		case xml.CharData:
			// A title's and a tspan's text belongs to the element around them.
			for i := len(stack) - 1; i >= 0; i-- {
				if n := stack[i].name; n != "title" && n != "tspan" {
					stack[i].text += string(tok)
					if l := stack[i].lines; len(l) > 0 && stack[len(stack)-1].name == "tspan" {
						l[len(l)-1] += string(tok)
					}
					break
				}
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 0 {
		t.Fatalf("unclosed elements in SVG")
	}
	return all
}

// firstNamed is the first element called name, or nil.
func firstNamed(els []*svgElement, name string) *svgElement {
	for _, e := range els {
		if e.name == name {
			return e
		}
	}
	return nil
}

// points reads a polyline's points attribute as pixel coordinates.
func (e *svgElement) points(t tb) (xs, ys []float64) {
	t.Helper()
	for _, pt := range strings.Fields(e.attrs["points"]) {
		var x, y float64
		if _, err := fmt.Sscanf(pt, "%g,%g", &x, &y); err != nil {
			t.Fatalf("point %q: %v", pt, err)
		}
		xs, ys = append(xs, x), append(ys, y)
	}
	return xs, ys
}

func (e *svgElement) num(t tb, name string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(e.attrs[name], 64)
	if err != nil {
		t.Fatalf("<%s %s=%q>: %v", e.name, name, e.attrs[name], err)
	}
	return v
}

// translate reads "translate(x y)" off a transform.
func (e *svgElement) translate(t tb) (x, y float64) {
	t.Helper()
	tr := e.attrs["transform"]
	if _, err := fmt.Sscanf(tr, "translate(%g %g)", &x, &y); err != nil {
		t.Fatalf("transform %q: %v", tr, err)
	}
	return x, y
}

// near reports whether two pixel positions agree to within tol.
// A NaN (a position one tick cannot give) is near anything.
func near(a, b, tol float64) bool { return !(math.Abs(a-b) > tol) }

// scaleOf reads the power of ten an axis title says the tick labels leave
// out ("×10⁶"), 0 when it says none.
func scaleOf(t tb, title string) int {
	t.Helper()
	i := strings.Index(title, "×10")
	if i < 0 {
		return 0
	}
	digits := strings.NewReplacer("⁰", "0", "¹", "1", "²", "2", "³", "3", "⁴", "4", "⁵", "5", "⁶", "6", "⁷", "7", "⁸", "8", "⁹", "9", "⁻", "-")
	s := title[i+len("×10"):]
	end := strings.IndexAny(s, " ,)")
	if end >= 0 {
		s = s[:end]
	}
	n, err := strconv.Atoi(digits.Replace(s))
	if err != nil {
		t.Fatalf("scale in axis title %q: %v", title, err)
	}
	return n
}

// tickAxis is an axis as its tick labels give it: value = at(pixel).
type tickAxis struct {
	pixels, values []float64
	texts          []string // the labels as written
}

// pixel is where the ticks put v, interpolating between the first and the
// last tick; with one tick it says nothing, and returns NaN.
func (a tickAxis) pixel(v float64) float64 {
	n := len(a.values) - 1
	if n < 1 {
		return math.NaN()
	}
	// Halves keep a span beyond MaxFloat64 finite.
	return a.pixels[0] + (v/2-a.values[0]/2)/(a.values[n]/2-a.values[0]/2)*(a.pixels[n]-a.pixels[0])
}

// picture is what checkLayout found.
type picture struct {
	w, h                  float64
	left, right, top, bot float64
	x, y                  tickAxis
	elements              []*svgElement
}

// checkLayout checks what FrontSVG and HistorySVG draw alike, on a picture
// of wantW×wantH pixels whose title is title, and returns where the frame
// and the ticks are.
func checkLayout(t tb, data []byte, wantW, wantH int, title string) picture {
	t.Helper()
	els := readElements(t, data)
	p := picture{elements: els}
	var frame, titleText, xTitle, yTitle *svgElement
	var vgrid, hgrid, xticks, yticks []*svgElement
	for _, e := range els {
		switch {
		case e.name == "svg":
			p.w, p.h = e.num(t, "width"), e.num(t, "height")
			if want := fmt.Sprintf("0 0 %d %d", wantW, wantH); e.attrs["viewBox"] != want {
				t.Errorf("viewBox %q, want %q", e.attrs["viewBox"], want)
			}
		case e.name == "rect" && e.attrs["stroke"] == "#999999":
			frame = e
		case e.name == "rect":
			if e.num(t, "width") != p.w || e.num(t, "height") != p.h {
				t.Errorf("background %s×%s, want the canvas %g×%g", e.attrs["width"], e.attrs["height"], p.w, p.h)
			}
		case e.name == "line" && e.attrs["x1"] == e.attrs["x2"]:
			vgrid = append(vgrid, e)
		case e.name == "line":
			hgrid = append(hgrid, e)
		case e.name == "text" && e.attrs["font-weight"] == "bold":
			titleText = e
		case e.name == "text" && e.attrs["text-anchor"] == "end":
			yticks = append(yticks, e)
		case e.name == "text" && e.attrs["transform"] != "":
			if strings.Contains(e.attrs["transform"], "rotate(-90)") {
				yTitle = e
			} else {
				xTitle = e
			}
		case e.name == "text" && e.attrs["text-anchor"] == "middle":
			xticks = append(xticks, e)
		}
	}
	if p.w != float64(wantW) || p.h != float64(wantH) {
		t.Fatalf("canvas %g×%g, want %d×%d", p.w, p.h, wantW, wantH)
	}
	if frame == nil || titleText == nil || xTitle == nil || yTitle == nil {
		t.Fatalf("frame %v, title %v, axis titles %v %v: want each", frame, titleText, xTitle, yTitle)
	}
	p.left, p.top = frame.num(t, "x"), frame.num(t, "y")
	p.right, p.bot = p.left+frame.num(t, "width"), p.top+frame.num(t, "height")
	// The frame keeps 84 pixels on the left for the y tick labels and the
	// y axis title, 28 on the right, 52 above for the title and legend,
	// 70 below for the x tick labels and the x axis title.
	if p.left != 84 || p.right != p.w-28 || p.top != 52 || p.bot != p.h-70 {
		t.Errorf("frame [%g, %g]×[%g, %g] on %g×%g, want [84, %g]×[52, %g]", p.left, p.right, p.top, p.bot, p.w, p.h, p.w-28, p.h-70)
	}

	// Grid lines span the frame, one per tick label, at the same pixels.
	for _, l := range vgrid {
		if l.num(t, "y1") != p.top || l.num(t, "y2") != p.bot || !(p.left <= l.num(t, "x1") && l.num(t, "x1") <= p.right) {
			t.Errorf("vertical grid line %v outside the frame", l.attrs)
		}
	}
	for _, l := range hgrid {
		if l.num(t, "x1") != p.left || l.num(t, "x2") != p.right || !(p.top <= l.num(t, "y1") && l.num(t, "y1") <= p.bot) {
			t.Errorf("horizontal grid line %v outside the frame", l.attrs)
		}
	}
	if len(vgrid) != len(xticks) || len(hgrid) != len(yticks) {
		t.Fatalf("%d and %d grid lines for %d and %d tick labels", len(vgrid), len(hgrid), len(xticks), len(yticks))
	}
	p.x = readTicks(t, "x", xticks, vgrid, scaleOf(t, xTitle.text), "y", p.bot+17, "17 pixels under the frame")
	p.y = readTicks(t, "y", yticks, hgrid, scaleOf(t, yTitle.text), "x", p.left-7, "7 pixels left of the frame")
	checkTicks(t, "x", p.x, p.left, p.right, +1)
	checkTicks(t, "y", p.y, p.bot, p.top, -1)

	// The title above the frame at its left edge, its font no larger than
	// 15 and no smaller than 8, small enough to fit the canvas unless at 8.
	if titleText.text != title {
		t.Errorf("title %q, want %q", titleText.text, title)
	}
	size := titleText.num(t, "font-size")
	if titleText.num(t, "x") != p.left || !(0 < titleText.num(t, "y") && titleText.num(t, "y") < p.top) {
		t.Errorf("title at (%s, %s), want at x=%g above y=%g", titleText.attrs["x"], titleText.attrs["y"], p.left, p.top)
	}
	// Between 8 and 15 the size is the largest whole one that fits.
	avail, letters := p.w-p.left-8, 0.62*float64(utf8.RuneCountInString(title))
	if size > 15 || size < 8 || size > 8 && size*letters > avail || size < 15 && (size+1)*letters <= avail {
		t.Errorf("title font %g for %d letters on %g pixels", size, utf8.RuneCountInString(title), p.w-p.left-8)
	}

	// The axis titles centred on their axes, past the tick labels.
	if x, y := xTitle.translate(t); x != (p.left+p.right)/2 || y != p.bot+38 {
		t.Errorf("x axis title at (%g, %g), want (%g, %g)", x, y, (p.left+p.right)/2, p.bot+38)
	}
	if x, y := yTitle.translate(t); x != 16 || y != (p.top+p.bot)/2 {
		t.Errorf("y axis title at (%g, %g), want (16, %g)", x, y, (p.top+p.bot)/2)
	}
	checkAxisTitle(t, xTitle, p.right-p.left)
	checkAxisTitle(t, yTitle, p.bot-p.top)

	// A note sits at the canvas's bottom left, under the x axis title.
	for _, e := range els {
		if e.name == "text" && e.attrs["class"] == "note" {
			if x, y := e.num(t, "x"), e.num(t, "y"); !(0 < x && x < p.left) || !(p.bot+38 < y && y < p.h) {
				t.Errorf("note %q at (%g, %g), want left of x=%g and between y=%g and the canvas's bottom %g", e.text, x, y, p.left, p.bot+38, p.h)
			}
		}
	}
	return p
}

// readTicks reads an axis's tick labels (axis "x" or "y"), each at the
// pixel of its grid line along the axis and at across (its other
// coordinate) wantAcross, and their values, which the axis title's scale
// multiplies.
func readTicks(t tb, axis string, labels, grid []*svgElement, scale int, across string, wantAcross float64, where string) tickAxis {
	t.Helper()
	var a tickAxis
	for k, e := range labels {
		at, gridAt := e.num(t, axis), grid[k].num(t, axis+"1")
		if at != gridAt {
			t.Errorf("%s tick label %q at %s=%g, its grid line at %g", axis, e.text, axis, at, gridAt)
		}
		if v := e.num(t, across); v != wantAcross {
			t.Errorf("%s tick label %q at %s=%g, want %s (%g)", axis, e.text, across, v, where, wantAcross)
		}
		a.pixels = append(a.pixels, at)
		a.values = append(a.values, tickValue(t, e.text, scale))
		a.texts = append(a.texts, e.text)
	}
	return a
}

// checkAxisTitle checks how an axis title was fitted to its axis: on one
// line when it fits at 12 pixels, else split before its parenthesis; at
// the largest whole font size up to 12 at which every line fits, or at 8,
// the smallest.
func checkAxisTitle(t tb, e *svgElement, length float64) {
	t.Helper()
	width := func(s string, size float64) float64 { return 0.58 * size * float64(utf8.RuneCountInString(s)) }
	want := []string{e.text}
	if i := strings.Index(e.text, " ("); i > 0 && width(e.text, 12) > length {
		want = []string{e.text[:i], e.text[i+1:]}
	}
	if !slices.Equal(e.lines, want) {
		t.Errorf("axis title in lines %q on %g pixels, want %q", e.lines, length, want)
	}
	// The first line at the title's anchor, a second one line below.
	if wantDy := []string{"0", "1.2em"}[:len(e.lines)]; !slices.Equal(e.dys, wantDy) {
		t.Errorf("axis title lines %q at dy %q, want %q", e.lines, e.dys, wantDy)
	}
	size, fits := e.num(t, "font-size"), 12.0
	for _, l := range want {
		if width(l, fits) > length {
			fits = max(8, math.Floor(length/width(l, 1)))
		}
	}
	if size != fits {
		t.Errorf("axis title %q at font size %g on %g pixels, want %g", e.text, size, length, fits)
	}
}

func tickValue(t tb, text string, scale int) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		t.Fatalf("tick label %q: %v", text, err)
	}
	return v * math.Pow(10, float64(scale))
}

// checkTicks checks an axis's ticks: at least one, all inside the frame;
// and when there are two or more, evenly spaced, values rising in the
// direction dir of pixels from lo to hi, and none missing at either end
// (one more step would leave the frame).
func checkTicks(t tb, name string, a tickAxis, lo, hi, dir float64) {
	t.Helper()
	n := len(a.pixels)
	if n == 0 {
		t.Fatalf("%s axis: no tick", name)
	}
	for _, px := range a.pixels {
		if (px-lo)*dir < 0 || (hi-px)*dir < 0 {
			t.Errorf("%s tick at %g outside the frame [%g, %g]", name, px, lo, hi)
		}
	}
	if n == 1 {
		// A short axis over a span just under a round step holds one
		// tick: nothing to space or to read a scale off.
		return
	}
	gap := (a.pixels[n-1] - a.pixels[0]) / float64(n-1)
	for k := range n {
		if !near(a.pixels[k], a.pixels[0]+float64(k)*gap, 0.02) {
			t.Errorf("%s ticks at %v: not evenly spaced", name, a.pixels)
		}
	}
	if gap*dir <= 0 || a.values[n-1] <= a.values[0] {
		t.Errorf("%s ticks %v at %v: want values rising along the axis", name, a.values, a.pixels)
	}
	// A tick that rounding puts on the frame's edge may fall either way.
	if (a.pixels[0]-gap-lo)*dir > 0.05 || (hi-a.pixels[n-1]-gap)*dir > 0.05 {
		t.Errorf("%s ticks at %v leave room for another in [%g, %g]", name, a.pixels, lo, hi)
	}
}

// checkPadding checks that the extreme values sit a twentieth of their
// span inside the ends of the range shown: pixels at 1/22 and 21/22 of the
// frame.
func checkPadding(t tb, name string, pixels []float64, lo, hi float64) {
	t.Helper()
	least, most := math.Inf(1), math.Inf(-1)
	for _, v := range pixels {
		least, most = min(least, v), max(most, v)
	}
	if !near(least, lo+(hi-lo)/22, 0.02) || !near(most, hi-(hi-lo)/22, 0.02) {
		t.Errorf("%s: extreme points at %g and %g, want %g and %g", name, least, most, lo+(hi-lo)/22, hi-(hi-lo)/22)
	}
}

func TestFrontSVGGeometry(t *testing.T) {
	sizes := []struct{ w, h, wantW, wantH int }{
		{0, 0, 720, 480}, {100, 100, 320, 200}, {1200, 300, 1200, 300}, {400, 900, 400, 900},
	}
	rapid.Check(t, func(t *rapid.T) {
		size := rapid.SampledFrom(sizes).Draw(t, "size")
		// Magnitudes that give ticks with decimals, plain ticks and ticks
		// with a scale in the axis title.
		// 1e306 spans ±1e307 around 0 and 1e307 spans ±1e308, beyond
		// MaxFloat64.
		mags := []float64{1e-5, 1, 300, 1e7, 1e306, 1e307}
		magX := rapid.SampledFrom(mags).Draw(t, "magX")
		magY := rapid.SampledFrom(mags).Draw(t, "magY")
		lowest := 0
		if magX > 1e300 || magY > 1e300 {
			lowest = -1000
		}
		n := rapid.IntRange(2, 12).Draw(t, "n")
		lat, tp := make([]float64, n), make([]float64, n)
		for i := range n {
			lat[i] = float64(rapid.IntRange(lowest, 1000).Draw(t, "lat")) / 100 * magX
			tp[i] = float64(rapid.IntRange(lowest, 1000).Draw(t, "tp")) / 100 * magY
		}
		if lat[0] == lat[1] || tp[0] == tp[1] {
			lat[1], tp[1] = lat[0]+magX, tp[0]+magY // a span on both axes
		}
		cands := make([]Candidate, n)
		for i := range cands {
			cands[i] = Candidate{Objectives: map[string]float64{"e2e_latency": lat[i], "throughput": tp[i]}}
		}
		// Candidates that cannot be drawn, counted in a note.
		undrawn := rapid.IntRange(0, 2).Draw(t, "undrawn")
		for range undrawn {
			cands = append(cands, Candidate{Objectives: map[string]float64{"e2e_latency": math.NaN(), "throughput": 1}})
		}
		// A title of any length: the longer ones are shrunk to fit.
		title := strings.Repeat("Wide title ", rapid.IntRange(0, 12).Draw(t, "title"))
		title += strings.Repeat("i", rapid.IntRange(0, 10).Draw(t, "letters"))
		var b bytes.Buffer
		opt := PlotOptions{Width: size.w, Height: size.h, Title: title}
		if err := FrontSVG(&b, cands, TargetE2ELatency, TargetThroughput, opt); err != nil {
			t.Fatal(err)
		}
		if title == "" {
			title = "Pareto front: throughput against e2e_latency"
		}
		p := checkLayout(t, b.Bytes(), size.wantW, size.wantH, title)
		var cx, cy []float64
		var legend []*svgElement
		for _, e := range p.elements {
			if e.name == "circle" && e.group == "" {
				legend = append(legend, e)
				continue
			}
			if e.name != "circle" {
				continue
			}
			var i int
			if _, err := fmt.Sscanf(e.text, "candidate %d:", &i); err != nil {
				t.Fatalf("tooltip %q: %v", e.text, err)
			}
			x, y := e.num(t, "cx"), e.num(t, "cy")
			if !near(x, p.x.pixel(lat[i]), 0.5) || !near(y, p.y.pixel(tp[i]), 0.5) {
				t.Errorf("candidate %d (%g, %g) at (%g, %g); the ticks put it at (%.2f, %.2f)", i, lat[i], tp[i], x, y, p.x.pixel(lat[i]), p.y.pixel(tp[i]))
			}
			wantR := map[string]float64{"front": 5, "dominated": 4}[e.group]
			if e.num(t, "r") != wantR {
				t.Errorf("%s circle of radius %s, want %g", e.group, e.attrs["r"], wantR)
			}
			cx, cy = append(cx, x), append(cy, y)
		}
		if len(cx) != n {
			t.Fatalf("%d points for %d candidates", len(cx), n)
		}
		var notes []string
		for _, e := range p.elements {
			if e.attrs["class"] == "note" {
				notes = append(notes, e.text)
			}
		}
		if want := fmt.Sprintf("%d of %d candidates not drawn: a NaN or infinite value", undrawn, n+undrawn); undrawn > 0 && !slices.Equal(notes, []string{want}) || undrawn == 0 && len(notes) > 0 {
			t.Errorf("notes %q with %d candidates not drawn", notes, undrawn)
		}
		checkPadding(t, "x", cx, p.left, p.right)
		checkPadding(t, "y", cy, p.top, p.bot)

		// The legend: two circles between the title and the frame, each
		// with its text just right of it, the second clear of the first's
		// text.
		var legendTexts []*svgElement
		for _, e := range p.elements {
			if e.name == "text" && (strings.HasPrefix(e.text, "Pareto front (") || strings.HasPrefix(e.text, "dominated (")) {
				legendTexts = append(legendTexts, e)
			}
		}
		if len(legend) != 2 || len(legendTexts) != 2 {
			t.Fatalf("legend of %d circles and %d texts, want 2 and 2", len(legend), len(legendTexts))
		}
		for k, c := range legend {
			x, y, text := c.num(t, "cx"), c.num(t, "cy"), legendTexts[k]
			if !(22 < y && y < p.top) || text.num(t, "y") != y {
				t.Errorf("legend circle at y=%g and its text at y=%s, want both between the title and the frame (%g)", y, text.attrs["y"], p.top)
			}
			if gap := text.num(t, "x") - x; gap != 10 {
				t.Errorf("legend text %q %g pixels right of its circle, want 10", text.text, gap)
			}
		}
		if x := legend[0].num(t, "cx"); x != p.left+5 {
			t.Errorf("legend starts at x=%g, want 5 pixels into the frame (%g)", x, p.left+5)
		}
		if end := legendTexts[0].num(t, "x") + 0.58*11*float64(utf8.RuneCountInString(legendTexts[0].text)); end >= legend[1].num(t, "cx")-4 {
			t.Errorf("legend text %q ends near x=%g, over the second circle at %g", legendTexts[0].text, end, legend[1].num(t, "cx"))
		}
		if legend[0].num(t, "r") != 5 || legend[1].num(t, "r") != 4 {
			t.Errorf("legend circles of radius %s and %s, want 5 and 4 as the points they stand for", legend[0].attrs["r"], legend[1].attrs["r"])
		}
	})
}

func TestHistorySVGGeometry(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.SampledFrom([]int{0, 320, 1000}).Draw(t, "w")
		wantW := map[int]int{0: 720, 320: 320, 1000: 1000}[w]
		n := rapid.IntRange(2, 60).Draw(t, "n")
		mag := rapid.SampledFrom([]float64{1e-6, 1, 500, 3e8}).Draw(t, "mag")
		history := make([]float64, n)
		for i := 1; i < n; i++ {
			history[i] = history[i-1] + mag*float64(rapid.IntRange(0, 3).Draw(t, "rise"))
		}
		history[n-1] += mag // a span
		var b bytes.Buffer
		if err := HistorySVG(&b, history, PlotOptions{Width: w, Title: "Sweep"}); err != nil {
			t.Fatal(err)
		}
		p := checkLayout(t, b.Bytes(), wantW, 480, "Sweep")
		for _, v := range p.x.values {
			if v != math.Trunc(v) {
				t.Errorf("evaluation tick %g is not a whole number", v)
			}
		}
		var lastX, lastY float64 = math.Inf(-1), math.Inf(-1)
		circles := 0
		for _, e := range p.elements {
			if e.name != "circle" {
				continue
			}
			var k int
			var v float64
			if _, err := fmt.Sscanf(e.text, "evaluation %d: hypervolume %g", &k, &v); err != nil {
				t.Fatalf("tooltip %q: %v", e.text, err)
			}
			if k > 1 && history[k-1] == history[k-2] {
				t.Errorf("a circle at evaluation %d, where the value did not change", k)
			}
			x, y := e.num(t, "cx"), e.num(t, "cy")
			if !near(x, p.x.pixel(float64(k)), 0.5) || !near(y, p.y.pixel(history[k-1]), 0.5) {
				t.Errorf("evaluation %d (%g) at (%g, %g); the ticks put it at (%.2f, %.2f)", k, history[k-1], x, y, p.x.pixel(float64(k)), p.y.pixel(history[k-1]))
			}
			if math.Abs(x-lastX) < 8 && math.Abs(y-lastY) < 8 {
				t.Errorf("circles at (%g, %g) and (%g, %g), within 8 pixels", lastX, lastY, x, y)
			}
			if e.num(t, "r") != 3.5 {
				t.Errorf("change circle of radius %s, want 3.5", e.attrs["r"])
			}
			lastX, lastY = x, y
			circles++
		}
		if circles == 0 {
			t.Fatal("no circle: want one at evaluation 1 at least")
		}
		// Evaluations 1 and n, padded like any axis; the values likewise.
		checkPadding(t, "evaluations", []float64{p.x.pixel(1), p.x.pixel(float64(n))}, p.left, p.right)
		checkPadding(t, "values", []float64{p.y.pixel(history[0]), p.y.pixel(history[n-1])}, p.top, p.bot)
		// The step line runs from evaluation 1 to n, every corner where the
		// ticks put an evaluation and a value of the history.
		line := firstNamed(p.elements, "polyline")
		if line == nil {
			t.Fatal("no step line")
		}
		xs, ys := line.points(t)
		if !near(xs[0], p.x.pixel(1), 0.5) || !near(xs[len(xs)-1], p.x.pixel(float64(n)), 0.5) {
			t.Errorf("step line from x=%g to %g, want %.2f to %.2f", xs[0], xs[len(xs)-1], p.x.pixel(1), p.x.pixel(float64(n)))
		}
		if !near(ys[0], p.y.pixel(history[0]), 0.5) || !near(ys[len(ys)-1], p.y.pixel(history[n-1]), 0.5) {
			t.Errorf("step line from y=%g to %g, want %.2f to %.2f", ys[0], ys[len(ys)-1], p.y.pixel(history[0]), p.y.pixel(history[n-1]))
		}
		for k := 1; k < len(xs); k++ {
			if xs[k] < xs[k-1] || ys[k] > ys[k-1] || xs[k] != xs[k-1] && ys[k] != ys[k-1] {
				t.Errorf("step line %q: segment %d goes neither right nor up", line.attrs["points"], k)
			}
		}
	})
}
