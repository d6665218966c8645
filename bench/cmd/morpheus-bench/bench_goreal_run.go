package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// realRow is one GoReal bug's measurement. The fields the benchmark is
// judged by come first, under the names its JSON records keep.
type realRow struct {
	Name              string  `json:"name"`
	Project           string  `json:"project"`
	Type              string  `json:"type"`
	Built             bool    `json:"built"`
	Found             bool    `json:"found"`
	Kind              string  `json:"kind,omitempty"`
	Schedules         int     `json:"schedules"`
	Seconds           float64 `json:"seconds"`
	Replays           int     `json:"replays"`
	FixedFailures     int     `json:"fixed_failures"`
	BaselineFound     bool    `json:"baseline_found"`
	BaselineRaceFound bool    `json:"baseline_race_found"`

	Subtype  string `json:"subtype,omitempty"` // GoBench's classification
	Test     string `json:"test"`
	Package  string `json:"package"`
	Commit   string `json:"commit"`
	Reason   string `json:"reason,omitempty"` // why it was not built
	Error    string `json:"error,omitempty"`  // morpheus test's own error on a built bug
	Location string `json:"location,omitempty"`
	// Goroutines are the lines of the failure's report that name the
	// goroutines involved and where they are (blocked, racing).
	Goroutines []string `json:"goroutines,omitempty"`
	Message    string   `json:"message,omitempty"`
	Replay     string   `json:"replay,omitempty"` // the command that replays the find, in the bug's package
	ReplaysRun int      `json:"replays_run,omitempty"`
	// The fixed version under morpheus: its failure, schedules and seconds.
	FixedKind      string  `json:"fixed_kind,omitempty"`
	FixedLocation  string  `json:"fixed_location,omitempty"`
	FixedMessage   string  `json:"fixed_message,omitempty"`
	FixedSchedules int     `json:"fixed_schedules"`
	FixedSeconds   float64 `json:"fixed_seconds"`
	// Plain go test on the fixed version: failed with -count N, with -race.
	BaselineFixedFailed     bool `json:"baseline_fixed_failed"`
	BaselineRaceFixedFailed bool `json:"baseline_race_fixed_failed"`
	// FixedConfirmed: morpheus failed the fixed version and so did go test
	// or go test -race (not a false alarm).
	FixedConfirmed bool `json:"fixed_confirmed,omitempty"`
	// FixedKnown is the evidence benchdata/goreal-expect.txt lists for the
	// fixed version's failure: a second real bug (not a false alarm).
	FixedKnown string `json:"fixed_known,omitempty"`
}

// falseAlarm tells whether morpheus failed the fixed version while plain
// go test and go test -race passed it in the same run; a failure they show
// too is the fixed version's own (a second real bug, or the fix
// incomplete), and the row's fixed_confirmed says so.
func (r *realRow) falseAlarm() bool {
	return r.FixedFailures > 0 && !r.FixedConfirmed && r.FixedKnown == ""
}

// realTotal is the last JSON record: the totals.
type realTotal struct {
	Bugs              int `json:"bugs"`
	Built             int `json:"built"`
	Found             int `json:"found"`
	FalseAlarms       int `json:"false_alarms"`
	BaselineFound     int `json:"baseline_found"`
	BaselineRaceFound int `json:"baseline_race_found"`
}

func totalOfRows(rows []*realRow) realTotal {
	t := realTotal{Bugs: len(rows)}
	for _, r := range rows {
		if !r.Built {
			continue
		}
		t.Built++
		if r.Found {
			t.Found++
		}
		if r.falseAlarm() {
			t.FalseAlarms++
		}
		if r.BaselineFound {
			t.BaselineFound++
		}
		if r.BaselineRaceFound {
			t.BaselineRaceFound++
		}
	}
	return t
}

// realSettings are the measurement's settings, the same for every bug.
type realSettings struct {
	self      string // this executable
	cache     string // the rewrite cache shared by all bugs
	schedules int
	count     int // go test -count
	replays   int
	timeout   time.Duration // of each morpheus test run
	goTimeout time.Duration // go test's -timeout in the baselines
	watchdog  time.Duration // morpheus test's -watchdog
	early     int           // morpheus test's -earlytimers
	expect    []realExpectation
}

// measureRealBug runs b's test in its two trees: under morpheus test (the
// bug version, its find replayed, then the fixed version), then under go
// test -count N and go test -race -count N on both.
func measureRealBug(b *realBug, t *realTrees, s realSettings, row *realRow) {
	for _, dir := range []string{t.Fixed, t.Bug} {
		out, err := runBounded(dir, t.Env, s.timeout, "go", "test", "-vet=off", "-count=1", "-run", "^$", b.Pkg)
		if err != nil {
			row.Reason = "go test does not build it: " + buildFailure(string(out)+"\n"+err.Error())
			return
		}
	}
	row.Built = true
	run := "^" + b.Test + "$"
	r, secs, err := morpheusOne(s, t.Bug, t.Env, b, "-schedules", fmt.Sprint(s.schedules), "-run", run, b.Pkg)
	row.Seconds = secs
	switch {
	case r == nil:
		row.Error = err
	case r.Kind != "" || r.Failure != "":
		row.Found, row.Kind, row.Location = true, r.Kind, r.Location
		row.Message = firstLine(strings.TrimSpace(r.Message))
		row.Goroutines = failureGoroutines(r.Failure)
		if row.Location == "" {
			row.Location = goroutinesLocation(row.Goroutines)
		}
		row.Schedules = r.Schedules
		if r.Trace != "" {
			trace := r.Trace
			if !filepath.IsAbs(trace) {
				trace = filepath.Join(t.Bug, b.Pkg, trace)
			}
			row.Replay = fmt.Sprintf("morpheus test -vet=off -watchdog %s%s -replay %s -run '%s' .", s.watchdog, s.earlyFlag(), trace, run)
			for i := 0; i < s.replays; i++ {
				row.ReplaysRun++
				rr, _, _ := morpheusOne(s, t.Bug, t.Env, b, "-replay", trace, "-run", run, b.Pkg)
				if rr != nil && rr.Kind == r.Kind && rr.Location == r.Location {
					row.Replays++
				}
			}
		}
	default:
		row.Schedules = r.Schedules
		if r.Error != "" {
			row.Error = firstLine(r.Error)
		}
	}
	fr, fsecs, ferr := morpheusOne(s, t.Fixed, t.Env, b, "-schedules", fmt.Sprint(s.schedules), "-run", run, b.Pkg)
	row.FixedSeconds = fsecs
	switch {
	case fr == nil:
		if row.Error == "" {
			row.Error = "fixed version: " + ferr
		}
	case fr.Kind != "" || fr.Failure != "":
		row.FixedFailures = 1
		row.FixedKind, row.FixedLocation = fr.Kind, fr.Location
		row.FixedMessage = firstLine(strings.TrimSpace(fr.Message))
		row.FixedSchedules = fr.Schedules
	default:
		row.FixedSchedules = fr.Schedules
	}
	count := fmt.Sprintf("-count=%d", s.count)
	gotest := func(dir string, race bool) bool {
		args := []string{"test", "-vet=off", count, "-timeout", s.goTimeout.String(), "-run", run}
		if race {
			// Without checkptr, which -race turns on since Go 1.14 and
			// which kills old unsafe code (a vendored boltdb's "converted
			// pointer straddles multiple allocations") before the test
			// can show its bug: the race detector as GoBench's Go ran it.
			args = append(args, "-race", "-gcflags=all=-d=checkptr=0")
		}
		out, err := runBounded(dir, t.Env, s.goTimeout+5*time.Minute, "go", append(args, b.Pkg)...)
		// Kept beside the tree (with -work): why a baseline failed.
		log := dir + ".gotest.log"
		if race {
			log = dir + ".gotest-race.log"
		}
		if err != nil {
			out = append(out, "\n"+err.Error()+"\n"...)
		}
		_ = os.WriteFile(log, out, 0o644)
		return err != nil
	}
	row.BaselineFound = gotest(t.Bug, false)
	row.BaselineRaceFound = gotest(t.Bug, true)
	row.BaselineFixedFailed = gotest(t.Fixed, false)
	row.BaselineRaceFixedFailed = gotest(t.Fixed, true)
	row.FixedConfirmed = row.FixedFailures > 0 && (row.BaselineFixedFailed || row.BaselineRaceFixedFailed)
	if row.FixedFailures > 0 {
		row.FixedKnown = knownFixedFailure(s.expect, row)
	}
}

// earlyFlag is the -earlytimers flag of the printed replay command, when
// it is set.
func (s realSettings) earlyFlag() string {
	if s.early == 0 {
		return ""
	}
	return fmt.Sprintf(" -earlytimers %d", s.early)
}

// morpheusOne runs one morpheus test -json in dir and returns the record
// of b's test, the seconds it took, and else what went wrong.
func morpheusOne(s realSettings, dir string, env []string, b *realBug, args ...string) (*testRecord, float64, string) {
	start := time.Now()
	full := append([]string{"test", "-json", "-report=", "-vet=off", "-cache", s.cache}, args...)
	if s.watchdog > 0 {
		full = append(full[:len(full)-1:len(full)-1], "-watchdog", s.watchdog.String(), full[len(full)-1])
	}
	if s.early != 0 {
		full = append(full[:len(full)-1:len(full)-1], "-earlytimers", fmt.Sprint(s.early), full[len(full)-1])
	}
	env = append(env[:len(env):len(env)], envReplayChild+"=1") // a test binary of this package runs as the CLI
	out, err := runBoundedGrace(dir, env, s.timeout, interruptGrace, s.self, full...)
	secs := time.Since(start).Seconds()
	var rec *testRecord
	pkgErr := ""
	eachTestRecord(out, func(r *testRecord) {
		switch {
		case r.Test == b.Test:
			rec = r
		case r.Test == "" && r.Error != "":
			pkgErr = r.Error
		}
	})
	switch {
	case rec != nil:
		return rec, secs, ""
	case errors.Is(err, errTimedOut):
		return nil, secs, fmt.Sprintf("morpheus test: no record by the time-out (%v)", s.timeout)
	case pkgErr != "" && isBuildError(pkgErr):
		return nil, secs, "morpheus test does not build it: " + buildErrorLine(pkgErr)
	case pkgErr != "":
		return nil, secs, "morpheus test: " + crashLine(pkgErr)
	case err != nil:
		return nil, secs, "morpheus test: " + lastLine(err.Error())
	}
	return nil, secs, "morpheus test: no record of " + b.Test
}

// buildFailure is the first line of a go command's output that names a
// file, else its last line; a test binary that panics as it starts (in a
// package's init) is named by its panic and the first frame outside GOROOT.
func buildFailure(out string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "panic: ") {
			continue
		}
		goroot := goEnvValue("GOROOT")
		for _, f := range lines[i+1:] {
			if f = strings.TrimSpace(f); strings.Contains(f, ".go:") && (goroot == "" || !strings.HasPrefix(f, goroot)) {
				return "the test binary panics as it starts: " + strings.TrimPrefix(l, "panic: ") + " at " + strings.Fields(f)[0]
			}
		}
		return "the test binary panics as it starts: " + strings.TrimPrefix(l, "panic: ")
	}
	for _, l := range lines {
		if l = strings.TrimSpace(l); strings.Contains(l, ".go:") || strings.HasPrefix(l, "go: ") {
			return l
		}
	}
	return lastLine(out)
}

// goroutineLine matches a failure report's line naming a goroutine and
// where it is: "main: blocked in lock on mutex#5 ... at x.go:30",
// "g2 at counter.go:14: data race ...".
var goroutineLine = regexp.MustCompile(`^(main|g\d+|timer:\S+)[: ].*\.go:\d+`)

var goLineRef = regexp.MustCompile(`[^\s:]+\.go:\d+`)

// goroutinesLocation locates a failure that has no location of its own (a
// deadlock) by its goroutines: where the first one that waits outside the
// tests' files waits, else where the first one does.
func goroutinesLocation(lines []string) string {
	loc := ""
	for _, l := range lines {
		m := goLineRef.FindAllString(l, -1)
		if len(m) == 0 {
			continue
		}
		at := m[len(m)-1]
		if !strings.HasSuffix(strings.TrimRight(at, "0123456789:"), "_test.go") {
			return at
		}
		if loc == "" {
			loc = at
		}
	}
	return loc
}

func failureGoroutines(report string) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range strings.Split(report, "\n") {
		l = strings.TrimSpace(l)
		if goroutineLine.MatchString(l) && !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
		if len(out) == 8 {
			break
		}
	}
	return out
}

// cleanTrees removes a bug's trees unless they are kept.
func cleanTrees(work string, keep bool) {
	if !keep {
		_ = os.RemoveAll(work)
	}
}
