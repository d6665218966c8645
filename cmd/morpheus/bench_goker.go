package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
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
	env       []string
	cache     string
	mod       string // the temporary module
}

// gokerResult is one kernel's outcome.
type gokerResult struct {
	*gokerKernel
	Found     bool
	Kind      string
	Schedules int
	Seconds   float64 // wall time of the schedules
	Build     float64 // wall time of rewriting and building
	Replays   *bool   // the trace replayed to the same kind in a fresh process
	Error     string  // the kernel did not build, crashed outside control, or diverged
	Trace     string
	GoRace    *bool         // -race: Go's detector reported a race under control
	Base      *gokerBaseRes // -baseline: plain go test
	BaseRace  *gokerBaseRes // -baseline: go test -race
}

func runBenchGoker(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench goker", "bench goker -dir PATH [-schedules N] [-strategy S] [-seed N] [-run REGEXP] [-jobs N] [-json] [-baseline N] [-timeout D] [-race] [-keep]", stderr)
	dir := fs.String("dir", "", "a GoBench checkout, or its gobench/goker folder (required)")
	var o gokerOpts
	fs.IntVar(&o.schedules, "schedules", 2000, "schedules per kernel")
	fs.StringVar(&o.strategy, "strategy", "", "exploration strategy (default morpheus's)")
	seedArg := fs.String("seed", "", "base seed, or \"random\" (default: from each test's name)")
	run := fs.String("run", "", "run only the kernels whose names (cockroach_13197) match REGEXP")
	fs.IntVar(&o.jobs, "jobs", 2, "kernels explored at once (each in one test process, so that schedules count to the first failure)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the table")
	fs.IntVar(&o.baseline, "baseline", 0, "also run plain go test -count N and go test -race -count N per kernel")
	fs.DurationVar(&o.timeout, "timeout", 5*time.Second, "the baseline's -test.timeout per kernel (GoBench's harness uses 5s); a blocking kernel that hangs is reported as hang")
	fs.BoolVar(&o.race, "race", false, "also explore each kernel built with Go's race detector and report whether it saw a race under control")
	keep := fs.Bool("keep", false, "keep the temporary module (kernels, cache, traces) and print its path")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dir == "" || fs.NArg() > 0 || o.schedules < 1 || o.jobs < 1 || o.baseline < 0 || o.timeout <= 0 {
		fmt.Fprintln(stderr, "morpheus bench goker: -dir is required; -schedules and -jobs must be positive, -baseline not negative; no arguments are taken")
		fs.Usage()
		return errUsage
	}
	seed, err := parseSeed(*seedArg)
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
	fmt.Fprintf(stderr, "bench goker: %d kernels in %v\n", len(results), time.Since(start).Round(time.Second))
	if *asJSON {
		return writeGokerJSON(stdout, results, &o)
	}
	writeGokerTable(stdout, results, &o)
	return nil
}

// runGokerKernels runs the kernels, o.jobs at once; the results are in the
// kernels' order.
func runGokerKernels(ks []*gokerKernel, o *gokerOpts, stderr io.Writer) []*gokerResult {
	out := make([]*gokerResult, len(ks))
	next := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for slot := range min(o.jobs, len(ks)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r := runGokerKernel(ks[i], o, slot)
				out[i] = r
				mu.Lock()
				fmt.Fprintf(stderr, "bench goker: %s\n", gokerProgress(r))
				mu.Unlock()
			}
		}()
	}
	for i := range ks {
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
		fmt.Fprintf(&b, "found %s after %d schedules (%.2fs), replays %s", r.Kind, r.Schedules, r.Seconds, yesNo(r.Replays))
	default:
		fmt.Fprintf(&b, "not found in %d schedules (%.2fs)", r.Schedules, r.Seconds)
	}
	if r.Base != nil {
		fmt.Fprintf(&b, "; go test %s, -race %s", r.Base.label(), r.BaseRace.label())
	}
	if r.GoRace != nil {
		fmt.Fprintf(&b, "; Go race detector under control %s", yesNo(r.GoRace))
	}
	return b.String()
}

// runGokerKernel explores one kernel, replays what it found and runs the
// baselines asked for. slot is the worker's number: each worker has its own
// driver cache, whose module area (overlay, alternate go.mod) a concurrent
// build must not share.
func runGokerKernel(k *gokerKernel, o *gokerOpts, slot int) *gokerResult {
	r := &gokerResult{gokerKernel: k}
	ctx, cancel := context.WithTimeout(context.Background(), gokerKernelTimeout)
	defer cancel()
	cache := filepath.Join(o.cache, fmt.Sprintf("w%d", slot))
	cfg := driver.Config{Dir: o.mod, Patterns: []string{"./" + k.Rel}, Cache: cache, Schedules: o.schedules,
		Seed: o.seed, Strategy: o.strategy, Jobs: 1, Env: o.env}
	start := time.Now()
	t, p, err := gokerDrive(ctx, cfg)
	switch {
	case err != nil:
		r.Error = err.Error()
	case t == nil:
		r.Build = p.Build.Seconds()
		r.Error = "no test ran"
	default:
		r.Build, r.Seconds, r.Schedules = p.Build.Seconds(), p.Elapsed.Seconds(), t.Schedules
		switch {
		case t.Kind == "nondeterminism":
			r.Error = "nondeterminism: " + firstLine(strings.TrimSpace(t.Failure))
		case t.Failure != "":
			r.Found, r.Kind, r.Trace = true, t.Kind, t.Trace
		}
	}
	if r.Seconds == 0 && r.Error != "" {
		r.Build = time.Since(start).Seconds()
	}
	if r.Found && r.Trace != "" {
		rc := cfg
		rc.Replay, rc.Run = r.Trace, "^"+t.Name+"$"
		rs, _, err := gokerDrive(ctx, rc)
		ok := err == nil && rs != nil && rs.Kind == r.Kind
		r.Replays = &ok
	} else if r.Found {
		no := false
		r.Replays = &no
	}
	// Name the kernels' files by their path in the module.
	r.Error = strings.ReplaceAll(r.Error, o.mod+string(filepath.Separator), "")
	if o.race && r.Error == "" {
		rc := cfg
		rc.Race = true
		saw := gokerGoRace(ctx, rc)
		r.GoRace = &saw
	}
	if o.baseline > 0 {
		r.Base = gokerBaseline(k, o, false)
		r.BaseRace = gokerBaseline(k, o, true)
	}
	return r
}

// gokerDrive runs the driver on one kernel's package and returns its test
// (the kernel's one test, or its failing one). A build error, a crash
// outside control or no package is an error.
func gokerDrive(ctx context.Context, cfg driver.Config) (*driver.TestSummary, *driver.PackageSummary, error) {
	sum, err := driver.Run(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	if len(sum.Packages) != 1 {
		return nil, nil, fmt.Errorf("%d packages for %s", len(sum.Packages), strings.Join(cfg.Patterns, " "))
	}
	p := sum.Packages[0]
	if p.Err != nil {
		msg := p.Err.Error()
		if p.Output != "" {
			msg += "\n" + tail(p.Output, 20)
		}
		return nil, p, fmt.Errorf("%s", msg)
	}
	var t *driver.TestSummary
	for _, x := range p.Tests {
		if t == nil || (t.Failure == "" && x.Failure != "") {
			t = x
		}
	}
	return t, p, nil
}

// gokerGoRace explores a kernel built with Go's race detector and reports
// whether the detector printed a report, in a test process's output.
func gokerGoRace(ctx context.Context, cfg driver.Config) bool {
	sum, err := driver.Run(ctx, cfg)
	if err != nil || len(sum.Packages) == 0 {
		return false
	}
	for _, p := range sum.Packages {
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
