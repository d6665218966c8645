package main

import (
	"errors"
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
	fs := newFlagSet("merge", "merge [-o FILE] [-report DIR] [-partial] [-json] [-C DIR] RESULTS...", stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: morpheus merge [-o FILE] [-report DIR] [-partial] [-json] [-C DIR] RESULTS...

Combines result files, typically one per shard, into the result of the
whole run.

Files of morpheus test (-shard i/N -results FILE, see docs/scale-out.md):
the shards ran, of every test, the schedules whose number is i modulo N,
with the seeds they have in an unsharded run. Per test the schedules and
steps are summed, the failure is the lowest failing schedule's, and the
reason it stopped the strongest of the shards' (failure, interrupted,
exhausted, budget-time, budget-schedules). It prints the summary (or, with
-json, the records) that morpheus test prints for the whole run, saves the
trace of each failure it names in its package's testdata/morpheus/<Test>/
under the module in -C's directory (once, as the run would), writes one
result file of the whole run to -o and HTML reports into -report, and
exits 1 if a test failed. It refuses files of different runs, a shard
twice, a missing shard or one that did not finish (killed: no "end"
line), naming the file and line; -partial merges what is there.

Files of morpheus.Check records (-morpheus.results, MORPHEUS_RESULTS,
morpheus test -rewrite=false -results; shards -morpheus.shard=i/N): per
test, iterations, steps and failures summed, partial orders and conflict
tables united, the lowest failing iteration kept with its trace. It
prints a summary (or, with -json, the merged records), writes the merged
records to -o and an HTML report per test into -report.

Flags:
`)
		fs.PrintDefaults()
	}
	out := fs.String("o", "", "write the merged records (JSON lines) to this file")
	reportDir := fs.String("report", "", "write an HTML report per test into this directory")
	partial := fs.Bool("partial", false, "merge even if some shards of a run are missing")
	asJSON := fs.Bool("json", false, "print the merged records as JSON lines instead of a summary")
	dir := fs.String("C", ".", "the module whose packages' testdata/morpheus receive the failing traces (morpheus test's files)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "morpheus merge: expected result files")
		return errUsage
	}
	var runs []*resultFile
	var checkFile string
	var all []*results.Record
	for _, path := range fs.Args() {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		rf, err := readResults(f, path)
		f.Close()
		switch {
		case err == nil:
			runs = append(runs, rf)
			continue
		case !errors.Is(err, errNotRewritten):
			return err
		}
		recs, err := results.ReadFile(path)
		if err != nil {
			return err
		}
		all = append(all, recs...)
		checkFile = path
	}
	if len(runs) > 0 && checkFile != "" {
		return fmt.Errorf("%s holds morpheus.Check records, %s is a result file of morpheus test's rewritten tests: merge each kind apart", checkFile, runs[0].name)
	}
	if len(runs) > 0 {
		return mergeRewritten(runs, *out, *reportDir, *dir, *partial, *asJSON, stdout)
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
		summarize(stdout, merged, nil)
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
