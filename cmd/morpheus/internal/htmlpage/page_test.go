package htmlpage

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// samplePage uses every kind of block.
func samplePage() *Page {
	return &Page{
		Title:    "Run <1> & more",
		Subtitle: "a subtitle",
		CSS:      ".extra { color: red; }",
		Footer:   "footer text",
		Sections: []Section{
			{Title: "Figures", ID: "figs", Blocks: []Block{
				Stats{{Label: "iterations", Value: "100"}, {Label: "failures", Value: "2", Class: "bad"}},
				Paragraph("text with <b>tags</b>"),
				Pre("line 1\nline 2"),
			}},
			{Title: "Table", Blocks: []Block{&Table{
				Caption:  "cap",
				Sortable: true,
				Columns:  []Column{{Name: "name"}, {Name: "count", Numeric: true}},
				Rows: []Row{
					{Cells: []string{"a", "3"}, Ref: "x1"},
					{Cells: []string{"b<", "10"}, Class: "hl"},
				},
			}}},
			{Title: "Chart", Blocks: []Block{&LineChart{
				Title: "growth", XLabel: "x", YLabel: "y",
				Series: []Series{
					{Name: "one", Points: []Point{{0, 0}, {5, 10}, {10, 12}}},
					{Name: "two", Points: []Point{{0, 1}, {10, 4}}},
				},
			}}},
			{Blocks: []Block{Raw(`<svg class="mine" data-ref="x1"></svg>`)}},
		},
	}
}

func write(t *testing.T, p *Page) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWriteIsDeterministic(t *testing.T) {
	a, b := write(t, samplePage()), write(t, samplePage())
	if a != b {
		t.Fatal("two writes of the same page differ")
	}
}

func TestWriteIsSelfContained(t *testing.T) {
	out := write(t, samplePage())
	// No resource is fetched: no src or href attributes, no @import, no url() but
	// the diagram's own fragment references.
	for _, re := range []string{`\ssrc=`, `\shref=`, `@import`, `url\((?:[^#)])`, `https?://`} {
		if m := regexp.MustCompile(re).FindString(out); m != "" {
			t.Errorf("page refers to an outside resource: %q", m)
		}
	}
	for _, want := range []string{"<style>", pageCSS[:40], ".extra { color: red; }", "<script>", "data-ready"} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestWriteEscapes(t *testing.T) {
	out := write(t, samplePage())
	for _, want := range []string{
		"<title>Run &lt;1&gt; &amp; more</title>",
		"<p>text with &lt;b&gt;tags&lt;/b&gt;</p>",
		"<pre>line 1\nline 2</pre>",
		"<td>b&lt;</td>",
		`<section id="figs">`,
		`<svg class="mine" data-ref="x1"></svg>`, // Raw is kept as is
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestTable(t *testing.T) {
	out := write(t, samplePage())
	for _, want := range []string{
		`<table class="sortable">`,
		`<caption>cap</caption>`,
		`<th>name</th><th class="num">count</th>`,
		`<tr data-ref="x1"><td>a</td><td class="num">3</td></tr>`,
		`<tr class="hl"><td>b&lt;</td><td class="num">10</td></tr>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q", want)
		}
	}
}

func TestTableRowWidth(t *testing.T) {
	tab := &Table{Caption: "t", Columns: []Column{{Name: "a"}, {Name: "b"}}, Rows: []Row{{Cells: []string{"1", "2"}}, {Cells: []string{"1"}}}}
	_, err := tab.HTML()
	if err == nil || !strings.Contains(err.Error(), `table "t": row 1 has 1 cells, want 2`) {
		t.Fatalf("err = %v", err)
	}
	if err := Write(new(bytes.Buffer), &Page{Sections: []Section{{Blocks: []Block{tab}}}}); err == nil {
		t.Fatal("Write of a page with a bad table succeeded")
	}
}

func TestStats(t *testing.T) {
	out := write(t, samplePage())
	if !strings.Contains(out, `<div class="stat bad"><div class="value">2</div><div class="label">failures</div></div>`) {
		t.Errorf("stats not rendered:\n%s", out)
	}
}
