package spica

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// PlotOptions sets up [FrontSVG] and [HistorySVG].
type PlotOptions struct {
	// Title is drawn above the plot; "" gives a default naming what is
	// drawn.
	Title string
	// Width and Height are the picture's size in pixels; 0 (or less) means
	// 720 wide or 480 high, and sizes below 320×200 are raised to it so
	// that the axes keep room for their labels.
	Width, Height int
	// Label is a point's tooltip in FrontSVG; nil means its index and
	// values. HistorySVG does not use it.
	Label func(c Candidate) string
}

// axisUnits is the unit each target's values are in.
var axisUnits = [...]string{
	TargetThroughput:        "tok/s",
	TargetThroughputPerGPU:  "tok/s/gpu",
	TargetThroughputPerUser: "tok/s/user",
	TargetE2ELatency:        "ms",
	TargetGoodput:           "tok/s",
	TargetGoodputPerGPU:     "tok/s/gpu",
}

// FrontSVG writes a standalone SVG picture of cands on the targets x and y,
// the way a serving engineer looks at a front before reading it: every
// candidate a point (values by the rule of [ParetoFront]), the dominated
// ones small and grey, the Pareto front of x and y large and red, joined by
// the staircase that bounds the region it dominates in the two targets'
// directions. Each point is a <circle> with a <title> tooltip (opt.Label,
// or the candidate's index and values). The axes are labelled with the
// target names, units and directions, with ticks at round numbers; values
// on an axis within a billionth of each other are drawn as one, since no
// axis can set them apart. A candidate with a NaN or infinite value cannot be placed: it is left out,
// and a note under the plot counts such candidates; the front drawn is that
// of the candidates drawn.
//
// The output is well-formed XML whose bytes depend only on the arguments.
// An unknown target for x or y is an error wrapping [ErrUnknownTarget], pareto
// or x == y one wrapping [ErrInvalidParetoObjectives], each with Path "x" or
// "y"; a candidate without a value is an error as in [ObjectiveMatrix]; and
// w's errors are returned as they are. It costs one [NonDominated] call and
// O(n) writes; cands is not modified.
func FrontSVG(w io.Writer, cands []Candidate, x, y OptimizationTarget, opt PlotOptions) error {
	if err := checkAxisTargets(x, y); err != nil {
		return err
	}
	targets := []OptimizationTarget{x, y}
	values, maximize, err := ObjectiveMatrix(cands, targets)
	if err != nil {
		return err
	}
	var drawn []int
	var xy []float64
	for i := range cands {
		vx, vy := values[2*i], values[2*i+1]
		if isFinite(vx) && isFinite(vy) {
			drawn = append(drawn, i)
			xy = append(xy, vx, vy)
		}
	}
	front := make([]bool, len(drawn))
	frontRows, _ := NonDominated(xy, 2, maximize) // the shape is right by construction
	for _, p := range frontRows {
		front[p] = true
	}
	title := opt.Title
	if title == "" {
		title = fmt.Sprintf("Pareto front: %s against %s", y, x)
	}
	p := newPlot(opt, title)
	xs, ys := make([]float64, 0, len(drawn)), make([]float64, 0, len(drawn))
	for q := range drawn {
		xs, ys = append(xs, xy[2*q]), append(ys, xy[2*q+1])
	}
	p.axes(xs, ys, targetAxis(x), targetAxis(y))

	label := func(q int) string {
		i := drawn[q]
		if opt.Label != nil {
			return opt.Label(cands[i])
		}
		s := fmt.Sprintf("candidate %d: %s = %s %s, %s = %s %s", i,
			x, formatValue(xs[q]), axisUnits[x], y, formatValue(ys[q]), axisUnits[y])
		if front[q] {
			s += " (Pareto front)"
		}
		return s
	}
	// The dominated cloud first, so that the front is drawn over it.
	p.printf(`<g class="dominated" fill="#7f7f7f" fill-opacity="0.6">` + "\n")
	for q := range drawn {
		if !front[q] {
			p.circle(p.px(xs[q]), p.py(ys[q]), 4, label(q))
		}
	}
	p.printf("</g>\n")
	// The staircase: consecutive front points along x meet at the corner
	// both of them dominate, the worse of the two in each target.
	order := slices.Clone(frontRows)
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(xs[a], xs[b]) })
	if len(order) > 1 {
		p.printf(`<polyline fill="none" stroke="#c0392b" stroke-width="1.5" stroke-linejoin="round" points="`)
		for k, q := range order {
			if k > 0 {
				prev := order[k-1]
				cx, cy := worse(xs[prev], xs[q], maximize[0]), worse(ys[prev], ys[q], maximize[1])
				p.printf(" %s,%s", coord(p.px(cx)), coord(p.py(cy)))
				p.printf(" ")
			}
			p.printf("%s,%s", coord(p.px(xs[q])), coord(p.py(ys[q])))
		}
		p.printf(`"/>` + "\n")
	}
	p.printf(`<g class="front" fill="#c0392b" stroke="#ffffff" stroke-width="1">` + "\n")
	for _, q := range order {
		p.circle(p.px(xs[q]), p.py(ys[q]), 5, label(q))
	}
	p.printf("</g>\n")
	p.legend(len(order), len(drawn)-len(order))
	if left := len(cands) - len(drawn); left > 0 {
		p.note(fmt.Sprintf("%d of %d candidates not drawn: a NaN or infinite value", left, len(cands)))
	}
	return p.end(w)
}

// checkAxisTargets checks FrontSVG's x and y as checkObjectives checks a
// list, naming the parameters x and y: each a known target
// ([ErrUnknownTarget]) other than pareto, and two different ones
// ([ErrInvalidParetoObjectives]).
func checkAxisTargets(x, y OptimizationTarget) error {
	for _, a := range [...]struct {
		name string
		t    OptimizationTarget
	}{{"x", x}, {"y", y}} {
		if !a.t.IsValid() {
			return unknownTargetValue(a.name, a.t)
		}
		if a.t == TargetPareto {
			return errorf(ErrInvalidParetoObjectives, a.name, "is pareto, which has no single value to plot")
		}
	}
	if x == y {
		return errorf(ErrInvalidParetoObjectives, "y", "is %s, the target of x too; a front needs two targets", y)
	}
	return nil
}

// HistorySVG writes a standalone SVG picture of a hypervolume history (see
// [HypervolumeHistory]), or of any series that should not decrease, as a
// step line over evaluation number 1..n: each value holds until the next
// one that differs, and each change is a <circle> with a <title> tooltip
// (but for changes within 8 pixels of the last circle, which would only
// blur the line).
// The y axis spans the values, with ticks at round numbers (values within
// a billionth of each other are drawn as one, as in FrontSVG). NaN and
// infinite entries are left out and counted in a note under the plot.
// opt.Label is not used. The output is well-formed XML whose bytes depend
// only on the arguments; the only error is w's. history is not modified.
func HistorySVG(w io.Writer, history []float64, opt PlotOptions) error {
	title := opt.Title
	if title == "" {
		title = "Hypervolume history"
	}
	p := newPlot(opt, title)
	var xs, ys []float64
	for i, v := range history {
		if isFinite(v) {
			xs, ys = append(xs, float64(i+1)), append(ys, v)
		}
	}
	xr := []float64{1, max(float64(len(history)), 1)}
	p.axes(xr, ys, axis{name: "evaluation", integer: true}, axis{name: "hypervolume"})
	if len(ys) > 0 {
		// The step line in pixels: a value holds until the next one that
		// differs. Steps that fall in the same pixel column merge into one
		// vertical stroke, so a long history does not repeat itself.
		var line [][2]float64
		put := func(x, y float64) {
			if n := len(line); n > 1 && math.Floor(line[n-1][0]) == math.Floor(x) && line[n-2][0] == line[n-1][0] {
				line[n-1][1] = y // continue the vertical stroke
				return
			}
			line = append(line, [2]float64{x, y})
		}
		put(p.px(xs[0]), p.py(ys[0]))
		for k := 1; k < len(ys); k++ {
			if ys[k] != ys[k-1] {
				put(p.px(xs[k]), p.py(ys[k-1]))
				put(p.px(xs[k]), p.py(ys[k]))
			}
		}
		put(p.px(xr[1]), p.py(ys[len(ys)-1]))
		p.printf(`<polyline fill="none" stroke="#1f6fb4" stroke-width="1.8" stroke-linejoin="round" points="`)
		for k, pt := range line {
			if k > 0 {
				p.printf(" ")
			}
			p.printf("%s,%s", coord(pt[0]), coord(pt[1]))
		}
		p.printf(`"/>` + "\n")
		// A circle at each change, except within 8 pixels of the last one
		// drawn, where it would only blur the line.
		p.printf(`<g class="changes" fill="#1f6fb4" stroke="#ffffff" stroke-width="1">` + "\n")
		var lastX, lastY float64
		for k := range ys {
			if k > 0 && ys[k] == ys[k-1] {
				continue
			}
			x, y := p.px(xs[k]), p.py(ys[k])
			if k != 0 && math.Abs(x-lastX) < 8 && math.Abs(y-lastY) < 8 {
				continue
			}
			lastX, lastY = x, y
			p.circle(x, y, 3.5, fmt.Sprintf("evaluation %d: hypervolume %s", int(xs[k]), formatValue(ys[k])))
		}
		p.printf("</g>\n")
	}
	if left := len(history) - len(ys); left > 0 {
		p.note(fmt.Sprintf("%d of %d values not drawn: NaN or infinite", left, len(history)))
	}
	return p.end(w)
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// worse returns the worse of a and b in a column's direction.
func worse(a, b float64, maximize bool) float64 {
	if maximize {
		return min(a, b)
	}
	return max(a, b)
}

// axis says what an axis shows: a name, a unit and which way is better
// ("" when neither applies).
type axis struct {
	name, unit, better string
	integer            bool // only whole numbers mean something (evaluations)
}

func targetAxis(t OptimizationTarget) axis {
	better := "higher is better"
	if up, _ := t.Maximize(); !up {
		better = "lower is better"
	}
	return axis{name: t.String(), unit: axisUnits[t], better: better}
}

// label is the axis title; scale is the power of ten the tick labels leave
// out ("" for none).
func (a axis) label(scale string) string {
	var parts []string
	if u := strings.TrimSpace(scale + " " + a.unit); u != "" {
		parts = append(parts, u)
	}
	if a.better != "" {
		parts = append(parts, a.better)
	}
	if len(parts) == 0 {
		return a.name
	}
	return a.name + " (" + strings.Join(parts, ", ") + ")"
}

// The layout of a plot, in pixels: the frame of the data area sits inside
// these margins.
const (
	marginLeft   = 84
	marginRight  = 28
	marginTop    = 52
	marginBottom = 70
)

// plot accumulates one SVG document.
type plot struct {
	buf                   bytes.Buffer
	w, h                  int
	left, right, top, bot float64 // the data frame
	xlo, xhi, ylo, yhi    float64 // the data range the frame shows
}

func newPlot(opt PlotOptions, title string) *plot {
	p := &plot{w: opt.Width, h: opt.Height}
	if p.w <= 0 {
		p.w = 720
	}
	if p.h <= 0 {
		p.h = 480
	}
	p.w, p.h = max(p.w, 320), max(p.h, 200)
	p.left, p.right = marginLeft, float64(p.w-marginRight)
	p.top, p.bot = marginTop, float64(p.h-marginBottom)
	p.printf(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	p.printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif" font-size="12" fill="#333333">`+"\n",
		p.w, p.h, p.w, p.h)
	p.printf(`<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", p.w, p.h)
	size := fitFont(title, float64(p.w-marginLeft-8), 15, 0.62)
	p.printf(`<text x="%d" y="22" font-size="%s" font-weight="bold">%s</text>`+"\n", marginLeft, coord(size), escape(title))
	return p
}

func (p *plot) printf(format string, args ...any) { fmt.Fprintf(&p.buf, format, args...) }

// axes fixes the data ranges from the values to draw and draws the grid,
// the frame, the tick labels and the axis labels.
func (p *plot) axes(xs, ys []float64, xa, ya axis) {
	var xt, yt []float64
	p.xlo, p.xhi, xt = niceTicks(xs, int((p.right-p.left)/90)+2)
	p.ylo, p.yhi, yt = niceTicks(ys, int((p.bot-p.top)/45)+2)
	if xa.integer {
		xt = slices.DeleteFunc(xt, func(t float64) bool { return t != math.Trunc(t) })
	}
	p.printf(`<g stroke="#e6e6e6" stroke-width="1">` + "\n")
	for _, t := range xt {
		x := coord(p.px(t))
		p.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", x, coord(p.top), x, coord(p.bot))
	}
	for _, t := range yt {
		y := coord(p.py(t))
		p.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", coord(p.left), y, coord(p.right), y)
	}
	p.printf("</g>\n")
	p.printf(`<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="#999999"/>`+"\n",
		coord(p.left), coord(p.top), coord(p.right-p.left), coord(p.bot-p.top))
	xtext, xscale := tickTexts(xt)
	ytext, yscale := tickTexts(yt)
	p.printf(`<g font-size="11" fill="#555555">` + "\n")
	for k, t := range xt {
		p.printf(`<text x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", coord(p.px(t)), coord(p.bot+17), xtext[k])
	}
	for k, t := range yt {
		p.printf(`<text x="%s" y="%s" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", coord(p.left-7), coord(p.py(t)), ytext[k])
	}
	p.printf("</g>\n")
	p.axisTitle(xa.label(xscale), (p.left+p.right)/2, p.bot+38, p.right-p.left, false)
	p.axisTitle(ya.label(yscale), 16, (p.top+p.bot)/2, p.bot-p.top, true)
}

// px and py map data values to pixels.
func (p *plot) px(v float64) float64 { return p.left + frac(v, p.xlo, p.xhi)*(p.right-p.left) }
func (p *plot) py(v float64) float64 { return p.bot - frac(v, p.ylo, p.yhi)*(p.bot-p.top) }

// frac is where v lies between lo < hi, 0 at lo and 1 at hi; halves keep a
// span beyond MaxFloat64 finite.
func frac(v, lo, hi float64) float64 {
	if d := hi - lo; !math.IsInf(d, 0) {
		return (v - lo) / d
	}
	return (v/2 - lo/2) / (hi/2 - lo/2)
}

// axisTitle centres an axis title at (x, y), rotated for the y axis. SVG
// cannot measure text, so its width is estimated: a title longer than the
// axis is split before its parenthesis onto a second line, and shrunk if
// that is still too long.
func (p *plot) axisTitle(s string, x, y, length float64, vertical bool) {
	lines := []string{s}
	if estimateWidth(s, 12) > length {
		if name, rest, ok := strings.Cut(s, " ("); ok {
			lines = []string{name, "(" + rest}
		}
	}
	size := 12.0
	for _, l := range lines {
		size = min(size, fitFont(l, length, 12, 0.58))
	}
	rotate := ""
	if vertical {
		rotate = " rotate(-90)"
	}
	p.printf(`<text transform="translate(%s %s)%s" text-anchor="middle" font-size="%s">`, coord(x), coord(y), rotate, coord(size))
	for k, l := range lines {
		dy := "0"
		if k > 0 {
			dy = "1.2em"
		}
		p.printf(`<tspan x="0" dy="%s">%s</tspan>`, dy, escape(l))
	}
	p.printf("</text>\n")
}

// estimateWidth is about how wide s is in pixels at a font size: an
// average glyph of a sans-serif font is a little over half the size.
func estimateWidth(s string, size float64) float64 {
	return 0.58 * size * float64(utf8.RuneCountInString(s))
}

// fitFont returns the font size, at most size and at least 8, at which s
// fits in avail pixels, perGlyph being the average glyph width per unit of
// size.
func fitFont(s string, avail, size, perGlyph float64) float64 {
	n := float64(utf8.RuneCountInString(s))
	if n == 0 {
		return size
	}
	return max(8, min(size, math.Floor(avail/(n*perGlyph))))
}

func (p *plot) circle(x, y, r float64, title string) {
	p.printf(`<circle cx="%s" cy="%s" r="%s"><title>%s</title></circle>`+"\n", coord(x), coord(y), coord(r), escape(title))
}

// legend names the two kinds of points under the title.
func (p *plot) legend(front, dominated int) {
	x := p.left + 5
	p.printf(`<g font-size="11">` + "\n")
	p.printf(`<circle cx="%s" cy="41" r="5" fill="#c0392b"/><text x="%s" y="41" dominant-baseline="middle">Pareto front (%d)</text>`+"\n",
		coord(x), coord(x+10), front)
	p.printf(`<circle cx="%s" cy="41" r="4" fill="#7f7f7f" fill-opacity="0.6"/><text x="%s" y="41" dominant-baseline="middle">dominated (%d)</text>`+"\n",
		coord(x+125), coord(x+135), dominated)
	p.printf("</g>\n")
}

func (p *plot) note(s string) {
	p.printf(`<text class="note" x="%d" y="%d" font-size="11" fill="#a04000">%s</text>`+"\n", 8, p.h-8, escape(s))
}

func (p *plot) end(w io.Writer) error {
	p.printf("</svg>\n")
	_, err := w.Write(p.buf.Bytes())
	return err
}

// escape makes s safe as XML text or attribute value; characters XML
// cannot hold become U+FFFD.
func escape(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s)) // writing to a bytes.Buffer cannot fail
	return b.String()
}

// coord formats a pixel coordinate with two decimals at most.
func coord(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// formatValue prints a value for a tooltip: up to six significant digits.
func formatValue(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// niceTicks returns the range to show for the finite values vs, padded by
// a twentieth of their span on each side so that no point sits on the
// frame, and about want ticks inside it at round numbers (1, 2 or 5 times a
// power of ten), after P. S. Heckbert, "Nice numbers for graph labels",
// Graphics Gems, 1990.
//
// Values within a billionth of their magnitude (or 1e-300) of each other
// are shown as one value, ±10% around it: no axis can set them apart, and a
// step of a few ulps has no round number, no label of its own, and no
// integer count of steps to the origin that a float64 can count
// (999.9999999999998 and 1000 from AvgGPU are such a pair).
func niceTicks(vs []float64, want int) (lo, hi float64, ticks []float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		lo, hi = min(lo, v), max(hi, v)
	}
	switch {
	case lo > hi: // nothing to show
		lo, hi = 0, 1
	case hi-lo <= max(max(-lo, hi)*1e-9, 1e-300):
		mid := lo/2 + hi/2
		d := max(math.Abs(mid)/10, 1e-300)
		if mid == 0 {
			d = 1
		}
		lo, hi = mid-d, mid+d
	default:
		pad := (hi/2 - lo/2) / 10 // halves keep any finite span finite
		lo, hi = lo-pad, hi+pad
	}
	// Near ±MaxFloat64 the padding may overflow: the frame stops at the
	// largest float.
	lo, hi = max(lo, -math.MaxFloat64), min(hi, math.MaxFloat64)
	// Halved, divided, then doubled: a span beyond MaxFloat64 still gets a
	// round step.
	step := niceNumber((hi/2 - lo/2) / float64(max(want-1, 1)) * 2)
	if math.IsInf(step, 0) || step == 0 {
		return lo, hi, []float64{lo, hi}
	}
	first, last := math.Ceil(lo/step), math.Floor(hi/step)
	if !(last-first <= 1000) { // a step lost to rounding next to huge values
		return lo, hi, []float64{lo, hi}
	}
	// Counted in integers: the rule above keeps first well below 2^53, where
	// first+1 would equal first.
	for k := range int(last-first) + 1 {
		ticks = append(ticks, (first+float64(k))*step)
	}
	return lo, hi, ticks
}

// niceNumber returns the 1, 2 or 5 times a power of ten nearest x, by
// Heckbert's thresholds (1.5, 3 and 7 times the power).
func niceNumber(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return x
	}
	e := math.Floor(math.Log10(x))
	f := x / math.Pow(10, e)
	var nf float64
	switch {
	case f < 1.5:
		nf = 1
	case f < 3:
		nf = 2
	case f < 7:
		nf = 5
	default:
		nf = 10
	}
	return nf * math.Pow(10, e)
}

// tickTexts formats ticks with as many decimals as their step needs, so
// that no two labels read the same. Ticks of a million or more, or all
// below a thousandth, are printed divided by a power of ten, a multiple of
// three, which scale names ("×10⁶") for the axis title.
func tickTexts(ticks []float64) (texts []string, scale string) {
	top := 0.0
	for _, t := range ticks {
		top = max(top, math.Abs(t))
	}
	exp := 0
	if top >= 1e6 || top != 0 && top < 1e-3 {
		exp = 3 * int(math.Floor(math.Log10(top)/3))
		scale = "×10" + superscript(exp)
	}
	unit := math.Pow(10, float64(exp))
	dec := 0
	if len(ticks) > 1 {
		if step := math.Abs(ticks[1]-ticks[0]) / unit; step != 0 && !math.IsInf(step, 0) {
			// niceTicks keeps a step above 1e-15 units (a billionth of
			// the values' magnitude over at most 1000 ticks, the magnitude
			// at least a thousandth of a unit), so 17 decimals are never
			// short of telling two ticks apart.
			dec = min(max(0, int(-math.Floor(math.Log10(step)+1e-9))), 17)
		}
	}
	texts = make([]string, len(ticks))
	for k, t := range ticks {
		v := t / unit
		if v == 0 {
			v = 0 // no "-0"
		}
		texts[k] = strconv.FormatFloat(v, 'f', dec, 64)
	}
	return texts, scale
}

// superscript writes an integer in superscript digits.
func superscript(n int) string {
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	var b strings.Builder
	for _, c := range strconv.Itoa(n) {
		if c == '-' {
			b.WriteString("⁻")
			continue
		}
		i := int(c - '0')
		b.WriteString(string([]rune(digits)[i]))
	}
	return b.String()
}
