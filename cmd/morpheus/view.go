package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/cmd/morpheus/internal/htmlpage"
	"github.com/morpheus-go/morpheus/cmd/morpheus/internal/report"
	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/internal/results"
)

// reportData turns a result record into what the HTML report shows.
func reportData(r *results.Record) (*report.Data, error) {
	d := &report.Data{
		Test: r.Test, Strategy: r.Strategy, Seed: r.Seed, Iterations: r.Iterations,
		Failures: r.Failures, Steps: r.Steps, Elapsed: time.Duration(r.ElapsedNS),
	}
	if r.Shards > 0 {
		d.Title = fmt.Sprintf("morpheus: %s (%d shards merged)", r.Test, r.Shards)
	}
	for _, p := range results.Curve(r.OrderMap(), r.Limit, 100) {
		d.Coverage = append(d.Coverage, report.CoveragePoint{Iteration: p.Iteration, PartialOrders: p.PartialOrders})
	}
	if f := r.Failure; f != nil {
		fv := &report.FailureView{Kind: f.Kind, Message: f.Message, Task: f.Task, Location: f.Location}
		if f.OriginalSteps != f.Steps {
			fv.OriginalSteps = f.OriginalSteps
		}
		fv.ShrinkTimedOut = f.ShrinkTimedOut
		if f.Trace != "" {
			tr, err := f.DecodeTrace()
			if err != nil {
				return nil, err
			}
			fv.Trace = tr
		}
		d.Failure = fv
	}
	return d, nil
}

// writeReports writes one HTML report per record into dir, at
// <package path>/<test>.html (tests of the same name in two packages do not
// collide), and an index page (index.html) that lists them by package and
// test, and returns the reports' paths followed by the index's.
func writeReports(dir string, recs []*results.Record) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for _, r := range recs {
		d, err := reportData(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", r.Test, err)
		}
		path := filepath.Join(dir, filepath.FromSlash(reportFile(r)))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		f, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		if err := report.Write(f, d); err != nil {
			f.Close()
			return nil, err
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	index := filepath.Join(dir, "index.html")
	f, err := os.Create(index)
	if err != nil {
		return nil, err
	}
	if err := htmlpage.Write(f, indexPage(recs)); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	return append(paths, index), nil
}

// indexPage lists the records' Checks, failing ones first marked, each
// linked to its report.
func indexPage(recs []*results.Record) *htmlpage.Page {
	tb := &htmlpage.Table{Sortable: true, Columns: []htmlpage.Column{
		{Name: "test"}, {Name: "package"}, {Name: "result"}, {Name: "strategy"}, {Name: "iterations", Numeric: true},
		{Name: "failures", Numeric: true}, {Name: "partial orders", Numeric: true}, {Name: "wall time"},
	}}
	failing := 0
	for _, r := range recs {
		row := htmlpage.Row{Link: reportFile(r), Cells: []string{
			r.Test, r.Package, "ok", r.Strategy, strconv.Itoa(r.Iterations), strconv.Itoa(r.Failures),
			strconv.Itoa(r.PartialOrders), time.Duration(r.ElapsedNS).Round(time.Millisecond).String(),
		}}
		if f := r.Failure; f != nil {
			failing++
			row.Class = "bad"
			row.Cells[2] = failureLine(f.Kind, -1, f.Task, f.Location, f.Message)
		}
		tb.Rows = append(tb.Rows, row)
	}
	stats := htmlpage.Stats{{Label: "checks", Value: strconv.Itoa(len(recs))}, {Label: "failing", Value: strconv.Itoa(failing)}}
	if failing > 0 {
		stats[1].Class = "bad"
	} else {
		stats[1].Class = "good"
	}
	return &htmlpage.Page{
		Title:    "morpheus test",
		Subtitle: "one report per Check; click a test to open its report",
		Sections: []htmlpage.Section{{Title: "Checks", ID: "checks", Blocks: []htmlpage.Block{stats, tb}}},
	}
}

// reportFile is the path, relative to the report directory and with
// slashes, of a record's report: its package's path, then its test.
func reportFile(r *results.Record) string {
	var parts []string
	for _, p := range strings.Split(r.Package, "/") {
		if p != "" && p != "." && p != ".." {
			parts = append(parts, fileName(p))
		}
	}
	return strings.Join(append(parts, fileName(r.Test)+".html"), "/")
}

// fileName makes a test name usable as a file name.
func fileName(test string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.':
			return r
		}
		return '_'
	}, test)
}

// summarize prints one line per record, and the failure under it. Given
// the paths of the package that morpheus test ran the Checks of (the
// driver's package in rewrite mode, plainPaths under -rewrite=false), a
// failure's trace is named as the user names it where morpheus test ran,
// and the command that replays it follows, as for a rewritten test; nil
// names them as the records do.
func summarize(w io.Writer, recs []*results.Record, p checkPaths) {
	if p == nil {
		p = asRecorded{}
	}
	for _, r := range recs {
		// Steps over all iterations, "in all": a failure's own count (its
		// trace's, as go test reports it) is on its trace line.
		what := plural.N(r.Iterations, "iteration") + ", " + plural.N(r.Steps, "step") + " in all, " + plural.N(r.PartialOrders, "partial order")
		if r.Replay != "" {
			what = "replay of " + p.Shown(r.Replay) + ", " + plural.N(r.Steps, "step")
		}
		if r.Shards > 0 {
			what += ", " + plural.N(r.Shards, "shard")
		} else if r.Shard != "" {
			what += ", shard " + r.Shard
		}
		if r.Interrupted {
			what += ", interrupted"
		}
		verdict := "ok"
		if r.Failure != nil {
			verdict = "FAIL"
		} else if r.Interrupted {
			verdict = "INTR" // incomplete, no failure so far
		}
		fmt.Fprintf(w, "%-4s %s: %s (strategy %s, seed %#x, %v)\n", verdict, testName(r.Package, r.Test), what, r.Strategy, r.Seed, time.Duration(r.ElapsedNS).Round(time.Millisecond))
		if f := r.Failure; f != nil {
			fmt.Fprintf(w, "     %s\n", failureLine(f.Kind, f.Iteration, f.Task, f.Location, f.Message))
			if f.OriginalSteps > 0 && f.OriginalSteps != f.Steps {
				fmt.Fprintf(w, "     shrunk from %d to %s\n", f.OriginalSteps, plural.N(f.Steps, "step"))
			}
			if f.Path != "" {
				fmt.Fprintf(w, "     trace: %s (%s)\n", p.Shown(f.Path), plural.N(f.Steps, "step"))
				if cmd := p.ReplayCommand(f.Path, r.Test); cmd != "" {
					fmt.Fprintf(w, "     replay: %s\n", cmd)
				}
			}
		}
		printStale(w, p, r.Stale)
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
