package htmlpage_test

import (
	"bytes"
	"fmt"
	"log"
	"strings"

	"github.com/morpheus-go/morpheus/cmd/morpheus/internal/htmlpage"
)

// A page with figures, a table and a chart, written as one HTML file.
func ExampleWrite() {
	page := &htmlpage.Page{
		Title: "Load test",
		Sections: []htmlpage.Section{
			{Title: "Summary", Blocks: []htmlpage.Block{
				htmlpage.Stats{{Label: "requests", Value: "1200"}, {Label: "errors", Value: "3", Class: "bad"}},
			}},
			{Title: "Latency", Blocks: []htmlpage.Block{
				&htmlpage.LineChart{
					XLabel: "second", YLabel: "ms",
					Series: []htmlpage.Series{
						{Name: "p50", Points: []htmlpage.Point{{X: 1, Y: 3}, {X: 2, Y: 4}, {X: 3, Y: 3}}},
						{Name: "p99", Points: []htmlpage.Point{{X: 1, Y: 20}, {X: 2, Y: 35}, {X: 3, Y: 28}}},
					},
				},
				&htmlpage.Table{
					Columns: []htmlpage.Column{{Name: "endpoint"}, {Name: "p99 ms", Numeric: true}},
					Rows:    []htmlpage.Row{{Cells: []string{"/get", "28"}}, {Cells: []string{"/put", "35"}}},
				},
			}},
		},
	}
	var b bytes.Buffer
	if err := htmlpage.Write(&b, page); err != nil {
		log.Fatal(err)
	}
	out := b.String()
	fmt.Println(strings.HasPrefix(out, "<!DOCTYPE html>"))
	fmt.Println("lines:", strings.Count(out, "<polyline"))
	fmt.Println("rows:", strings.Count(out, "<tr>")-1) // minus the header
	// Output:
	// true
	// lines: 2
	// rows: 2
}
