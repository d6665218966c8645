package htmlpage

import (
	"fmt"
	"html/template"
	"strings"
)

// Table is a table of text cells under a header row.
type Table struct {
	Caption string // shown above the table; may be empty
	Columns []Column
	Rows    []Row
	// Sortable lets the reader sort the rows by clicking a column header
	// (with the embedded script; without it the rows stay in this order).
	Sortable bool
}

// Column is a column of a Table.
type Column struct {
	Name string
	// Numeric right-aligns the column and sorts it by number rather than by
	// text.
	Numeric bool
}

// Row is a row of a Table: one cell per column.
type Row struct {
	Cells []string
	// Class, if set, is the row's CSS class: "hl" highlights it, "bad"
	// colours it as a failure.
	Class string
	// Ref, if set, links the row with the other elements of the page that
	// carry the same data-ref attribute: hovering one highlights all of them.
	Ref string
	// Link, if set, makes the row's first cell a link to this URL (a page
	// beside this one: a relative path).
	Link string
}

// HTML implements Block. It fails if a row has a different number of cells
// than the table has columns.
//
// Tables can have thousands of rows, so the markup is built directly rather
// than with a template (which is ten times slower here); every text is
// escaped all the same.
func (t *Table) HTML() (template.HTML, error) {
	for i, r := range t.Rows {
		if len(r.Cells) != len(t.Columns) {
			return "", fmt.Errorf("htmlpage: table %q: row %d has %d cells, want %d (one per column)", t.Caption, i, len(r.Cells), len(t.Columns))
		}
	}
	var b strings.Builder
	b.WriteString("<div class=\"table-wrap\">\n<table")
	if t.Sortable {
		b.WriteString(` class="sortable"`)
	}
	b.WriteString(">\n")
	if t.Caption != "" {
		b.WriteString("<caption>" + esc(t.Caption) + "</caption>\n")
	}
	b.WriteString("<thead><tr>")
	for _, c := range t.Columns {
		b.WriteString("<th" + numClass(c) + ">" + esc(c.Name) + "</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>")
	for _, r := range t.Rows {
		b.WriteString("\n<tr")
		if r.Class != "" {
			b.WriteString(` class="` + esc(r.Class) + `"`)
		}
		if r.Ref != "" {
			b.WriteString(` data-ref="` + esc(r.Ref) + `"`)
		}
		b.WriteByte('>')
		for i, c := range r.Cells {
			if i == 0 && r.Link != "" {
				c = `<a href="` + esc(r.Link) + `">` + esc(c) + "</a>"
			} else {
				c = esc(c)
			}
			b.WriteString("<td" + numClass(t.Columns[i]) + ">" + c + "</td>")
		}
		b.WriteString("</tr>")
	}
	b.WriteString("\n</tbody>\n</table>\n</div>")
	return template.HTML(b.String()), nil
}

func numClass(c Column) string {
	if c.Numeric {
		return ` class="num"`
	}
	return ""
}
