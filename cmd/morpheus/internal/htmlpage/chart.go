package htmlpage

import (
	"errors"
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"
)

// LineChart is a chart of one or more series of points, each drawn as a line
// over a shared numeric x axis. The y axis starts at zero (or below, for
// negative values) and ends at a round number above the largest value.
type LineChart struct {
	Title          string // shown above the chart; may be empty
	XLabel, YLabel string // axis titles; may be empty
	Series         []Series
	// Width and Height are the size of the drawing in pixels; zero means
	// 640 by 260. The chart scales down with the page.
	Width, Height int
}

// Series is one line of a LineChart. Points must be in non-decreasing order
// of X, and every coordinate finite.
type Series struct {
	Name   string
	Points []Point
}

// Point is a point of a Series.
type Point struct{ X, Y float64 }

// maxMarkers is the number of points of a series up to which each point gets
// a marker with a tooltip; longer series are drawn as a bare line.
const maxMarkers = 100

// palette colours the series in order; it repeats after its end.
var palette = []string{"#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#bf3989", "#0969da", "#57606a"}

// chart geometry, in SVG user units.
const (
	padLeft, padRight, padTop, padBottom = 60, 16, 12, 44
)

// HTML implements Block. It fails if there is no series, or if a series has
// a non-finite coordinate or decreasing X.
func (c *LineChart) HTML() (template.HTML, error) {
	if len(c.Series) == 0 {
		return "", fmt.Errorf("htmlpage: chart %q has no series", c.Title)
	}
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := 0.0, math.Inf(-1)
	for _, s := range c.Series {
		for i, p := range s.Points {
			if !finite(p.X) || !finite(p.Y) {
				return "", fmt.Errorf("htmlpage: chart %q: series %q: point %d is not finite (%v, %v)", c.Title, s.Name, i, p.X, p.Y)
			}
			if i > 0 && p.X < s.Points[i-1].X {
				return "", fmt.Errorf("htmlpage: chart %q: series %q: point %d has x %v < %v of the point before (x must not decrease)", c.Title, s.Name, i, p.X, s.Points[i-1].X)
			}
			xmin, xmax = min(xmin, p.X), max(xmax, p.X)
			ymin, ymax = min(ymin, p.Y), max(ymax, p.Y)
		}
	}
	if math.IsInf(xmin, 1) { // no points at all: an empty frame from 0 to 1
		xmin, xmax, ymax = 0, 1, 1
	}
	if xmax == xmin {
		xmax = xmin + 1
	}
	if ymax <= ymin {
		ymax = ymin + 1
	}
	yticks := ticks(ymin, ymax, 5)
	ymin, ymax = min(ymin, yticks[0]), max(ymax, yticks[len(yticks)-1])
	xticks := ticks(xmin, xmax, 6)
	w, h := c.Width, c.Height
	if w <= 0 || h <= 0 {
		w, h = 640, 260
	}
	pw, ph := float64(w-padLeft-padRight), float64(h-padTop-padBottom)
	if pw <= 0 || ph <= 0 {
		return "", errors.New("htmlpage: chart " + strconv.Quote(c.Title) + " is too small to draw")
	}
	px := func(x float64) string { return coord(padLeft + (x-xmin)/(xmax-xmin)*pw) }
	py := func(y float64) string { return coord(padTop + ph - (y-ymin)/(ymax-ymin)*ph) }

	var b strings.Builder
	b.WriteString(`<figure class="chart">`)
	if c.Title != "" {
		b.WriteString(`<figcaption>` + esc(c.Title) + `</figcaption>`)
	}
	b.WriteString(`<div class="legend">`)
	for i, s := range c.Series {
		fmt.Fprintf(&b, `<span class="key"><span class="swatch" style="background:%s"></span>%s</span>`, palette[i%len(palette)], esc(s.Name))
	}
	b.WriteString(`</div>`)
	fmt.Fprintf(&b, `<svg class="line-chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s">`, w, h, w, h, esc(c.Title))
	// Grid and y ticks.
	left, right := coord(padLeft), coord(padLeft+pw)
	for _, t := range yticks {
		y := py(t)
		fmt.Fprintf(&b, `<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/>`, left, y, right, y)
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s" text-anchor="end" dy="0.32em">%s</text>`, coord(padLeft-6), y, esc(FormatNumber(t)))
	}
	bottom := coord(padTop + ph)
	for _, t := range xticks {
		if t < xmin || t > xmax {
			continue
		}
		x := px(t)
		fmt.Fprintf(&b, `<line class="axis" x1="%s" y1="%s" x2="%s" y2="%s"/>`, x, bottom, x, coord(padTop+ph+4))
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s" text-anchor="middle">%s</text>`, x, coord(padTop+ph+16), esc(FormatNumber(t)))
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%s" y1="%s" x2="%s" y2="%s"/>`, left, bottom, right, bottom)
	fmt.Fprintf(&b, `<line class="axis" x1="%s" y1="%s" x2="%s" y2="%s"/>`, left, coord(padTop), left, bottom)
	if c.XLabel != "" {
		fmt.Fprintf(&b, `<text class="axis-label" x="%s" y="%d" text-anchor="middle">%s</text>`, coord(padLeft+pw/2), h-6, esc(c.XLabel))
	}
	if c.YLabel != "" {
		fmt.Fprintf(&b, `<text class="axis-label" transform="translate(14 %s) rotate(-90)" text-anchor="middle">%s</text>`, coord(padTop+ph/2), esc(c.YLabel))
	}
	for i, s := range c.Series {
		color := palette[i%len(palette)]
		fmt.Fprintf(&b, `<g class="series" data-series="%d">`, i)
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="`, color)
		for j, p := range s.Points {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(px(p.X) + "," + py(p.Y))
		}
		b.WriteString(`">`)
		if n := len(s.Points); n > 0 {
			last := s.Points[n-1]
			fmt.Fprintf(&b, `<title>%s: %s at %s</title>`, esc(s.Name), esc(FormatNumber(last.Y)), esc(FormatNumber(last.X)))
		}
		b.WriteString(`</polyline>`)
		if len(s.Points) <= maxMarkers {
			for _, p := range s.Points {
				fmt.Fprintf(&b, `<circle class="point" cx="%s" cy="%s" r="3" fill="%s"><title>%s: %s at %s</title></circle>`,
					px(p.X), py(p.Y), color, esc(s.Name), esc(FormatNumber(p.Y)), esc(FormatNumber(p.X)))
			}
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg></figure>`)
	return template.HTML(b.String()), nil
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// ticks returns round values from at most lo to at least hi, about n steps
// apart: multiples of 1, 2 or 5 times a power of ten.
func ticks(lo, hi float64, n int) []float64 {
	m, exp := niceStep((hi - lo) / float64(n))
	// A tick is k·m·10^exp; dividing by 10^-exp rather than multiplying by
	// 10^exp keeps values like 0.3 exact to the last digit.
	at := func(k float64) float64 {
		if exp < 0 {
			return k * m / math.Pow(10, float64(-exp))
		}
		return k * m * math.Pow(10, float64(exp))
	}
	first := math.Floor(lo / at(1))
	var ts []float64
	for i := 0; ; i++ {
		t := at(first + float64(i))
		ts = append(ts, t)
		if t >= hi || i > 4*n {
			return ts
		}
	}
}

// niceStep returns the smallest step m·10^exp ≥ raw with m 1, 2 or 5.
func niceStep(raw float64) (m float64, exp int) {
	if raw <= 0 || !finite(raw) {
		return 1, 0
	}
	exp = int(math.Floor(math.Log10(raw)))
	p := math.Pow(10, float64(exp))
	for _, m := range []float64{1, 2, 5} {
		if m*p >= raw*(1-1e-9) {
			return m, exp
		}
	}
	return 1, exp + 1
}

// FormatNumber formats v briefly for axes and tooltips: integers in full up
// to 99,999 and with a k, M or G suffix above, fractions with at most three
// significant digits.
func FormatNumber(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e9:
		return trimFloat(v/1e9) + "G"
	case a >= 1e6:
		return trimFloat(v/1e6) + "M"
	case a >= 1e5:
		return trimFloat(v/1e3) + "k"
	case v == math.Trunc(v):
		return strconv.FormatInt(int64(v), 10)
	}
	return trimFloat(v)
}

// trimFloat formats v with three significant digits, without trailing zeros
// or an exponent.
func trimFloat(v float64) string {
	s := strconv.FormatFloat(v, 'g', 3, 64)
	if strings.ContainsAny(s, "e") {
		s = strconv.FormatFloat(v, 'f', -1, 64)
	}
	return s
}

// coord formats an SVG coordinate with one decimal.
func coord(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }

func esc(s string) string { return template.HTMLEscapeString(s) }
