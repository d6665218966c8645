package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/morpheus-go/morpheus/cmd/morpheus/internal/report"
	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/trace"
)

func init() {
	register(&command{
		name:    "report",
		summary: "render a trace as a self-contained HTML report (and a ShiViz log)",
		run:     runReport,
	})
}

const reportHelp = `
Report renders the trace in TRACE (a file saved by a failing test, or by
"morpheus test") as one HTML file that opens offline: the failure, a
sequence diagram of the trace with a lane per task, the races the failure
depends on, and every step. With -result, it also shows the figures of the
run the trace came from (iterations, failures, ops/s) and its coverage of
distinct partial orders. With -shiviz it also writes the trace as a log for
ShiViz (https://bestchai.bitbucket.io/shiviz/).

The report goes to -o, by default into the current directory (never beside
the trace, which may be in a package's testdata), named after the trace
and its test: TEST-NAME.html for a trace file NAME (NAME.html if NAME
already holds the test's name). The command prints the path it wrote.

Flags may come before or after TRACE.
`

// runReport is the report command.
func runReport(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("report", "report [-o FILE] [-result FILE] [-shiviz FILE] TRACE", stderr)
	usage := fs.Usage
	fs.Usage = func() { usage(); fmt.Fprint(fs.Output(), reportHelp) }
	out := fs.String("o", "", "the HTML file to write (default TEST-NAME.html in the current directory for a trace file NAME; - for standard output)")
	result := fs.String("result", "", "the result file of the run the trace came from (-morpheus.results), for its figures and coverage")
	shiviz := fs.String("shiviz", "", "also write the trace as a ShiViz log to this file (- for standard output)")
	title := fs.String("title", "", "the report's title (default \"morpheus: TEST\")")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "morpheus report: want one TRACE file, got %d arguments\n", len(pos))
		fs.Usage()
		return errUsage
	}
	path := pos[0]
	tr, err := readTraceFile(path)
	if err != nil {
		return err
	}
	d := dataFromTrace(tr)
	if *result != "" {
		if err := addResult(d, tr, *result); err != nil {
			return err
		}
	}
	if *title != "" {
		d.Title = *title
	}
	var html bytes.Buffer
	if err := report.Write(&html, d); err != nil {
		return err
	}
	if *out == "" {
		*out = reportName(path, tr.Header.Test)
	}
	if err := writeOutput(*out, html.Bytes(), stdout); err != nil {
		return err
	}
	if *out != "-" {
		fmt.Fprintf(stdout, "report: %s\n", *out)
	}
	if *shiviz != "" {
		var log bytes.Buffer
		if err := hb.WriteShiViz(&log, tr); err != nil {
			return err
		}
		if err := writeOutput(*shiviz, log.Bytes(), stdout); err != nil {
			return err
		}
		if *shiviz != "-" {
			fmt.Fprintf(stdout, "shiviz log: %s\n", *shiviz)
		}
	}
	return nil
}

// reportName is the default file of the report of the trace at path, of
// test: in the current directory, named after the trace's file and its
// test (a saved trace's name is a hash).
func reportName(path, test string) string {
	name := filepath.Base(path)
	if test != "" && !strings.Contains(name, fileName(test)) {
		name = fileName(test) + "-" + name
	}
	return name + ".html"
}

// parseInterleaved parses args into fs, allowing flags after the positional
// arguments, and returns the positional arguments. "--" ends the flags.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// readTraceFile decodes the trace file at path.
func readTraceFile(path string) (*trace.Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return trace.Decode(f, path)
}

// dataFromTrace is the report of a trace alone: its test, strategy and seed,
// and its failure if it has one.
func dataFromTrace(tr *trace.Trace) *report.Data {
	h := tr.Header
	d := &report.Data{Test: h.Test, Strategy: h.Strategy, Seed: h.Seed}
	if f := h.Failure; f != nil {
		d.Failure = &report.FailureView{Kind: f.Kind, Message: f.Message, Location: f.Loc, Trace: tr}
		if f.Task >= 0 {
			d.Failure.Task = tr.TaskName(f.Task)
		}
	} else {
		d.Trace = tr
	}
	return d
}

// writeOutput writes data to the file path, or to stdout if path is "-".
func writeOutput(path string, data []byte, stdout io.Writer) error {
	if path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	if strings.HasSuffix(path, string(os.PathSeparator)) {
		return errors.New(path + ": a directory, not a file")
	}
	return os.WriteFile(path, data, 0o644)
}
