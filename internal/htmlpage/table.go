package htmlpage

import (
	"fmt"
	"html/template"
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
}

// HTML implements Block. It fails if a row has a different number of cells
// than the table has columns.
func (t *Table) HTML() (template.HTML, error) {
	for i, r := range t.Rows {
		if len(r.Cells) != len(t.Columns) {
			return "", fmt.Errorf("htmlpage: table %q: row %d has %d cells, want %d (one per column)", t.Caption, i, len(r.Cells), len(t.Columns))
		}
	}
	return exec(tableTemplate, t)
}

var tableTemplate = template.Must(template.New("table").Parse(`<div class="table-wrap">
<table{{if .Sortable}} class="sortable"{{end}}>
{{- if .Caption}}
<caption>{{.Caption}}</caption>
{{- end}}
<thead><tr>{{range .Columns}}<th{{if .Numeric}} class="num"{{end}}>{{.Name}}</th>{{end}}</tr></thead>
<tbody>
{{- $cols := .Columns}}
{{- range .Rows}}
<tr{{if .Class}} class="{{.Class}}"{{end}}{{if .Ref}} data-ref="{{.Ref}}"{{end}}>{{range $i, $c := .Cells}}<td{{if (index $cols $i).Numeric}} class="num"{{end}}>{{$c}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table>
</div>`))
