package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// morpheus test -rewrite runs the ordinary go tests of packages that know
// nothing of morpheus, rewritten at build time onto the controlled runtime
// (the same driver as morpheus rewrite), with morpheus test's flag names.

const testRewriteUsage = `Usage: morpheus test -rewrite [flags] PACKAGES

Runs the packages' ordinary tests (func TestX(t *testing.T)) under morpheus
without changing a file: the packages, their tests and their non-standard
dependencies are rewritten onto the controlled runtime in a cache directory,
the test binary is built once and run in -jobs processes. See
docs/rewriting.md. Exits 1 if a test fails under control.

Flags:
  -iterations N   schedules per test over all processes (alias -schedules; default 100)
  -strategy S     exploration strategy (default morpheus's)
  -seed N         base seed, or "random" (default: from each test's name)
  -jobs N         parallel test processes per package (default 2)
  -run REGEXP     run only the tests matching REGEXP
  -json           print one JSON record per test instead of the summary
  -replay TRACE   replay a saved trace (with -run naming its test)
  -C DIR          run the go command in DIR
  -exclude LIST   comma-separated import-path prefixes not to rewrite
  -cache DIR      cache directory for rewritten files and binaries
  -maxsteps N     steps per schedule before a step-limit failure
  -watchdog D     report a goroutine blocked outside control after D
`

// wantsRewrite reports whether morpheus test's arguments ask for -rewrite.
func wantsRewrite(args []string) bool {
	for _, a := range args {
		if a == "-rewrite" || a == "--rewrite" || a == "-rewrite=true" || a == "--rewrite=true" {
			return true
		}
	}
	return false
}

// testRecord is one test's outcome under -json.
type testRecord struct {
	Package   string   `json:"package"`
	Test      string   `json:"test"`
	Schedules int      `json:"schedules"`
	Steps     int64    `json:"steps"`
	Skipped   bool     `json:"skipped,omitempty"`
	Kind      string   `json:"kind,omitempty"`
	Location  string   `json:"location,omitempty"`
	Failure   string   `json:"failure,omitempty"`
	Trace     string   `json:"trace,omitempty"`
	Log       string   `json:"log,omitempty"` // the failing process's output, saved next to the trace
	Foreign   []string `json:"foreign,omitempty"`
	Error     string   `json:"error,omitempty"` // the package's build or run error
}

func runTestRewrite(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("test -rewrite", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, testRewriteUsage) }
	fs.Bool("rewrite", true, "")
	var schedules int
	fs.IntVar(&schedules, "iterations", 100, "")
	fs.IntVar(&schedules, "schedules", 100, "")
	strat := fs.String("strategy", "", "")
	seedArg := fs.String("seed", "", "")
	jobs := fs.Int("jobs", 2, "")
	run := fs.String("run", "", "")
	asJSON := fs.Bool("json", false, "")
	replay := fs.String("replay", "", "")
	dir := fs.String("C", ".", "")
	exclude := fs.String("exclude", "", "")
	cache := fs.String("cache", "", "")
	maxSteps := fs.Int("maxsteps", 0, "")
	watchdog := fs.Duration("watchdog", 0, "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "morpheus test -rewrite: no packages given")
		return errUsage
	}
	if schedules < 1 || *jobs < 1 {
		fmt.Fprintln(stderr, "morpheus test -rewrite: -iterations and -jobs must be positive")
		return errUsage
	}
	seed, err := parseSeed(*seedArg)
	if err != nil {
		fmt.Fprintf(stderr, "morpheus test -rewrite: %v\n", err)
		return errUsage
	}
	if *seedArg == "random" && !*asJSON {
		fmt.Fprintf(stdout, "seed %d\n", seed)
	}
	var excl []string
	if *exclude != "" {
		excl = strings.Split(*exclude, ",")
	}
	cfg := driver.Config{Dir: *dir, Patterns: fs.Args(), Exclude: excl, Cache: *cache, Run: *run,
		Schedules: schedules, Seed: seed, Strategy: *strat, Jobs: *jobs, Replay: *replay,
		Watchdog: *watchdog, MaxSteps: *maxSteps}
	sum, err := driver.Run(context.Background(), cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		if err := writeTestRecords(stdout, sum); err != nil {
			return err
		}
	} else {
		printSummary(stdout, sum)
	}
	if sum.Failed() {
		return fmt.Errorf("tests failed under control")
	}
	return nil
}

// parseSeed reads -seed: empty (0, from each test's name), a number, or
// "random" (a fresh seed, printed so that the run can be repeated).
func parseSeed(s string) (uint64, error) {
	switch s {
	case "":
		return 0, nil
	case "random":
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return 0, err
		}
		return binary.LittleEndian.Uint64(b[:]) | 1, nil
	}
	n, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		return 0, fmt.Errorf("-seed %q: want a number or \"random\"", s)
	}
	return n, nil
}

func writeTestRecords(w io.Writer, sum *driver.Summary) error {
	enc := json.NewEncoder(w)
	for _, p := range sum.Packages {
		if p.Err != nil {
			msg := p.Err.Error()
			if p.Output != "" {
				msg += "\n" + tail(p.Output, 40)
			}
			if err := enc.Encode(testRecord{Package: p.Path, Error: msg}); err != nil {
				return err
			}
		}
		for _, t := range p.Tests {
			r := testRecord{Package: p.Path, Test: t.Name, Schedules: t.Schedules, Steps: t.Steps,
				Skipped: t.Skipped, Kind: t.Kind, Location: t.Location, Failure: t.Failure,
				Trace: t.Trace, Log: t.Log, Foreign: t.Foreign}
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
	}
	return nil
}
