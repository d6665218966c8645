package hitratio

import (
	"bytes"
	"testing"
)

// paper is published figures over 10,000 trials for case a (both
// strategies) and c (x only), which the matrix does not have.
func paper() Side {
	figures := map[string]map[string]float64{"a": {"x": 0.0004, "y": 0.09}, "c": {"x": 0.5}}
	return Side{Name: "paper", Trials: 10000, Ratio: func(c, s string) (float64, bool) {
		v, ok := figures[c][s]
		return v, ok
	}}
}

func TestSideBySide(t *testing.T) {
	m := matrix()
	sb := NewSideBySide(m.Cases, m.Strategies, paper(), m.Side("ours"))
	if len(sb.Cases) != 1 || sb.Cases[0] != "a" || len(sb.Strategies) != 2 || sb.Empty() {
		t.Fatalf("rows %v, columns %v", sb.Cases, sb.Strategies)
	}
	// Both sides floored at 1/100: the paper's 0.0004 counts as 0.01, as
	// our never-hit y does.
	if f := sb.Floor(); f != 0.01 {
		t.Errorf("floor %v", f)
	}
	for _, c := range []struct {
		side     int
		strategy string
		want     float64
	}{{0, "x", 0.01}, {0, "y", 0.09}, {1, "x", 0.25}, {1, "y", 0.01}} {
		if g := sb.Geomean(c.side, c.strategy); !near(g, c.want) {
			t.Errorf("geo-mean of %s under %s = %v, want %v", sb.Sides[c.side].Name, c.strategy, g, c.want)
		}
	}
	var b bytes.Buffer
	sb.Table("case", Style{Zero: "0", Sci: true}).Write(&b)
	want := "      case                 x                y\n" +
		"         a  4.0e-04 / 0.2500       0.0900 / 0\n" +
		"  geo-mean   0.0100 / 0.2500  0.0900 / 0.0100\n"
	if b.String() != want {
		t.Errorf("table:\n%s\nwant\n%s", b.String(), want)
	}
	if got, want := sb.Note(), "Geo-means count a ratio below 1/100 (a case never hit) as 1/100 on both sides, "+
		"1 over the smaller number of trials (paper 10000, ours 100)."; got != want {
		t.Errorf("note %q\nwant %q", got, want)
	}
	three := NewSideBySide(m.Cases, m.Strategies, m.Side("one"), m.Side("two"), m.Side("three"))
	if len(three.Cases) != 2 || three.Note() != "Geo-means count a ratio below 1/100 (a case never hit) as 1/100 on every side, "+
		"1 over the smallest number of trials (one 100, two 100, three 100)." {
		t.Errorf("three sides: %v %q", three.Cases, three.Note())
	}
	// A strategy the paper lacks on a row is no column; no common case, no table.
	if sb := NewSideBySide([]string{"a", "c"}, []string{"x", "y"}, paper(), paper()); len(sb.Strategies) != 1 || sb.Strategies[0] != "x" {
		t.Errorf("columns %v, want [x]", sb.Strategies)
	}
	if !NewSideBySide([]string{"b"}, m.Strategies, paper(), m.Side("ours")).Empty() {
		t.Error("a case the paper lacks is a row")
	}
}
