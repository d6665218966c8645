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

	"github.com/morpheus-go/morpheus/internal/rewrite"
	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
	"github.com/morpheus-go/morpheus/rt"
)

func init() {
	register(&command{
		name:    "rewrite",
		summary: "run a package's unmodified tests under morpheus by rewriting it at build time",
		run:     runRewrite,
	})
}

func runRewrite(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("rewrite", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("C", ".", "run the go command in `dir`")
	list := fs.Bool("list", false, "list the constructs morpheus cannot control, per package, and exit")
	diff := fs.Bool("diff", false, "show the rewritten lines of every changed file and exit")
	out := fs.String("out", "", "write the rewritten files under `dir` and exit")
	run := fs.String("run", "", "run only the tests matching `regexp` (default all)")
	schedules := fs.Int("schedules", 100, "schedules per test, over all processes")
	strat := fs.String("strategy", "", "exploration strategy (default morpheus's)")
	seed := fs.Uint64("seed", 0, "base seed (0: from each test's name)")
	jobs := fs.Int("jobs", 2, "parallel test processes per package")
	replay := fs.String("replay", "", "replay a saved `trace` (with -run naming its test)")
	exclude := fs.String("exclude", "", "comma-separated import-path prefixes not to rewrite")
	cache := fs.String("cache", "", "cache `dir` for rewritten files and binaries")
	maxSteps := fs.Int("maxsteps", 0, "steps per schedule before a step-limit failure (0: morpheus's default)")
	watchdog := fs.Duration("watchdog", 0, "report a goroutine blocked outside control after this long")
	allowLeaks := fs.Bool("allowleaks", false, "goroutines still blocked after a test returned are no failure (no leak reports)")
	allowRaces := fs.Bool("allowraces", false, "data races are no failure (the accesses stay scheduling points)")
	early := fs.Int("earlytimers", rt.DefaultEarlyTimers, "times per schedule the nearest timer, sleep or time-out may fire while goroutines can still run (0: never)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: morpheus rewrite [flags] packages")
		fmt.Fprintln(stderr, "Rewrites the packages, their tests and their non-standard dependencies onto morpheus's")
		fmt.Fprintln(stderr, "controlled runtime (without touching them) and runs their tests under control.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return errUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "morpheus rewrite: no packages given")
		fs.Usage()
		return errUsage
	}
	if *schedules < 1 || *jobs < 1 {
		fmt.Fprintln(stderr, "morpheus rewrite: -schedules and -jobs must be positive")
		return errUsage
	}
	var excl []string
	if *exclude != "" {
		excl = strings.Split(*exclude, ",")
	}
	if *list || *diff || *out != "" {
		pkgs, err := rewrite.Load(rewrite.LoadConfig{Dir: *dir, Patterns: fs.Args(), Exclude: excl})
		if err != nil {
			return err
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
	cfg := driver.Config{Dir: *dir, Patterns: fs.Args(), Exclude: excl, Cache: *cache, Run: *run,
		Schedules: *schedules, Seed: *seed, Strategy: *strat, Jobs: *jobs, Replay: *replay, Watchdog: *watchdog, MaxSteps: *maxSteps,
		AllowLeaks: *allowLeaks, AllowRaces: *allowRaces, EarlyTimers: earlyTimers(*early)}
	sum, err := driver.Run(context.Background(), cfg)
	if err != nil {
		return err
	}
	printSummary(stdout, sum)
	if sum.Failed() {
		return fmt.Errorf("tests failed under control")
	}
	return nil
}

func printIssues(w io.Writer, pkgs []*rewrite.Package) {
	for _, p := range pkgs {
		if len(p.Issues) == 0 {
			fmt.Fprintf(w, "%s: nothing uncontrolled found\n", p.Path)
			continue
		}
		fmt.Fprintf(w, "%s: %d uncontrolled constructs\n", p.Path, len(p.Issues))
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
		fmt.Fprintf(w, "package %s: %d schedules in %v (%.0f schedules/s), build %v\n",
			p.Path, n, p.Elapsed.Round(time.Millisecond), rate, p.Build.Round(time.Millisecond))
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
				fmt.Fprintf(w, "\tINTR %s: %d schedules, interrupted (no failure so far)\n", t.Name, t.Schedules)
			default:
				fmt.Fprintf(w, "\tok   %s: %d schedules\n", t.Name, t.Schedules)
			}
			for _, f := range t.Foreign {
				fmt.Fprintf(w, "\t\tforeign channel (polled, not controlled) at %s\n", f)
			}
		}
	}
}

func tail(s string, lines int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > lines {
		l = l[len(l)-lines:]
	}
	return strings.Join(l, "\n")
}

func indentLines(s, pad string) string {
	return pad + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+pad)
}
