package main

import (
	"fmt"
	"io"
	"os"

	"github.com/morpheus-go/morpheus/internal/results"
)

func init() {
	register(&command{
		name:    "merge",
		summary: "merge the result files of shards into one result and report",
		run:     runMerge,
	})
}

func runMerge(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("merge", "merge [-o FILE] [-report DIR] [-partial] [-json] RESULTS...", stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: morpheus merge [-o FILE] [-report DIR] [-partial] [-json] RESULTS...

Combines result files (written by -morpheus.results, MORPHEUS_RESULTS or
morpheus test -results), typically one per shard (-morpheus.shard=i/N), into
the result of the whole run, per test: iterations, steps and failures
summed, partial orders and conflict tables united, the lowest failing
iteration kept with its trace. Prints a summary (or, with -json, the merged
records), writes the merged records to -o and an HTML report per test into
-report.

Flags:
`)
		fs.PrintDefaults()
	}
	out := fs.String("o", "", "write the merged records (JSON lines) to this file")
	reportDir := fs.String("report", "", "write an HTML report per test into this directory")
	partial := fs.Bool("partial", false, "merge even if some shards of a run are missing")
	asJSON := fs.Bool("json", false, "print the merged records as JSON lines instead of a summary")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "morpheus merge: expected result files")
		return errUsage
	}
	var all []*results.Record
	for _, path := range fs.Args() {
		recs, err := results.ReadFile(path)
		if err != nil {
			return err
		}
		all = append(all, recs...)
	}
	merged, err := results.Merge(all, *partial)
	if err != nil {
		return err
	}
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		if err := results.Write(f, merged); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	if *asJSON {
		if err := results.Write(stdout, merged); err != nil {
			return err
		}
	} else {
		summarize(stdout, merged)
	}
	if *reportDir != "" {
		paths, err := writeReports(*reportDir, merged)
		if err != nil {
			return err
		}
		if !*asJSON {
			for _, p := range paths {
				fmt.Fprintf(stdout, "report: %s\n", p)
			}
		}
	}
	return nil
}
