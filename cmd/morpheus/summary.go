package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// printTestSummary prints morpheus test's summary, one package after the
// other, every verdict line naming its package: the package's schedules
// and build, what could not be controlled, its error, each rewritten test
// (a failure with its one-line form, then its report), its stale corpus
// entries, and its Checks (see summarize).
func printTestSummary(w io.Writer, sum *driver.Summary) {
	for _, p := range sum.Packages {
		n, rate := p.Schedules()
		if p.Cached {
			fmt.Fprintf(w, "package %s: cached (an earlier run's outcome, same test binary, settings and inputs: %s in %v; -count=1 runs again), build %v\n",
				p.Path, count(n, "schedule"), p.Elapsed.Round(time.Millisecond), p.Build.Round(time.Millisecond))
		} else {
			fmt.Fprintf(w, "package %s: %s, build %v\n", p.Path, packageRun(n, p.Elapsed, rate), p.Build.Round(time.Millisecond))
		}
		for _, i := range p.Issues {
			fmt.Fprintf(w, "     %s: uncontrolled: %s\n", p.Path, i)
		}
		if p.Err == driver.ErrNotRun {
			fmt.Fprintf(w, "INTR %s: not run (interrupted before its tests started)\n", p.Path)
		} else if p.Err != nil {
			fmt.Fprintf(w, "ERROR %s: %v\n", p.Path, p.Err)
			if p.Output != "" {
				fmt.Fprintf(w, "%s\n", indentLines(tail(p.Output, 40), "\t"))
			}
		}
		for _, t := range p.Tests {
			name := testName(p.Path, t.Name)
			switch {
			case t.Failure != "":
				fmt.Fprintf(w, "FAIL %s: %s\n", name, failureLine(t.Kind, -1, t.Task, t.Location, t.Message))
				fmt.Fprintf(w, "%s\n", indentLines(t.Failure, "\t"))
				if t.Log != "" {
					fmt.Fprintf(w, "\ttest output: %s\n", t.Log)
				}
				if t.Schedules > 0 {
					fmt.Fprintf(w, "\t%s%s%s\n", count(t.Schedules, "schedule"), stoppedNote(t.Stopped), cachedNote(t.Cached))
				}
			case t.Skipped:
				fmt.Fprintf(w, "SKIP %s\n", name)
			case t.Interrupted && t.Schedules == 0:
				fmt.Fprintf(w, "INTR %s: not run (interrupted before it started)\n", name)
			case t.Interrupted:
				fmt.Fprintf(w, "INTR %s: %s, interrupted (no failure so far)\n", name, count(t.Schedules, "schedule"))
			case t.Real != "":
				fmt.Fprintf(w, "ok   %s: ran once on the real network and real time, not under control: %s\n", name, t.Real)
			default:
				fmt.Fprintf(w, "ok   %s: %s%s%s\n", name, count(t.Schedules, "schedule"), stoppedNote(t.Stopped), cachedNote(t.Cached))
			}
			if t.History != "" {
				fmt.Fprintf(w, "     %s\n", t.History)
			}
			for _, f := range t.Foreign {
				fmt.Fprintf(w, "     foreign channel (polled, not controlled) at %s\n", f)
			}
			printStale(w, p, t.Stale)
			for _, path := range t.Passed {
				fmt.Fprintf(w, "     fixed corpus entry %s: its replay passes, the bug is fixed\n", p.Shown(path))
			}
			if len(t.Stale)+len(t.Passed) > 0 {
				fmt.Fprintf(w, "     (morpheus test -prune deletes the corpus entries above)\n")
			}
			for _, path := range t.Pruned {
				fmt.Fprintf(w, "     pruned corpus entry %s\n", p.Shown(path))
			}
		}
		summarize(w, p.Checks, p)
	}
}

// stoppedNote says why a test's exploration stopped, " (budget-time)", or
// nothing if its record does not say.
func stoppedNote(stopped string) string {
	if stopped == "" {
		return ""
	}
	return " (" + stopped + ")"
}

// cachedNote marks the outcome of an earlier run shown again.
func cachedNote(cached bool) string {
	if cached {
		return " (cached)"
	}
	return ""
}

// printStale lists stale corpus entries of p, "PATH: where the run left
// it" each.
func printStale(w io.Writer, p checkPaths, stale []string) {
	for _, st := range stale {
		path, where, _ := strings.Cut(st, ": ")
		fmt.Fprintf(w, "     stale corpus entry %s, recorded on different code (%s): delete it if the bug is fixed\n", p.Shown(path), where)
	}
}

// count is "1 schedule", "2 schedules".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
