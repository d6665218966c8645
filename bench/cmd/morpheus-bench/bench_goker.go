package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
	"github.com/morpheus-go/morpheus/rt"
)

func init() {
	registerBench(&command{
		name:    "goker",
		summary: "run GoBench's GoKer kernels (real Go concurrency bugs) under morpheus through the rewriter",
		run:     runBenchGoker,
	})
}

// gokerKernelTimeout bounds one kernel's exploration, a safety net: the
// watchdog and the clock limit end a stuck schedule long before.
const gokerKernelTimeout = 15 * time.Minute

// gokerOpts are the command's settings.
type gokerOpts struct {
	schedules int
	strategy  string
	seed      uint64
	jobs      int
	baseline  int           // go test -count N; 0: no baseline
	timeout   time.Duration // the baseline's -test.timeout
	race      bool          // also explore with Go's race detector built in
	early     int           // early timer firings per schedule (rt.EnvEarlyTimers)
	env       []string
	cache     string
	mod       string // the temporary module
}

// gokerResult is one kernel's outcome.
type gokerResult struct {
	*gokerKernel
	Found      bool
	Kind       string
	Location   string   // the failure's line
	Goroutines []string // the report's lines naming the goroutines and where they are
	Schedules  int
	Seconds    float64 // wall time of the schedules
	Build      float64 // wall time of rewriting and building
	Replays    *bool   // the trace replayed to the same kind in a fresh process
	Error      string  // the kernel did not build, crashed outside control, or diverged
	Trace      string
	ReplayKind string        // the replay's kind
	test       string        // the kernel's test function
	GoRace     *bool         // -race: Go's detector reported a race under control
	Base       *gokerBaseRes // -baseline: plain go test
	BaseRace   *gokerBaseRes // -baseline: go test -race
}

func runBenchGoker(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench goker", "bench goker -dir PATH [-iterations N] [-strategy S] [-seed N] [-run REGEXP] [-jobs N] [-json] [-baseline N] [-timeout D] [-race] [-earlytimers N] [-keep]", stderr)
	dir := fs.String("dir", "", "a GoBench checkout, or its gobench/goker folder (required)")
	var o gokerOpts
	fs.IntVar(&o.schedules, "iterations", 2000, "schedules per kernel (alias -schedules)")
	fs.IntVar(&o.schedules, "schedules", 2000, "alias of -iterations")
	fs.StringVar(&o.strategy, "strategy", "", "exploration strategy (default morpheus's)")
	seedArg := fs.String("seed", "", "base seed, or \"random\" (default: from each test's name)")
	run := fs.String("run", "", "run only the kernels whose names (cockroach_13197) match REGEXP")
	fs.IntVar(&o.jobs, "jobs", 2, "kernels explored at once (each in one test process, so that schedules count to the first failure)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the table")
	fs.IntVar(&o.baseline, "baseline", 0, "also run plain go test -count N and go test -race -count N per kernel")
	fs.DurationVar(&o.timeout, "timeout", 5*time.Second, "the baseline's -test.timeout per kernel (GoBench's harness uses 5s); a blocking kernel that hangs is reported as hang")
	fs.BoolVar(&o.race, "race", false, "also explore each kernel built with Go's race detector and report whether it saw a race under control")
	fs.IntVar(&o.early, "earlytimers", rt.DefaultEarlyTimers, "times per schedule the nearest timer, sleep or time-out, if at most 1 ms ahead, may fire while goroutines can still run (-1: the portfolio)")
	keep := fs.Bool("keep", false, "keep the temporary module (kernels, cache, traces) and print its path")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dir == "" || fs.NArg() > 0 || o.schedules < 1 || o.jobs < 1 || o.baseline < 0 || o.timeout <= 0 {
		fmt.Fprintln(stderr, "morpheus bench goker: -dir is required; -iterations and -jobs must be positive, -baseline not negative; no arguments are taken")
		fs.Usage()
		return errUsage
	}
	seed, err := driver.ParseSeed(*seedArg)
	if err != nil {
		fmt.Fprintf(stderr, "morpheus bench goker: %v\n", err)
		return errUsage
	}
	o.seed = seed
	var re *regexp.Regexp
	if *run != "" {
		if re, err = regexp.Compile(*run); err != nil {
			fmt.Fprintf(stderr, "morpheus bench goker: -run: %v\n", err)
			return errUsage
		}
	}
	kernels, err := loadGokerKernels(*dir, re)
	if err != nil {
		return err
	}
	if len(kernels) == 0 {
		return fmt.Errorf("no kernel of %s matches -run %q", *dir, *run)
	}
	tmp, err := os.MkdirTemp("", "morpheus-goker-")
	if err != nil {
		return err
	}
	if *keep {
		fmt.Fprintf(stderr, "bench goker: keeping %s\n", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	o.mod, o.cache = filepath.Join(tmp, "mod"), filepath.Join(tmp, "cache")
	if err := os.MkdirAll(o.mod, 0o755); err != nil {
		return err
	}
	if err := writeGokerModule(o.mod, kernels); err != nil {
		return err
	}
	o.env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	start := time.Now()
	results := runGokerKernels(kernels, &o, stderr)
	fmt.Fprintf(stderr, "bench goker: %s in %v\n", plural.N(len(results), "kernel"), time.Since(start).Round(time.Second))
	if *asJSON {
		return writeGokerJSON(stdout, results, &o)
	}
	writeGokerTable(stdout, results, &o)
	return nil
}

// runGokerKernels runs the kernels; the results are in the kernels' order.
// The exploration runs in o.jobs groups at once, each group one driver run
// (one load and type-check of the kernels and the standard library for all
// of them, then a test binary and one test process per kernel); then the
// replays and the baselines run per kernel, o.jobs at once.
func runGokerKernels(ks []*gokerKernel, o *gokerOpts, stderr io.Writer) []*gokerResult {
	out := make([]*gokerResult, len(ks))
	for i, k := range ks {
		out[i] = &gokerResult{gokerKernel: k}
	}
	jobs := min(o.jobs, len(ks))
	var wg sync.WaitGroup
	for slot := range jobs {
		var group []*gokerResult
		for i := slot; i < len(out); i += jobs {
			group = append(group, out[i])
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			gokerExplore(group, o, slot, false)
			if o.race {
				gokerExplore(group, o, slot, true)
			}
		}()
	}
	wg.Wait()
	next := make(chan int)
	var mu sync.Mutex
	for slot := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r := out[i]
				gokerFollowUp(r, o, slot)
				mu.Lock()
				fmt.Fprintf(stderr, "bench goker: %s\n", gokerProgress(r))
				mu.Unlock()
			}
		}()
	}
	for i := range out {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

func gokerProgress(r *gokerResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-18s %-12s ", r.Name, r.typ())
	switch {
	case r.Error != "":
		fmt.Fprintf(&b, "error: %s", gokerShortError(r.Error, 160))
	case r.Found:
		fmt.Fprintf(&b, "found %s after %s (%.2fs), replays %s", r.Kind, plural.N(r.Schedules, "schedule"), r.Seconds, yesNo(r.Replays))
		if r.ReplayKind != "" && r.ReplayKind != r.Kind {
			fmt.Fprintf(&b, " (replay: %s)", r.ReplayKind)
		}
		fmt.Fprintf(&b, " at %s", cmp.Or(r.Location, "?"))
		if m := r.readmeMatch(); m != nil {
			fmt.Fprintf(&b, " (README's lines %s: %s)", intList(r.Readme), map[bool]string{true: "at them", false: "elsewhere"}[*m])
		}
	default:
		fmt.Fprintf(&b, "not found in %s (%.2fs)", plural.N(r.Schedules, "schedule"), r.Seconds)
	}
	if r.Base != nil {
		fmt.Fprintf(&b, "; go test %s, -race %s", r.Base.label(), r.BaseRace.label())
	}
	if r.GoRace != nil {
		fmt.Fprintf(&b, "; Go race detector under control %s", yesNo(r.GoRace))
	}
	return b.String()
}

// gokerConfig is the driver's configuration for kernels, in the cache of
// a worker's slot: a concurrent build must not share its module area
// (overlay, alternate go.mod).
func gokerConfig(o *gokerOpts, slot int, rs ...*gokerResult) driver.Config {
	cfg := driver.Config{Dir: o.mod, Cache: filepath.Join(o.cache, fmt.Sprintf("w%d", slot)),
		Schedules: o.schedules, Seed: o.seed, Strategy: o.strategy, Jobs: 1, Env: o.env,
		EarlyTimers: driver.EarlyTimers(o.early)}
	for _, r := range rs {
		cfg.Patterns = append(cfg.Patterns, "./"+r.Rel)
	}
	return cfg
}

// gokerExplore explores a group of kernels in one driver run (with Go's
// race detector built in if race), or one run per kernel if the group's
// run fails as a whole (a kernel that does not type-check fails only its
// own package).
func gokerExplore(group []*gokerResult, o *gokerOpts, slot int, race bool) {
	ctx, cancel := context.WithTimeout(context.Background(), gokerKernelTimeout*time.Duration(len(group)))
	defer cancel()
	cfg := gokerConfig(o, slot, group...)
	cfg.Race = race
	sum, err := driver.Run(ctx, cfg)
	if err != nil && len(group) > 1 {
		for _, r := range group {
			gokerExplore([]*gokerResult{r}, o, slot, race)
		}
		return
	}
	byPath := map[string]*driver.PackageSummary{}
	build := map[string]time.Duration{}
	if sum != nil {
		// The packages are built one after the other, in this order;
		// PackageSummary.Build is the time since the run started.
		var prev time.Duration
		for _, p := range sum.Packages {
			byPath[p.Path], build[p.Path], prev = p, p.Build-prev, p.Build
		}
	}
	for _, r := range group {
		path := "goker/" + r.Rel
		p := byPath[path]
		if race {
			if r.Error == "" {
				saw := p != nil && gokerSawGoRace(p)
				r.GoRace = &saw
			}
			continue
		}
		switch {
		case err != nil:
			r.Error = err.Error()
		case p == nil:
			r.Error = "the driver did not run its package"
		default:
			r.Build = build[path].Seconds()
			gokerOutcome(r, p)
		}
		// Name the kernels' files by their path in the module.
		r.Error = strings.ReplaceAll(r.Error, o.mod+string(filepath.Separator), "")
	}
}

// gokerOutcome reads a kernel's exploration from its package's summary.
func gokerOutcome(r *gokerResult, p *driver.PackageSummary) {
	if p.Err != nil {
		r.Error = p.Err.Error()
		if p.Output != "" {
			r.Error += "\n" + tail(p.Output, 20)
		}
		return
	}
	t := gokerTest(p)
	if t == nil {
		r.Error = "no test ran"
		return
	}
	r.Seconds, r.Schedules, r.test = p.Elapsed.Seconds(), t.Schedules, t.Name
	switch {
	case t.Kind == "nondeterminism":
		r.Error = "nondeterminism: " + firstLine(strings.TrimSpace(t.Failure))
	case t.Failure != "":
		r.Found, r.Kind, r.Trace = true, t.Kind, t.Trace
		r.Goroutines = failureGoroutines(t.Failure)
		r.Location = cmp.Or(t.Location, goroutinesLocation(r.Goroutines))
	}
}

// gokerTest is the kernel's test: its one test, or its failing one.
func gokerTest(p *driver.PackageSummary) *driver.TestSummary {
	var t *driver.TestSummary
	for _, x := range p.Tests {
		if t == nil || (t.Failure == "" && x.Failure != "") {
			t = x
		}
	}
	return t
}

// gokerFollowUp replays what a kernel's exploration found, in a fresh
// process through the driver, and runs the baselines asked for.
func gokerFollowUp(r *gokerResult, o *gokerOpts, slot int) {
	if r.Found {
		ok := false
		if r.Trace != "" {
			ctx, cancel := context.WithTimeout(context.Background(), gokerKernelTimeout)
			cfg := gokerConfig(o, slot, r)
			cfg.Replay, cfg.Run = r.Trace, "^"+r.test+"$"
			sum, err := driver.Run(ctx, cfg)
			cancel()
			r.ReplayKind = "error"
			if err == nil && len(sum.Packages) == 1 && sum.Packages[0].Err == nil {
				if t := gokerTest(sum.Packages[0]); t != nil {
					r.ReplayKind = cmp.Or(t.Kind, "passed")
					ok = t.Kind == r.Kind
				}
			}
		}
		r.Replays = &ok
	}
	if o.baseline > 0 {
		r.Base = gokerBaseline(r.gokerKernel, o, false)
		r.BaseRace = gokerBaseline(r.gokerKernel, o, true)
	}
}

// gokerSawGoRace reports whether Go's race detector printed a report in a
// test process of a package built with it.
func gokerSawGoRace(p *driver.PackageSummary) bool {
	if strings.Contains(p.Output, raceWarning) {
		return true
	}
	for _, t := range p.Tests {
		if t.Log == "" {
			continue
		}
		if data, err := os.ReadFile(t.Log); err == nil && strings.Contains(string(data), raceWarning) {
			return true
		}
	}
	return false
}

const raceWarning = "WARNING: DATA RACE"

func yesNo(b *bool) string {
	switch {
	case b == nil:
		return "-"
	case *b:
		return "yes"
	}
	return "no"
}
