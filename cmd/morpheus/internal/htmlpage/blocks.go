package htmlpage

import (
	"bytes"
	"html/template"
)

// Paragraph is a paragraph of plain text.
type Paragraph string

// HTML implements Block.
func (p Paragraph) HTML() (template.HTML, error) {
	return exec(paragraphTemplate, string(p))
}

// Pre is preformatted text, shown in a monospace font with its line breaks.
type Pre string

// HTML implements Block.
func (p Pre) HTML() (template.HTML, error) {
	return exec(preTemplate, string(p))
}

// Raw is markup the caller built and vouches for; it is written unchanged.
type Raw template.HTML

// HTML implements Block.
func (r Raw) HTML() (template.HTML, error) { return template.HTML(r), nil }

// Stat is one labelled figure of a Stats block.
type Stat struct {
	Label, Value string
	// Class, if set, is an extra CSS class of the card: "bad" and "good"
	// colour it.
	Class string
}

// Stats is a row of labelled figures.
type Stats []Stat

// HTML implements Block.
func (s Stats) HTML() (template.HTML, error) { return exec(statsTemplate, s) }

func exec(t *template.Template, data any) (template.HTML, error) {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil
}

var (
	paragraphTemplate = template.Must(template.New("p").Parse(`<p>{{.}}</p>`))
	preTemplate       = template.Must(template.New("pre").Parse(`<pre>{{.}}</pre>`))
	statsTemplate     = template.Must(template.New("stats").Parse(`<div class="stats">
{{- range .}}
<div class="stat{{if .Class}} {{.Class}}{{end}}"><div class="value">{{.Value}}</div><div class="label">{{.Label}}</div></div>
{{- end}}
</div>`))
)
