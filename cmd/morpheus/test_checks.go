package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/internal/results"
	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// In rewrite mode (morpheus test's default) a test that calls
// morpheus.Check runs as it is (the rewriter does not wrap it), and the
// Check finds its settings in the environment of the test processes as
// under go test: morpheus test passes the flags the user set, and a
// progress file (MORPHEUS_PROGRESS) that it draws progress from while the
// driver runs; the driver shards each Check over its processes and merges
// their records (driver.PackageSummary.Checks), which morpheus test then
// summarizes, keeps (-results), prints (-json) and turns into HTML reports
// (-report) as in plain mode.

// rewriteMode reports whether morpheus test's arguments leave rewriting on:
// it is, unless -rewrite=false is given.
func rewriteMode(args []string) bool {
	on := true
	for _, a := range args {
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "rewrite" {
			continue
		}
		on = true
		if hasVal {
			if b, err := strconv.ParseBool(val); err == nil {
				on = b
			}
		}
	}
	return on
}

// checkEnv returns the MORPHEUS_* settings of the Checks for the flags the
// user set: -iterations is also a Check's iterations, -strategy, -seed,
// -maxsteps, -watchdog and -replay are the Check's own. replay is
// -replay's trace as the driver has it: relative to -C's directory as
// given, a directory holding one trace resolved to it.
func checkEnv(fs *flag.FlagSet, seed uint64, replay string) []string {
	var env []string
	fs.Visit(func(f *flag.Flag) {
		v := f.Value.String()
		switch f.Name {
		case "iterations", "schedules":
			env = append(env, "MORPHEUS_ITERATIONS="+v)
		case "duration":
			env = append(env, "MORPHEUS_DURATION="+v)
		case "strategy":
			env = append(env, "MORPHEUS_STRATEGY="+v)
		case "seed":
			env = append(env, "MORPHEUS_SEED="+strconv.FormatUint(seed, 10))
		case "maxsteps":
			env = append(env, "MORPHEUS_MAXSTEPS="+v)
		case "watchdog":
			env = append(env, "MORPHEUS_WATCHDOG="+v)
		case "replay":
			env = append(env, "MORPHEUS_REPLAY="+absPath(replay))
		}
	})
	return env
}

// runWithProgress runs the driver while drawing the Checks' progress lines
// on out.
func runWithProgress(cfg driver.Config, out io.Writer) (*driver.Summary, error) {
	progress, cleanup, err := tempFile("progress.jsonl")
	if err != nil {
		return nil, err
	}
	defer cleanup()
	if cfg.Env == nil {
		cfg.Env = os.Environ()
	}
	cfg.Env = append(cfg.Env, "MORPHEUS_PROGRESS="+progress)
	view := newProgressView(out, progress)
	view.pkgs.doneSwitches = true // the driver runs one package after the other
	type result struct {
		sum *driver.Summary
		err error
	}
	done := make(chan result, 1)
	go func() {
		sum, err := driver.Run(context.Background(), cfg)
		done <- result{sum, err}
	}()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r := <-done:
			view.finish()
			return r.sum, r.err
		case <-tick.C:
			view.poll()
		}
	}
}

// checkRecords returns the merged Check records of every package.
func checkRecords(sum *driver.Summary) []*results.Record {
	var recs []*results.Record
	for _, p := range sum.Packages {
		recs = append(recs, p.Checks...)
	}
	return recs
}

// rewrittenReports returns, for the HTML reports, a record of each
// rewritten test that failed with a trace: its schedules, and its failure
// as the trace records it (a deadlock's wait-for cycle, a race's accesses).
// A trace that cannot be read gets no report; the summary names it.
func rewrittenReports(sum *driver.Summary) []*results.Record {
	var recs []*results.Record
	for _, p := range sum.Packages {
		for _, t := range p.Tests {
			if t.Kind == "" || t.Trace == "" {
				continue
			}
			rec, err := rewrittenRecord(p.Path, "", t, nil)
			if err != nil || rec.Failure == nil || rec.Failure.Trace == "" {
				continue
			}
			if tr, err := rec.Failure.DecodeTrace(); err == nil {
				rec.Strategy, rec.Seed = tr.Header.Strategy, tr.Header.Seed
			}
			rec.Planned, rec.Steps = t.Schedules, t.Steps
			recs = append(recs, rec)
		}
	}
	return recs
}

// checkTestRecord is a Check's record in -json's form.
func checkTestRecord(pkg string, r *results.Record) testRecord {
	tr := testRecord{Package: pkg, Test: r.Test, Schedules: r.Iterations, Steps: r.Steps, Check: true, Stale: r.Stale}
	if f := r.Failure; f != nil {
		tr.Kind, tr.Location, tr.Failure, tr.Trace = f.Kind, f.Location, f.Message, f.Path
	}
	return tr
}

// finishChecks writes the HTML reports of the Checks and of the rewritten
// tests that failed (rewrittenReports) into report ("" for none), and
// lists them unless asJSON.
func finishChecks(w io.Writer, sum *driver.Summary, report string, asJSON bool) error {
	recs := checkRecords(sum)
	failed := rewrittenReports(sum)
	if len(recs)+len(failed) == 0 {
		return nil
	}
	if report == "" {
		return nil
	}
	paths, err := writeReports(report, append(failed, recs...))
	if err != nil {
		return err
	}
	if !asJSON {
		for _, p := range paths {
			fmt.Fprintf(w, "report: %s\n", p)
		}
	}
	return nil
}
