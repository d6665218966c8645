package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/trace"
)

func init() {
	register(&command{
		name:    "shrink",
		summary: "search a simpler failing schedule for a trace, replaying its test",
		run:     runShrink,
	})
}

func runShrink(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("shrink", "shrink [-run TEST] [-C DIR] [-o FILE] [-budget N] [-time D] [-json] TRACE", stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: morpheus shrink [-run TEST] [-C DIR] [-o FILE] [-budget N] [-time D] [-json] TRACE

Replays the trace's test on it ("go test -run" in its package, or, for an
ordinary test's trace, "morpheus test -replay" there) and, if it
fails, searches for a simpler schedule that fails the same way (same kind,
location and message up to numbers): fewer steps, fewer context switches,
fewer faults, smaller choices. Every candidate is validated by running the
test. Writes the shrunk trace to -o (default TRACE.shrunk, which the corpus
ignores; replace the saved trace with it to keep it); when no simpler
schedule fails the same way (the traces morpheus test saves were shrunk
when they were found), it says the trace is already minimal and writes
nothing. TRACE is a trace file, or a directory holding one.

Flags:
`)
		fs.PrintDefaults()
	}
	var a traceArgs
	a.flags(fs)
	out := fs.String("o", "", "file for the shrunk trace (default TRACE.shrunk)")
	budget := fs.Int("budget", 1000, "candidate schedules to run at most, one per 2,500 steps a candidate ran")
	limit := fs.Duration("time", time.Minute, "wall-clock budget of the search")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *budget < 1 {
		fmt.Fprintf(stderr, "morpheus shrink: -budget %d: expected at least 1\n", *budget)
		return errUsage
	}
	if err := a.load(fs.Args(), stderr, "shrink"); err != nil {
		return err
	}
	if *out == "" {
		*out = a.path + ".shrunk"
	}
	var log strings.Builder
	r := &replayRun{trace: a.path, tr: a.tr, test: a.run, pkg: a.pkg, cache: a.cache, output: &log, shrink: *budget,
		env: []string{"MORPHEUS_SHRINKTIME=" + limit.String()}}
	rec, err := r.run()
	if err != nil {
		io.WriteString(stderr, log.String())
		return err
	}
	f := rec.Failure
	if f == nil {
		return fmt.Errorf("%s: the test passes on this trace: nothing to shrink", a.path)
	}
	if f.Kind == "nondeterminism" || f.Kind == "stale-trace" {
		return fmt.Errorf("%s: nothing to shrink: %s", a.path, firstLine(f.Message))
	}
	tr, err := f.DecodeTrace()
	if err != nil {
		return err
	}
	minimal := sameSchedule(a.tr, tr)
	if !minimal {
		if err := morpheus.WriteTrace(*out, tr); err != nil {
			return err
		}
	}
	if a.json {
		return json.NewEncoder(stdout).Encode(rec)
	}
	fmt.Fprintln(stdout, failureLine(f.Kind, -1, "", f.Location, firstLine(f.Message)))
	if minimal {
		// Nothing simpler fails the same way: a trace morpheus test saved
		// was shrunk when it was found, and shrinking a shrunk trace
		// again finds nothing (unless a budget cut the first search).
		why := "no simpler schedule fails the same way"
		if f.ShrinkTimedOut {
			why = "no simpler failing schedule found within -time " + limit.String()
		}
		fmt.Fprintf(stdout, "already minimal for the shrinker (%s, %s): %s kept, nothing written\n", plural.N(f.Steps, "step"), why, a.path)
		return nil
	}
	from := f.OriginalSteps
	if from == 0 {
		from = f.Steps
	}
	fmt.Fprintf(stdout, "shrunk from %d to %s: %s\n", from, plural.N(f.Steps, "step"), *out)
	if _, err := os.Stat(*out); err != nil {
		return err
	}
	return nil
}

// sameSchedule reports whether two traces record the same schedule: the
// same events, at the same places, and the same clock limit (their
// headers' strategy and seed aside: a shrunk trace is the replay's).
func sameSchedule(a, b *trace.Trace) bool {
	if len(a.Events) != len(b.Events) || clockLimit(a) != clockLimit(b) {
		return false
	}
	for i, ea := range a.Events {
		eb := b.Events[i]
		if a.LocString(ea.Loc) != b.LocString(eb.Loc) {
			return false
		}
		ea.Loc, eb.Loc = 0, 0
		if ea != eb {
			return false
		}
	}
	return true
}

func clockLimit(tr *trace.Trace) int64 {
	if f := tr.Header.Failure; f != nil {
		return f.ClockLimit
	}
	return 0
}
