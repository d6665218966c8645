package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/interrupt"
	"github.com/morpheus-go/morpheus/internal/results"
	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
	"github.com/morpheus-go/morpheus/rt"
	"github.com/morpheus-go/morpheus/trace"
)

// Commands that run tests (test, replay, shrink) run "go test" as a
// subprocess and talk to the morpheus.Check calls in it through environment
// variables, which every test binary reads and other packages ignore:
// MORPHEUS_RESULTS names the file each Check appends its result record to,
// MORPHEUS_PROGRESS the file of progress lines, MORPHEUS_REPLAY the trace to
// replay, MORPHEUS_SHRINK the shrinking budget, MORPHEUS_SHARD the shard.

// goTest runs "go test args..." in dir with the extra environment env; the
// test binaries' output goes to out. It returns the error of a failed run.
func goTest(dir string, args, env []string, out io.Writer) error {
	cmd := exec.Command("go", append([]string{"test"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = out, out
	return interrupt.Run(cmd) // an interrupt reaches the test binaries once, through morpheus
}

// tempFile returns the path of a fresh empty file in a fresh directory, and
// a function that removes both.
func tempFile(name string) (string, func(), error) {
	dir, err := os.MkdirTemp("", "morpheus-")
	if err != nil {
		return "", nil, err
	}
	return filepath.Join(dir, name), func() { os.RemoveAll(dir) }, nil
}

// runPattern returns the go test -run pattern that selects exactly the test
// (or subtest) name.
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// packageOf returns the package directory a trace file belongs to: the
// directory that holds the testdata directory the trace is kept under
// (testdata/morpheus/<Test>/<hash>), or "." if the path has none.
func packageOf(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	for dir := filepath.Dir(abs); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if filepath.Base(dir) == "testdata" {
			return filepath.Dir(dir), nil
		}
	}
	return ".", nil
}

// replayRun is a replay (or shrink) of a trace by its own test.
type replayRun struct {
	trace  string       // the trace file
	tr     *trace.Trace // its content
	test   string       // the test's name (-run), default the trace's
	pkg    string       // the package directory (-pkg), default packageOf(trace)
	env    []string     // extra environment
	shrink int          // candidate schedules shrinking may run (0: a replay)
	cache  string       // the rewrite cache (-cache), "" for the default
	output io.Writer
	// history, after the run of a rewritten test's trace, says what the
	// replay re-ran of the recording process first, if it did.
	history string
}

// run replays the trace under go test and returns the test's result record.
func (r *replayRun) run() (*results.Record, error) {
	abs, err := filepath.Abs(r.trace)
	if err != nil {
		return nil, err
	}
	if r.pkg == "" {
		if r.pkg, err = packageOf(abs); err != nil {
			return nil, err
		}
	}
	if r.tr != nil && r.tr.Header.Options[rt.ModeOption] == rt.ModeRewritten {
		return r.runRewritten(abs)
	}
	file, cleanup, err := tempFile("results.jsonl")
	if err != nil {
		return nil, err
	}
	defer cleanup()
	env := append([]string{"MORPHEUS_RESULTS=" + file, "MORPHEUS_REPLAY=" + abs}, r.env...)
	if r.shrink > 0 {
		env = append(env, fmt.Sprintf("MORPHEUS_SHRINK=%d", r.shrink))
	}
	runErr := goTest(r.pkg, []string{"-count=1", "-run", runPattern(r.test)}, env, r.output)
	recs, err := results.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	for _, rec := range recs {
		if rec.Test == r.test {
			return rec, nil
		}
	}
	if runErr != nil {
		return nil, fmt.Errorf("go test -run '%s' in %s: %v (no result from the test: does it call morpheus.Check?)", runPattern(r.test), r.pkg, runErr)
	}
	return nil, fmt.Errorf("go test -run '%s' in %s ran no morpheus.Check named %s", runPattern(r.test), r.pkg, r.test)
}

// runRewritten replays the trace of an ordinary test (one morpheus test
// rewrote: the trace's mode=rewritten) as morpheus test -replay does, in
// the package's directory, and returns the outcome as a result record.
func (r *replayRun) runRewritten(abs string) (*results.Record, error) {
	env := append(os.Environ(), r.env...)
	if r.shrink > 0 {
		env = append(env, fmt.Sprintf("%s=%d", rt.EnvShrink, r.shrink))
	}
	cfg := driver.Config{Dir: r.pkg, Patterns: []string{"."}, Run: runPattern(r.test), Replay: abs,
		Schedules: 1, Jobs: 1, Env: env, Log: r.output, Cache: r.cache}
	sum, err := driver.Run(context.Background(), cfg)
	if err != nil {
		return nil, err
	}
	for _, p := range sum.Packages {
		if p.Err != nil {
			return nil, fmt.Errorf("%s: %v\n%s", p.Path, p.Err, tail(p.Output, 40))
		}
		for _, t := range p.Tests {
			if t.Name == r.test {
				r.history = t.History
				return rewrittenRecord(p.Path, abs, t, r.tr)
			}
		}
	}
	return nil, fmt.Errorf("morpheus test -run '%s' in %s ran no test named %s", runPattern(r.test), r.pkg, r.test)
}

// rewrittenRecord is a rewritten test's replay as a result record: its
// failure as the trace the replay wrote records it (a shrunk one when it
// shrank), or as the test reported it when it wrote none (the run left the
// trace).
func rewrittenRecord(pkg, replay string, t *driver.TestSummary, orig *trace.Trace) (*results.Record, error) {
	rec := &results.Record{Version: results.Version, Test: t.Name, Package: pkg, Strategy: "replay", Replay: replay,
		Planned: 1, Iterations: t.Schedules, Steps: t.Steps}
	if t.Kind == "" {
		return rec, nil
	}
	rec.Failures = 1
	f := &results.Failure{Kind: t.Kind, Message: t.Message, Task: t.Task, Location: t.Location, Steps: int(t.Steps), Path: t.Trace}
	if t.Trace != "" && t.Trace != replay {
		// An exploration's trace, or the one a replay wrote (shrunk).
		tr, err := morpheus.ReadTrace(t.Trace)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		if err := trace.Encode(&b, tr); err != nil {
			return nil, err
		}
		f.Trace, f.Steps, f.Seed, f.Iteration = b.String(), tr.Steps(), tr.Header.Seed, tr.Header.Iteration
		if h := tr.Header.Failure; h != nil {
			f.Message, f.Location = h.Message, h.Loc
		}
		if orig != nil && orig.Steps() != f.Steps {
			f.OriginalSteps = orig.Steps()
		}
	} else if orig != nil {
		// The replay wrote no trace of its own: the recorded one stands,
		// with the run's message (where it left the trace, or the same
		// failure).
		var b strings.Builder
		if err := trace.Encode(&b, orig); err != nil {
			return nil, err
		}
		f.Trace, f.Seed, f.Iteration = b.String(), orig.Header.Seed, orig.Header.Iteration
		if h := orig.Header.Failure; h != nil && h.Kind == t.Kind && h.Loc == t.Location {
			f.Message = h.Message
		}
	}
	rec.Failure = f
	return rec, nil
}
