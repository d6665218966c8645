package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/internal/rewrite"
	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

func init() {
	register(&command{
		name:    "rewrite",
		summary: "run a package's unmodified tests under morpheus by rewriting it at build time",
		run:     runRewrite,
	})
}

const rewriteUsage = `Usage: morpheus rewrite [flags] PACKAGES

Rewrites the packages, their tests and their non-standard dependencies onto
morpheus's controlled runtime (without touching them) and runs their tests
under control, or shows what it would change (-list, -diff, -out). It is
morpheus test's default mode without the progress line, the -json records
and the Checks' result files and HTML reports: its flags have morpheus
test's names and defaults. Exits 1 if a test fails; a first ^C stops the
exploration and reports what ran (exit 130).

Flags:
  -iterations N   schedules per test over all processes (alias -schedules;
                  default 100, and a process explores the test for at
                  most max(1s, 3 x its first schedule): a schedule starts
                  only if, as long as the mean so far, it ends by then;
                  a schedule running a minute into the test is cut,
                  uncounted, no failure); 0: unlimited, until a failure,
                  -duration or ^C
  -duration D     time budget of each test in each process (schedules
                  unlimited unless -iterations says)
  -strategy S     exploration strategy (default morpheus's)
  -seed N         base seed, or "random" (default: from each test's name)
  -jobs N         parallel test processes per package (default 2); the
                  first in the package's directory, each other in a
                  private copy of it
  -run REGEXP     run only the tests matching REGEXP
  -race           build the tests with Go's race detector as well
  -vet LIST       go vet's checks run on each package as written before it
                  is built, as go test runs them: "off", "all", or a list of
                  analyzers (atomic,bool); default go test's own, with the
                  module's go version. A finding stops the package's build
  -replay TRACE   replay a saved trace (with -run naming its test)
  -C DIR          run the go command in DIR
  -exclude LIST   comma-separated import-path prefixes not to rewrite
  -cache DIR      cache directory for rewritten files and binaries
  -maxsteps N     step limit of a schedule (default 1000000): past it the schedule
                  runs on, fairly, to ten times it, and only there fails as step-limit
                  (a livelock, or one goroutine that polls alone; one that computes
                  alone, goroutines that compute side by side without polling or
                  answering each other back and forth, or goroutines that keep
                  resting on timers, run on to a hundred times it)
  -watchdog D     report a goroutine blocked outside control after D (5s;
                  time the machine starves the process counts up to 5×D),
                  in an exploration and in a replay (-replay, the corpus's)
  -allowleaks     goroutines still blocked after a test returned are no failure
  -allowraces     data races are no failure (the accesses stay scheduling points)
  -earlytimers N  times per schedule the nearest timer, sleep or time-out, if
                  at most 1 ms ahead, may fire while goroutines can still run
                  (default 0: never; -1, a portfolio: of every four schedules
                  two never, one up to 2 times, one up to 24)
  -epoch T        the instant every schedule's clock starts at, in RFC 3339
                  (default 2000-01-01T00:00:00Z): for code that works out dates
                  (a yearly cron job fires in the first second of a year);
                  recorded in the traces, whose replays start there
  -list           list the constructs morpheus cannot control, per package,
                  and the tests that run once on the real network instead
  -diff           show the rewritten lines of every changed file
  -out DIR        write the rewritten files under DIR
`

func runRewrite(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("rewrite", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, rewriteUsage) }
	df := addDriverFlags(fs)
	list := fs.Bool("list", false, "")
	diff := fs.Bool("diff", false, "")
	out := fs.String("out", "", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg, err := df.config("rewrite", fs, stderr)
	if err != nil {
		return err
	}
	if df.randomSeed() {
		fmt.Fprintf(stdout, "seed %d\n", cfg.Seed)
	}
	if *list || *diff || *out != "" {
		pkgs, err := rewrite.Load(rewrite.LoadConfig{Dir: cfg.Dir, Patterns: cfg.Patterns, Exclude: cfg.Exclude})
		if err != nil {
			return err
		}
		for _, p := range pkgs {
			if p.Err != "" {
				fmt.Fprintf(stderr, "%s does not build as written:\n\t%s\n", p.Path, strings.ReplaceAll(p.Err, "\n", "\n\t"))
			}
		}
		switch {
		case *list:
			printIssues(stdout, pkgs)
		case *diff:
			return printDiff(stdout, pkgs)
		default:
			return writeOut(stdout, *out, pkgs)
		}
		return nil
	}
	sum, err := driver.Run(context.Background(), cfg)
	if err != nil {
		return err
	}
	explainDeadlocks(sum)
	printSummary(stdout, sum)
	if sum.Failed() {
		return fmt.Errorf("tests failed under control")
	}
	return nil
}

func printIssues(w io.Writer, pkgs []*rewrite.Package) {
	for _, p := range pkgs {
		if p.Err != "" {
			continue // not rewritten: its errors are on stderr
		}
		if len(p.Issues) == 0 {
			fmt.Fprintf(w, "%s: nothing uncontrolled found\n", p.Path)
			continue
		}
		fmt.Fprintf(w, "%s: %s\n", p.Path, plural.N(len(p.Issues), "uncontrolled construct"))
		for _, i := range p.Issues {
			fmt.Fprintf(w, "\t%s\n", i)
		}
	}
}

// printDiff prints the changed lines of each rewritten file: the rewriter
// keeps every line on its line, so a line-by-line comparison is the diff.
func printDiff(w io.Writer, pkgs []*rewrite.Package) error {
	for _, p := range pkgs {
		for _, f := range p.Files {
			if !f.Changed {
				continue
			}
			src, err := os.ReadFile(f.Path)
			if err != nil {
				return err
			}
			old, nw := strings.Split(string(src), "\n"), strings.Split(string(f.Out), "\n")
			fmt.Fprintf(w, "--- %s\n+++ %s (rewritten)\n", f.Path, f.Path)
			for i := range max(len(old), len(nw)) {
				var o, n string
				if i < len(old) {
					o = old[i]
				}
				if i < len(nw) {
					n = nw[i]
				}
				if o != n {
					if i < len(old) {
						fmt.Fprintf(w, "%d-\t%s\n", i+1, o)
					}
					fmt.Fprintf(w, "%d+\t%s\n", i+1, n)
				}
			}
		}
	}
	return nil
}

func writeOut(w io.Writer, dir string, pkgs []*rewrite.Package) error {
	for _, p := range pkgs {
		for _, f := range p.Files {
			if !f.Changed {
				continue
			}
			path := filepath.Join(dir, filepath.FromSlash(p.Path), filepath.Base(f.Path))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(path, f.Out, 0o644); err != nil {
				return err
			}
			fmt.Fprintln(w, path)
		}
	}
	return nil
}

func printSummary(w io.Writer, sum *driver.Summary) {
	for _, p := range sum.Packages {
		n, rate := p.Schedules()
		fmt.Fprintf(w, "package %s: %s, build %v\n", p.Path, packageRun(n, p.Elapsed, rate), p.Build.Round(time.Millisecond))
		for _, i := range p.Issues {
			fmt.Fprintf(w, "\tuncontrolled: %s\n", i)
		}
		if p.Err != nil {
			fmt.Fprintf(w, "\tERROR: %v\n", p.Err)
			if p.Output != "" {
				fmt.Fprintf(w, "%s\n", indentLines(tail(p.Output, 40), "\t\t"))
			}
		}
		for _, t := range p.Tests {
			switch {
			case t.Failure != "":
				at := ""
				if t.Location != "" {
					at = " at " + t.Location
				}
				fmt.Fprintf(w, "\tFAIL %s (%s%s)\n", t.Name, t.Kind, at)
				fmt.Fprintf(w, "%s\n", indentLines(t.Failure, "\t\t"))
				if t.Log != "" {
					fmt.Fprintf(w, "\t\ttest output (t.Log, t.Fatalf): %s\n", t.Log)
				}
			case t.Skipped:
				fmt.Fprintf(w, "\tSKIP %s\n", t.Name)
			case t.Interrupted:
				fmt.Fprintf(w, "\tINTR %s: %s, interrupted (no failure so far)\n", t.Name, plural.N(t.Schedules, "schedule"))
			case t.Real != "":
				fmt.Fprintf(w, "\tok   %s: ran once on the real network and real time, not under control: %s\n", t.Name, t.Real)
			default:
				fmt.Fprintf(w, "\tok   %s: %s%s\n", t.Name, plural.N(t.Schedules, "schedule"), stoppedNote(t.Stopped))
			}
			for _, f := range t.Foreign {
				fmt.Fprintf(w, "\t\tforeign channel (polled, not controlled) at %s\n", f)
			}
		}
	}
}

// tail returns the last lines of a test process's output s; when the
// line that says why the process died ("fatal error: …", "panic: …") is
// among those cut off, as a crash's goroutine dump pushes it far up, it
// comes first, then "…".
func tail(s string, lines int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) <= lines {
		return strings.Join(l, "\n")
	}
	cut, kept := l[:len(l)-lines], l[len(l)-lines:]
	for _, line := range cut {
		if strings.HasPrefix(line, "fatal error: ") || strings.HasPrefix(line, "panic: ") {
			return line + "\n\t…\n" + strings.Join(kept, "\n")
		}
	}
	return strings.Join(kept, "\n")
}

func indentLines(s, pad string) string {
	return pad + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+pad)
}
