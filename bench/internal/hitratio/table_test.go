package hitratio

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

// matrix is two cases by two strategies over 100 trials: a hit 25 and 0
// times, b 4 and 100 times.
func matrix() *Matrix {
	cell := func(hits int) Cell {
		c := Cell{Hits: hits, Failures: hits, Iterations: 100, FirstHit: -1, FirstHitIteration: -1}
		if hits > 0 {
			c.FirstHit, c.FirstHitIteration = 1500*time.Millisecond, 7
		}
		return c
	}
	return &Matrix{Trials: 100, Cases: []string{"a", "b"}, Strategies: []string{"x", "y"},
		Cells: [][]Cell{{cell(25), cell(0)}, {cell(4), cell(100)}}}
}

func TestStyle(t *testing.T) {
	sci, plain := Style{Zero: "—", Sci: true}, Style{Zero: "0"}
	for _, c := range []struct {
		s    Style
		v    float64
		want string
	}{
		{sci, 0, "—"}, {sci, 0.0001, "1.0e-04"}, {sci, 0.001, "0.0010"}, {sci, 0.25, "0.2500"}, {sci, math.NaN(), "N/A"},
		{plain, 0, "0"}, {plain, 0.0001, "0.0001"}, {plain, 1, "1.0000"},
	} {
		if got := c.s.Format(c.v); got != c.want {
			t.Errorf("%+v.Format(%v) = %q, want %q", c.s, c.v, got, c.want)
		}
	}
}

func TestTableWrite(t *testing.T) {
	tb := &Table{Header: []string{"case", "x"}}
	tb.Add("a", "0.2500")
	tb.Add("long-name", "—")
	var b bytes.Buffer
	tb.Write(&b)
	// Every cell, the last too, ends in a tab: two spaces of padding each.
	want := "       case       x\n          a  0.2500\n  long-name       —\n"
	if b.String() != want {
		t.Errorf("right-aligned:\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	tb.Left = true
	tb.Write(&b)
	want = "case       x       \na          0.2500  \nlong-name  —       \n"
	if b.String() != want {
		t.Errorf("left-aligned:\n%q\nwant\n%q", b.String(), want)
	}
}

func TestMatrix(t *testing.T) {
	m := matrix()
	if m.Ratio(0, 0) != 0.25 || m.Column("y") != 1 || m.Column("z") != -1 || m.Floor() != 0.01 {
		t.Errorf("ratio %v, columns %d %d, floor %v", m.Ratio(0, 0), m.Column("y"), m.Column("z"), m.Floor())
	}
	// x: sqrt(0.25 * 0.04) = 0.1; y: sqrt(1/100 (never hit) * 1) = 0.1.
	if gx, gy := m.Geomean(0), m.Geomean(1); !near(gx, 0.1) || !near(gy, 0.1) {
		t.Errorf("geo-means %v %v, want 0.1 0.1", gx, gy)
	}
	var b bytes.Buffer
	m.RatioTable([]string{"case", "size"}, func(i int) []string { return []string{m.Cases[i], "[2]"} }, Style{Zero: "—", Sci: true}).Write(&b)
	want := "      case  size       x       y\n" +
		"         a   [2]  0.2500       —\n" +
		"         b   [2]  0.0400  1.0000\n" +
		"  geo-mean        0.1000  0.1000\n"
	if b.String() != want {
		t.Errorf("ratio table:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	m.Table([]string{"case"}, nil, func(c Cell) string { return strings.Repeat("*", c.Hits/25) }).Write(&b)
	if want := "  case  x     y\n     a  *      \n     b     ****\n"; b.String() != want {
		t.Errorf("cell table:\n%q\nwant\n%q", b.String(), want)
	}
}

func TestJSON(t *testing.T) {
	var b bytes.Buffer
	json.NewEncoder(&b).Encode(matrix().Summary(FirstHitSeconds))
	want := `{"trials":100,"cases":[{"name":"a","hit_ratio":{"x":0.25,"y":0},"first_hit_seconds":{"x":1.5,"y":null}},` +
		`{"name":"b","hit_ratio":{"x":0.04,"y":1},"first_hit_seconds":{"x":1.5,"y":1.5}}],"geomean":{`
	if !strings.HasPrefix(b.String(), want) {
		t.Errorf("summary:\n%s\nwant\n%s…", b.String(), want)
	}
	var s Summary
	if err := json.Unmarshal(b.Bytes(), &s); err != nil || len(s.Geomean) != 2 || !near(s.Geomean["x"], 0.1) || !near(s.Geomean["y"], 0.1) {
		t.Errorf("geo-means: %v %v", err, s.Geomean)
	}
	b.Reset()
	json.NewEncoder(&b).Encode(matrix().JSONCases(FirstHitIteration)[0])
	if want := `{"name":"a","hit_ratio":{"x":0.25,"y":0},"first_hit_iteration":{"x":7,"y":null}}` + "\n"; b.String() != want {
		t.Errorf("case:\n%s\nwant\n%s", b.String(), want)
	}
	// No cases: no geo-mean (NaN), left out rather than breaking the encoder.
	empty := &Matrix{Trials: 10, Strategies: []string{"x"}}
	b.Reset()
	if err := json.NewEncoder(&b).Encode(empty.Summary(0)); err != nil || b.String() != `{"trials":10,"cases":[],"geomean":{}}`+"\n" {
		t.Errorf("empty: %v %s", err, b.String())
	}
}
