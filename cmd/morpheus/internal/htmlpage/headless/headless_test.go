package headless_test

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/morpheus-go/morpheus/cmd/morpheus/internal/htmlpage"
	"github.com/morpheus-go/morpheus/cmd/morpheus/internal/htmlpage/headless"
)

// start starts a browser or skips the test when there is none.
func start(t *testing.T) *headless.Browser {
	t.Helper()
	path := headless.Find()
	if path == "" {
		t.Skip("no Chromium found (install the Debian package chromium, or set MORPHEUS_CHROMIUM); .ci/run installs it")
	}
	b, err := headless.Start(path, 800, 600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// TestPageScript loads an htmlpage page and checks what its script does in a
// real browser: it runs to the end, sorts a table on a click, and highlights
// the elements linked by data-ref on hover.
func TestPageScript(t *testing.T) {
	b := start(t)
	page := &htmlpage.Page{Title: "t", Sections: []htmlpage.Section{{Blocks: []htmlpage.Block{
		&htmlpage.Table{Sortable: true, Columns: []htmlpage.Column{{Name: "name"}, {Name: "n", Numeric: true}},
			Rows: []htmlpage.Row{{Cells: []string{"a", "10"}, Ref: "x"}, {Cells: []string{"b", "9"}}, {Cells: []string{"c", "1.5k"}}}},
		htmlpage.Raw(`<p id="partner" data-ref="x">partner</p>`),
	}}}}
	var buf bytes.Buffer
	if err := htmlpage.Write(&buf, page); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := b.Open("file://" + file); err != nil {
		t.Fatal(err)
	}
	var ready string
	if err := b.Eval(`document.body.dataset.ready`, &ready); err != nil || ready != "1" {
		t.Fatalf("script did not finish: ready=%q, %v", ready, err)
	}
	col := func() []string {
		var v []string
		if err := b.Eval(`Array.from(document.querySelectorAll("tbody tr td:first-child")).map(td => td.textContent)`, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	click := `document.querySelectorAll("th")[1].click()`
	for _, want := range []string{"[b a c]", "[c a b]"} { // by number ascending (1.5k is 1500), then descending
		if err := b.Eval(click, nil); err != nil {
			t.Fatal(err)
		}
		if got := col(); fmtSlice(got) != want {
			t.Errorf("after a click on the header: %v, want %s", got, want)
		}
	}
	var hot bool
	if err := b.Eval(`document.querySelector("tr[data-ref=x]").dispatchEvent(new MouseEvent("mouseenter")); document.getElementById("partner").classList.contains("hot")`, &hot); err != nil || !hot {
		t.Errorf("hovering a row does not highlight its partner (%v)", err)
	}
	img, err := b.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(img))
	if err != nil || cfg.Width != 800 {
		t.Fatalf("screenshot: %v, width %d, want 800", err, cfg.Width)
	}
}

func fmtSlice(s []string) string {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, x := range s {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x)
	}
	b.WriteByte(']')
	return b.String()
}

func TestEvalError(t *testing.T) {
	b := start(t)
	if err := b.Eval(`(function(){ throw new Error("boom") })()`, nil); err == nil {
		t.Fatal("an exception is not an error")
	}
}

func TestStartMissingBrowser(t *testing.T) {
	if _, err := headless.Start(filepath.Join(t.TempDir(), "no-such-browser"), 100, 100); err == nil {
		t.Fatal("Start of a missing executable succeeded")
	}
}
