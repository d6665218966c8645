package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/internal/results"
	"github.com/morpheus-go/morpheus/trace"
)

func init() {
	register(&command{
		name:    "replay",
		summary: "re-run the test a trace belongs to on that trace, and show it step by step",
		run:     runReplay,
	})
}

// traceArgs are the flags and argument of the commands that take a trace.
type traceArgs struct {
	run, pkg string
	cache    string // the rewrite cache of a rewritten test's replay
	json     bool
	path     string
	tr       *trace.Trace
}

func (a *traceArgs) flags(fs interface {
	StringVar(*string, string, string, string)
	BoolVar(*bool, string, bool, string)
}) {
	fs.StringVar(&a.run, "run", "", "the test's name (default: the one the trace records)")
	fs.StringVar(&a.pkg, "C", "", "the test's package directory (default: the directory holding the trace's testdata)")
	fs.StringVar(&a.pkg, "pkg", "", "the same as -C")
	fs.StringVar(&a.cache, "cache", "", "cache directory for rewritten files and binaries, as morpheus test's (an ordinary test's trace)")
	fs.BoolVar(&a.json, "json", false, "print the test's result record as a JSON line instead of text")
}

// load reads the trace named by the one argument: a trace file, or a
// directory that holds exactly one (such as testdata/morpheus/TestName).
func (a *traceArgs) load(args []string, stderr io.Writer, name string) error {
	if len(args) != 1 {
		fmt.Fprintf(stderr, "morpheus %s: expected one trace file, got %d arguments\n", name, len(args))
		return errUsage
	}
	path, err := resolveTrace(args[0])
	if err != nil {
		return err
	}
	tr, err := morpheus.ReadTrace(path)
	if err != nil {
		return err
	}
	a.path, a.tr = path, tr
	if a.run == "" {
		a.run = tr.Header.Test
	}
	if a.run == "" {
		return fmt.Errorf("%s names no test: give it with -run", path)
	}
	return nil
}

// resolveTrace returns path, or the single trace file in the directory path.
func resolveTrace(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return path, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return "", err
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && !strings.Contains(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) != 1 {
		return "", fmt.Errorf("%s: expected a trace file or a directory with one trace, found %d traces %v", path, len(names), names)
	}
	return filepath.Join(path, names[0]), nil
}

func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("replay", "replay [-run TEST] [-C DIR] [-json] TRACE", stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: morpheus replay [-run TEST] [-C DIR] [-json] TRACE

Shows the trace step by step, then runs its test ("go test -run" in its
package, with MORPHEUS_REPLAY set; for an ordinary test's trace, which
morpheus test found, "morpheus test -replay" there) on it, strictly, and
says whether the run
still fails as the trace recorded: the same kind, location and message after
the same steps. TRACE is a trace file, or a directory holding one (such as
testdata/morpheus/TestName). It exits 0 when the replay reproduces the
recorded outcome, 1 when it does not: fixed, or the trace was recorded on
different code (the run leaves it; delete it if the bug is fixed), or the
test is nondeterministic (it leaves even a schedule it has just run).

Flags:
`)
		fs.PrintDefaults()
	}
	var a traceArgs
	a.flags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := a.load(fs.Args(), stderr, "replay"); err != nil {
		return err
	}
	out := stdout
	if a.json {
		out = stderr
	}
	fmt.Fprintf(out, "trace %s: test %s, iteration %d, seed %#x, %s\n", a.path, a.run, a.tr.Header.Iteration+1, a.tr.Header.Seed, plural.N(a.tr.Steps(), "step"))
	if opts := a.tr.Header.Options; len(opts) > 0 {
		var kv []string
		for _, k := range slices.Sorted(maps.Keys(opts)) {
			kv = append(kv, k+"="+opts[k])
		}
		fmt.Fprintf(out, "options: %s\n", strings.Join(kv, " "))
	}
	if f := a.tr.Header.Failure; f != nil {
		task := ""
		if f.Task >= 0 {
			task = a.tr.TaskName(f.Task)
		}
		fmt.Fprintf(out, "recorded: %s\n", failureLine(f.Kind, -1, task, f.Loc, f.Message))
	}
	if err := trace.Render(out, a.tr, 0, -1); err != nil {
		return err
	}
	var log strings.Builder
	r := &replayRun{trace: a.path, tr: a.tr, test: a.run, pkg: a.pkg, cache: a.cache, output: &log}
	rec, err := r.run()
	if err != nil {
		io.WriteString(stderr, log.String())
		return err
	}
	if a.json {
		if err := json.NewEncoder(stdout).Encode(rec); err != nil {
			return err
		}
	}
	same, verdict := compareReplay(a.tr, rec)
	fmt.Fprintln(out, verdict)
	if r.history != "" {
		fmt.Fprintln(out, r.history)
	}
	if !same {
		io.WriteString(out, log.String())
		return fmt.Errorf("the replay does not reproduce the trace")
	}
	return nil
}

// compareReplay says whether a replay's record reproduces the trace's
// recorded outcome, and how.
func compareReplay(tr *trace.Trace, rec *results.Record) (bool, string) {
	want, got := tr.Header.Failure, rec.Failure
	switch {
	case want == nil && got == nil:
		return true, fmt.Sprintf("replayed: the run passes, as recorded, after %s", plural.N(rec.Steps, "step"))
	case got == nil:
		return false, fmt.Sprintf("replayed: the run passes now (%s): the recorded %s failure is gone", plural.N(rec.Steps, "step"), want.Kind)
	case got.Kind == "nondeterminism", got.Kind == "stale-trace":
		// The message says which: the test left a schedule it had just
		// run, or the trace was recorded on different code.
		return false, "replayed: " + firstLine(got.Message)
	case want == nil:
		return false, fmt.Sprintf("replayed: the run fails now (%s), the trace passed", failureLine(got.Kind, -1, got.Task, got.Location, got.Message))
	case got.Kind == want.Kind && got.Location == want.Loc && got.Message == want.Message:
		at := ""
		if got.Location != "" {
			at = " at " + got.Location
		}
		return true, fmt.Sprintf("replayed: the same %s failure%s after %s", got.Kind, at, plural.N(got.Steps, "step"))
	}
	return false, fmt.Sprintf("replayed: another failure, %s (recorded: %s)", failureLine(got.Kind, -1, got.Task, got.Location, got.Message), failureLine(want.Kind, -1, "", want.Loc, ""))
}
