package report

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/morpheus-go/morpheus/cmd/morpheus/internal/htmlpage"
	"github.com/morpheus-go/morpheus/internal/plural"
)

// Write writes the report of d to w as one self-contained HTML page. The
// output is deterministic: the same Data gives the same bytes.
func Write(w io.Writer, d *Data) error {
	if d == nil {
		return errors.New("report: no data")
	}
	return htmlpage.Write(w, page(d))
}

// page builds the page of d.
func page(d *Data) *htmlpage.Page {
	title := d.Title
	if title == "" {
		title = "morpheus: " + d.Test
	}
	p := &htmlpage.Page{
		Title:    title,
		Subtitle: subtitle(d),
		Footer:   "Written by morpheus.",
		CSS:      diagramCSS,
	}
	if d.Failure != nil && d.Failure.Trace != nil {
		p.Footer += " Replay the failure step by step with: morpheus replay TRACE"
	}
	// A report made from a trace alone has no figures of a run.
	alone := alone(d)
	run := htmlpage.Section{Title: "Run", ID: "run", Blocks: []htmlpage.Block{runStats(d)}}
	if alone {
		run.Blocks = []htmlpage.Block{htmlpage.Paragraph("No figures of the run: this report was made from a trace alone.")}
	}
	p.Sections = append(p.Sections, run)
	switch {
	case d.Failure != nil:
		p.Sections = append(p.Sections, failureSections(d.Failure)...)
	case d.Trace != nil:
		p.Sections = append(p.Sections, traceSections(d.Trace)...)
	}
	if !alone {
		p.Sections = append(p.Sections, coverageSection(d))
	}
	return p
}

// hexSeed formats a seed as the console does.
func hexSeed(s uint64) string { return "0x" + strconv.FormatUint(s, 16) }

// alone reports whether d was made from a trace alone, without figures of a
// run (and so without its base seed).
func alone(d *Data) bool { return d.Iterations == 0 && d.Steps == 0 && len(d.Coverage) == 0 }

func subtitle(d *Data) string {
	s := "test " + orDash(d.Test) + ", strategy " + orDash(d.Strategy)
	tr := d.Trace
	if d.Failure != nil {
		tr = d.Failure.Trace
	}
	if !alone(d) {
		s += ", base seed " + hexSeed(d.Seed)
	}
	if tr != nil {
		s += ", iteration " + strconv.Itoa(tr.Header.Iteration+1) + " (iteration seed " + hexSeed(tr.Header.Seed) + ")"
	}
	if d.Failure != nil {
		return s + ": FAILED (" + d.Failure.Kind + ")"
	}
	return s + ": passed"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// runStats is the row of run figures.
func runStats(d *Data) htmlpage.Stats {
	fail := htmlpage.Stat{Label: "failures", Value: strconv.Itoa(d.Failures), Class: "good"}
	if d.Failures > 0 {
		fail.Class = "bad"
	}
	st := htmlpage.Stats{
		{Label: "iterations", Value: strconv.Itoa(d.Iterations)},
		fail,
		{Label: "strategy", Value: orDash(d.Strategy)},
		{Label: "base seed", Value: hexSeed(d.Seed)},
		{Label: "ops", Value: htmlpage.FormatNumber(float64(d.Steps))},
		{Label: "wall time", Value: d.Elapsed.Round(time.Millisecond).String()},
		{Label: "ops/s", Value: opsPerSec(d)},
	}
	if n := len(d.Coverage); n > 0 {
		st = append(st, htmlpage.Stat{Label: "partial orders", Value: strconv.Itoa(d.Coverage[n-1].PartialOrders)})
	}
	return st
}

func opsPerSec(d *Data) string {
	if d.Elapsed <= 0 {
		return "-"
	}
	return htmlpage.FormatNumber(float64(int64(float64(d.Steps) / d.Elapsed.Seconds())))
}

// coverageSection charts the distinct partial orders over the iterations.
func coverageSection(d *Data) htmlpage.Section {
	s := htmlpage.Section{Title: "Coverage", ID: "coverage"}
	if len(d.Coverage) == 0 {
		s.Blocks = append(s.Blocks, htmlpage.Paragraph("No coverage samples were recorded."))
		return s
	}
	pts := make([]htmlpage.Point, len(d.Coverage))
	for i, c := range d.Coverage {
		pts[i] = htmlpage.Point{X: float64(c.Iteration), Y: float64(c.PartialOrders)}
	}
	last := d.Coverage[len(d.Coverage)-1]
	s.Blocks = append(s.Blocks,
		&htmlpage.LineChart{
			Title:  "Distinct partial orders over iterations",
			XLabel: "iterations", YLabel: "partial orders",
			Series: []htmlpage.Series{{Name: "distinct partial orders", Points: pts}},
		},
		htmlpage.Paragraph(fmt.Sprintf("%s in %s.", plural.N(last.PartialOrders, "distinct partial order"), plural.N(last.Iteration, "iteration"))))
	return s
}
