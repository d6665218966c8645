package htmlpage

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestChartErrors(t *testing.T) {
	for _, c := range []struct {
		chart LineChart
		want  string
	}{
		{LineChart{Title: "c"}, `chart "c" has no series`},
		{LineChart{Title: "c", Series: []Series{{Name: "s", Points: []Point{{0, 1}, {1, math.NaN()}}}}}, `series "s": point 1 is not finite`},
		{LineChart{Title: "c", Series: []Series{{Name: "s", Points: []Point{{math.Inf(1), 1}}}}}, `point 0 is not finite`},
		{LineChart{Title: "c", Series: []Series{{Name: "s", Points: []Point{{2, 1}, {1, 1}}}}}, `point 1 has x 1 < 2`},
		{LineChart{Title: "c", Width: 50, Height: 50, Series: []Series{{Name: "s"}}}, `too small`},
	} {
		_, err := c.chart.HTML()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err = %v, want %q", c.chart, err, c.want)
		}
	}
}

var polyRE = regexp.MustCompile(`<polyline [^>]*points="([^"]*)"`)

// polylines returns the coordinates of the chart's lines.
func polylines(t *testing.T, html string) [][][2]float64 {
	var out [][][2]float64
	for _, m := range polyRE.FindAllStringSubmatch(html, -1) {
		var line [][2]float64
		for _, p := range strings.Fields(m[1]) {
			x, y, _ := strings.Cut(p, ",")
			fx, err1 := strconv.ParseFloat(x, 64)
			fy, err2 := strconv.ParseFloat(y, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("bad point %q", p)
			}
			line = append(line, [2]float64{fx, fy})
		}
		out = append(out, line)
	}
	return out
}

func TestChartGeometry(t *testing.T) {
	c := &LineChart{Series: []Series{
		{Name: "a", Points: []Point{{0, 0}, {50, 25}, {100, 50}}},
		{Name: "b", Points: []Point{{0, 50}, {100, 0}}},
	}}
	h, err := c.HTML()
	if err != nil {
		t.Fatal(err)
	}
	lines := polylines(t, string(h))
	if len(lines) != 2 || len(lines[0]) != 3 || len(lines[1]) != 2 {
		t.Fatalf("lines = %v", lines)
	}
	a, b := lines[0], lines[1]
	// x spans the plot area exactly, from the left pad to the right pad of 640.
	if a[0][0] != padLeft || a[2][0] != 640-padRight {
		t.Errorf("x range %v..%v, want %v..%v", a[0][0], a[2][0], padLeft, 640-padRight)
	}
	// y: 0 is the bottom of the plot; 50 is the top (50 is a round maximum).
	bottom, top := float64(260-padBottom), float64(padTop)
	if a[0][1] != bottom || a[2][1] != top || b[0][1] != top || b[1][1] != bottom {
		t.Errorf("y coordinates %v %v, want bottom %v top %v", a, b, bottom, top)
	}
	if mid := (bottom + top) / 2; a[1][1] != mid || a[1][0] != (padLeft+640-padRight)/2.0 {
		t.Errorf("middle point %v, want (%v, %v)", a[1], (padLeft+640-padRight)/2.0, mid)
	}
	// Markers and tooltips for short series, a legend entry per series.
	if n := strings.Count(string(h), `<circle class="point"`); n != 5 {
		t.Errorf("%d markers, want 5", n)
	}
	for _, want := range []string{"<title>a: 25 at 50</title>", `<span class="swatch" style="background:#1f6feb"></span>a</span>`, `</span>b</span>`} {
		if !strings.Contains(string(h), want) {
			t.Errorf("chart lacks %q", want)
		}
	}
}

func TestChartLongSeriesHasNoMarkers(t *testing.T) {
	pts := make([]Point, maxMarkers+1)
	for i := range pts {
		pts[i] = Point{float64(i), float64(i * i)}
	}
	h, err := (&LineChart{Series: []Series{{Name: "sq", Points: pts}}}).HTML()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(h), `class="point"`) {
		t.Error("a long series has point markers")
	}
	if got := len(polylines(t, string(h))[0]); got != len(pts) {
		t.Errorf("line has %d points, want %d", got, len(pts))
	}
}

func TestChartEmptyAndFlat(t *testing.T) {
	for _, s := range [][]Point{nil, {{3, 7}}, {{0, 0}, {1, 0}}} {
		if _, err := (&LineChart{Series: []Series{{Name: "s", Points: s}}}).HTML(); err != nil {
			t.Errorf("%v: %v", s, err)
		}
	}
}

func TestTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		n      int
		want   []float64
	}{
		{0, 52, 5, []float64{0, 20, 40, 60}},
		{0, 50, 5, []float64{0, 10, 20, 30, 40, 50}},
		{1, 120, 6, []float64{0, 20, 40, 60, 80, 100, 120}},
		{0, 0.3, 3, []float64{0, 0.1, 0.2, 0.3}},
		{-5, 5, 2, []float64{-5, 0, 5}},
	} {
		if got := ticks(c.lo, c.hi, c.n); !slices.Equal(got, c.want) {
			t.Errorf("ticks(%v, %v, %d) = %v, want %v", c.lo, c.hi, c.n, got, c.want)
		}
	}
}

func TestFormatNumber(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", 7: "7", -12: "-12", 99999: "99999", 100000: "100k", 123456: "123k",
		2.5e6: "2.5M", 3e9: "3G", 0.125: "0.125", 1.0 / 3: "0.333", 12.5: "12.5",
	} {
		if got := FormatNumber(v); got != want {
			t.Errorf("FormatNumber(%v) = %q, want %q", v, got, want)
		}
	}
}
