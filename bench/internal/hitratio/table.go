package hitratio

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// Table is a text table: a header and rows of cells, written with aligned
// columns two spaces apart, right-aligned unless Left.
type Table struct {
	Header []string
	Rows   [][]string
	Left   bool
}

// Add appends a row.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// Write prints the table.
func (t *Table) Write(w io.Writer) error {
	flags := uint(tabwriter.AlignRight)
	if t.Left {
		flags = 0
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', flags)
	for _, r := range append([][]string{t.Header}, t.Rows...) {
		fmt.Fprint(tw, strings.Join(r, "\t")+"\t\n")
	}
	return tw.Flush()
}

// Style formats hit ratios in tables.
type Style struct {
	Zero string // a ratio of 0 (no hit): "0", "—"
	Sci  bool   // below 0.001 in scientific notation (1.0e-04); else always four decimals
}

// Format returns v as a table shows it; NaN (no geo-mean) is N/A.
func (s Style) Format(v float64) string {
	switch {
	case math.IsNaN(v):
		return "N/A"
	case v == 0:
		return s.Zero
	case s.Sci && v < 0.001:
		return fmt.Sprintf("%.1e", v)
	}
	return fmt.Sprintf("%.4f", v)
}

// Table returns the matrix as a table: a row per case, led by lead(i) (nil:
// the case's name) under head, then cell of each strategy's Cell.
func (m *Matrix) Table(head []string, lead func(i int) []string, cell func(Cell) string) *Table {
	t := &Table{Header: append(append([]string{}, head...), m.Strategies...)}
	for i, row := range m.Cells {
		cells := []string{m.Cases[i]}
		if lead != nil {
			cells = lead(i)
		}
		for _, c := range row {
			cells = append(cells, cell(c))
		}
		t.Add(cells...)
	}
	return t
}

// RatioTable returns the hit ratios as a table (see Table) with a last row
// of the geo-means.
func (m *Matrix) RatioTable(head []string, lead func(i int) []string, style Style) *Table {
	t := m.Table(head, lead, func(c Cell) string { return style.Format(c.Ratio()) })
	geo := []string{"geo-mean"}
	for len(geo) < len(head) {
		geo = append(geo, "")
	}
	for j := range m.Strategies {
		geo = append(geo, style.Format(m.Geomean(j)))
	}
	t.Add(geo...)
	return t
}
