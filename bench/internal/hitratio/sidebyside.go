package hitratio

import (
	"fmt"
	"strings"
)

// Side is one set of hit ratios in a side-by-side table: ours, or a
// paper's.
type Side struct {
	Name   string // "paper", "ours"
	Trials int    // the trials behind each figure; 0 for exact figures
	// Ratio returns the figure of a case under a strategy, if the side has
	// one.
	Ratio func(caseName, strategy string) (float64, bool)
}

// Side returns the matrix's ratios as a side of a side-by-side table.
func (m *Matrix) Side(name string) Side {
	return Side{Name: name, Trials: m.Trials, Ratio: func(c, s string) (float64, bool) {
		i, j := m.row(c), m.Column(s)
		if i < 0 || j < 0 {
			return 0, false
		}
		return m.Ratio(i, j), true
	}}
}

func (m *Matrix) row(name string) int {
	for i, c := range m.Cases {
		if c == name {
			return i
		}
	}
	return -1
}

// SideBySide is several sides' ratios in one table, "a / b" in each cell,
// on the cases and strategies every side has. Every side's geo-means are
// floored at the same value, 1 over the smallest number of trials of any
// side, so that they compare (see the package doc).
type SideBySide struct {
	Sides      []Side
	Cases      []string // the rows
	Strategies []string // the columns
}

// NewSideBySide keeps, of cases and strategies, the cases of which every
// side has a figure, and the strategies of which every side has a figure on
// every such case.
func NewSideBySide(cases, strategies []string, sides ...Side) *SideBySide {
	t := &SideBySide{Sides: sides}
	has := func(c, s string) bool {
		for _, sd := range sides {
			if _, ok := sd.Ratio(c, s); !ok {
				return false
			}
		}
		return true
	}
	for _, c := range cases {
		for _, s := range strategies {
			if has(c, s) {
				t.Cases = append(t.Cases, c)
				break
			}
		}
	}
	for _, s := range strategies {
		all := len(t.Cases) > 0
		for _, c := range t.Cases {
			all = all && has(c, s)
		}
		if all {
			t.Strategies = append(t.Strategies, s)
		}
	}
	return t
}

// Empty reports whether the table has no cell.
func (t *SideBySide) Empty() bool { return len(t.Cases) == 0 || len(t.Strategies) == 0 }

// Floor returns the floor of every side's geo-means: 1 over the smallest
// number of trials of any side.
func (t *SideBySide) Floor() float64 {
	var n []int
	for _, s := range t.Sides {
		n = append(n, s.Trials)
	}
	return Floor(n...)
}

// Geomean returns side k's geometric mean over the cases under a
// strategy, floored at Floor.
func (t *SideBySide) Geomean(k int, strategy string) float64 {
	var v []float64
	for _, c := range t.Cases {
		r, _ := t.Sides[k].Ratio(c, strategy)
		v = append(v, r)
	}
	return Geomean(v, t.Floor())
}

// Table returns the comparison as a table under corner, with a last row of
// the geo-means.
func (t *SideBySide) Table(corner string, style Style) *Table {
	tb := &Table{Header: append([]string{corner}, t.Strategies...)}
	cell := func(f func(k int, s string) float64, s string) string {
		parts := make([]string, len(t.Sides))
		for k := range t.Sides {
			parts[k] = style.Format(f(k, s))
		}
		return strings.Join(parts, " / ")
	}
	for _, c := range t.Cases {
		row := []string{c}
		for _, s := range t.Strategies {
			row = append(row, cell(func(k int, s string) float64 { v, _ := t.Sides[k].Ratio(c, s); return v }, s))
		}
		tb.Add(row...)
	}
	geo := []string{"geo-mean"}
	for _, s := range t.Strategies {
		geo = append(geo, cell(t.Geomean, s))
	}
	tb.Add(geo...)
	return tb
}

// Note says under the table how its geo-means treat small ratios: "Geo-means
// count a ratio below 1/100 (a case never hit) as 1/100 on both sides, 1
// over the smaller number of trials (paper 10000, ours 100)."
func (t *SideBySide) Note() string {
	f := t.Floor()
	if f <= 0 {
		return floorNote(f)
	}
	sides, which := "every side", "smallest"
	if len(t.Sides) == 2 {
		sides, which = "both sides", "smaller"
	}
	var trials []string
	for _, s := range t.Sides {
		n := "exact"
		if s.Trials > 0 {
			n = fmt.Sprint(s.Trials)
		}
		trials = append(trials, s.Name+" "+n)
	}
	return fmt.Sprintf("Geo-means count a ratio below %s (a case never hit) as %[1]s on %s, 1 over the %s number of trials (%s).",
		fraction(f), sides, which, strings.Join(trials, ", "))
}
