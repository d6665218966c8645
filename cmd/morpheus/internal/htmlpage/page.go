package htmlpage

import (
	"bytes"
	_ "embed"
	"html/template"
	"io"
)

//go:embed assets/page.css
var pageCSS string

//go:embed assets/page.js
var pageJS string

// Page is one HTML document.
type Page struct {
	Title    string // the document's title and first heading
	Subtitle string // a line under the heading; may be empty
	// CSS is extra style for this page, appended to the embedded style sheet.
	CSS      string
	Sections []Section
	Footer   string // a line at the bottom of the page; may be empty
}

// Section is a titled part of a page. An ID, if set, is the section's HTML id
// (an anchor for links); it must be unique within the page.
type Section struct {
	Title  string
	ID     string
	Blocks []Block
}

// Block is a piece of content. HTML returns its markup; it returns an error
// when the block cannot be drawn (a chart with mismatched series, for one).
type Block interface {
	HTML() (template.HTML, error)
}

// Write writes p to w as one self-contained HTML document.
func Write(w io.Writer, p *Page) error {
	type section struct {
		Title, ID string
		Body      []template.HTML
	}
	data := struct {
		Title, Subtitle, Footer string
		CSS                     template.CSS
		JS                      template.JS
		Sections                []section
	}{
		Title:    p.Title,
		Subtitle: p.Subtitle,
		Footer:   p.Footer,
		CSS:      template.CSS(pageCSS + p.CSS),
		JS:       template.JS(pageJS),
	}
	for _, s := range p.Sections {
		sec := section{Title: s.Title, ID: s.ID}
		for _, b := range s.Blocks {
			h, err := b.HTML()
			if err != nil {
				return err
			}
			sec.Body = append(sec.Body, h)
		}
		data.Sections = append(data.Sections, sec)
	}
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, data); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>{{.CSS}}</style>
</head>
<body>
<header>
<h1>{{.Title}}</h1>
{{- if .Subtitle}}
<p class="subtitle">{{.Subtitle}}</p>
{{- end}}
</header>
<main>
{{- range .Sections}}
<section{{if .ID}} id="{{.ID}}"{{end}}>
{{- if .Title}}
<h2>{{.Title}}</h2>
{{- end}}
{{- range .Body}}
{{.}}
{{- end}}
</section>
{{- end}}
</main>
{{- if .Footer}}
<footer>{{.Footer}}</footer>
{{- end}}
<script>{{.JS}}</script>
</body>
</html>
`))
