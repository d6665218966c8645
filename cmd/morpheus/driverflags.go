package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
	"github.com/morpheus-go/morpheus/rt"
)

// driverFlags are the flags that morpheus test (in rewrite mode) and
// morpheus rewrite share: what the rewriting driver's configuration is
// made of, with the same names, defaults and checks in both.
type driverFlags struct {
	schedules                    int
	strategy, seed, run, replay  *string
	epoch                        *string
	dir, exclude, cache, vet     *string
	jobs, maxSteps, early, count *int
	watchdog, duration           *time.Duration
	race, allowLeaks, allowRaces *bool
}

// addDriverFlags defines the shared flags on fs.
func addDriverFlags(fs *flag.FlagSet) *driverFlags {
	f := &driverFlags{}
	fs.IntVar(&f.schedules, "iterations", rt.DefaultSchedules, "")
	fs.IntVar(&f.schedules, "schedules", rt.DefaultSchedules, "")
	f.duration = fs.Duration("duration", 0, "")
	f.strategy = fs.String("strategy", "", "")
	f.seed = fs.String("seed", "", "")
	f.jobs = fs.Int("jobs", 2, "")
	f.run = fs.String("run", "", "")
	f.replay = fs.String("replay", "", "")
	f.dir = fs.String("C", ".", "")
	f.exclude = fs.String("exclude", "", "")
	f.cache = fs.String("cache", "", "")
	f.vet = fs.String("vet", "", "")
	f.maxSteps = fs.Int("maxsteps", 0, "")
	f.watchdog = fs.Duration("watchdog", 0, "")
	f.race = fs.Bool("race", false, "")
	f.allowLeaks = fs.Bool("allowleaks", false, "")
	f.allowRaces = fs.Bool("allowraces", false, "")
	f.early = fs.Int("earlytimers", rt.DefaultEarlyTimers, "")
	f.count = fs.Int("count", 0, "")
	f.epoch = fs.String("epoch", "", "")
	return f
}

// config checks the parsed flags and returns the driver's configuration for
// the packages fs names. A bad flag is reported on stderr, under the
// command's name cmd, and returned as errUsage.
func (f *driverFlags) config(cmd string, fs *flag.FlagSet, stderr io.Writer) (driver.Config, error) {
	usage := func(format string, args ...any) (driver.Config, error) {
		fmt.Fprintf(stderr, "morpheus %s: %s\n", cmd, fmt.Sprintf(format, args...))
		return driver.Config{}, errUsage
	}
	if fs.NArg() == 0 {
		return usage("no packages given")
	}
	if f.schedules < 0 || *f.jobs < 1 || *f.duration < 0 {
		return usage("-iterations must be 0 (unlimited) or more, -jobs positive, -duration not negative")
	}
	// Given, -iterations and -duration replace the default budget.
	schedules := 0
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "iterations" || fl.Name == "schedules" {
			schedules = f.schedules
			if schedules == 0 {
				schedules = driver.Unlimited
			}
		}
	})
	seed, err := driver.ParseSeed(*f.seed)
	if err != nil {
		return usage("%v", err)
	}
	for _, p := range fs.Args() {
		if err := checkLocalPattern(*f.dir, p); err != nil {
			return usage("%v", err)
		}
	}
	replay := *f.replay
	if replay != "" {
		// As for go -C, the trace is relative to -C's directory; a
		// directory holding one trace (testdata/morpheus/TestX) names it.
		if replay, err = replayPath(*f.dir, replay); err != nil {
			return usage("-replay: %v", err)
		}
		if _, err := morpheus.ReadTrace(replay); err != nil {
			return usage("-replay: %v", err)
		}
	}
	if *f.epoch != "" {
		if _, err := morpheus.ParseEpoch(*f.epoch); err != nil {
			return usage("-epoch: %v", err)
		}
	}
	if err := driver.ParseVet(*f.vet); err != nil {
		return usage("%v", err)
	}
	if *f.count != 0 && *f.count != 1 {
		return usage("-count %d: -count=1 runs packages again whose cached outcome would do, as for go test; morpheus runs each test's schedules, -iterations N of them", *f.count)
	}
	var excl []string
	if *f.exclude != "" {
		excl = strings.Split(*f.exclude, ",")
	}
	return driver.Config{Dir: *f.dir, Patterns: fs.Args(), Exclude: excl, Cache: *f.cache, Run: *f.run,
		Schedules: schedules, Duration: *f.duration, Seed: seed, Strategy: *f.strategy, Jobs: *f.jobs, Replay: replay,
		Watchdog: *f.watchdog, MaxSteps: *f.maxSteps, AllowLeaks: *f.allowLeaks,
		AllowRaces: *f.allowRaces, EarlyTimers: driver.EarlyTimers(*f.early), Epoch: *f.epoch, Race: *f.race, Vet: *f.vet,
		Rerun: *f.count == 1}, nil
}

// randomSeed reports whether -seed asked for a fresh seed, which the
// command prints so that the run can be repeated.
func (f *driverFlags) randomSeed() bool { return *f.seed == "random" }

// checkLocalPattern checks that a package pattern naming a directory
// (".", "./x", "../x/...", an absolute path) names one that exists,
// relative to the -C directory dir: a mistyped path is a usage error, not
// a failed run.
func checkLocalPattern(dir, pattern string) error {
	p := filepath.FromSlash(pattern)
	if !filepath.IsAbs(p) && p != "." && p != ".." && !strings.HasPrefix(pattern, "./") && !strings.HasPrefix(pattern, "../") {
		return nil // an import path
	}
	if i := strings.Index(p, "..."); i >= 0 && !(i == 0 || p[:i] == "." || strings.HasSuffix(p[:i], string(filepath.Separator))) {
		return nil // "./x..." matches x and its siblings xy, xz: go lists them
	} else if i >= 0 {
		p = filepath.Clean(p[:i] + ".")
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	st, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("package %s: no such directory (%s)", pattern, p)
	}
	if !st.IsDir() {
		return fmt.Errorf("package %s: %s is not a directory", pattern, p)
	}
	return nil
}

// replayPath resolves -replay's trace against the -C directory dir, and a
// directory holding one trace to that trace; it returns an absolute path.
func replayPath(dir, path string) (string, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	path, err := resolveTrace(path)
	if err != nil {
		return "", err
	}
	return absPath(path), nil
}
