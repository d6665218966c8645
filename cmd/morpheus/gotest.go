package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/morpheus-go/morpheus/internal/interrupt"
	"github.com/morpheus-go/morpheus/internal/results"
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
	trace  string   // the trace file
	test   string   // the test's name (-run), default the trace's
	pkg    string   // the package directory (-pkg), default packageOf(trace)
	env    []string // extra environment
	output io.Writer
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
	file, cleanup, err := tempFile("results.jsonl")
	if err != nil {
		return nil, err
	}
	defer cleanup()
	env := append([]string{"MORPHEUS_RESULTS=" + file, "MORPHEUS_REPLAY=" + abs}, r.env...)
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
