package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/results"
)

func init() {
	register(&command{
		name:    "test",
		summary: "run packages' go tests under control (rewritten at build time), with progress and HTML reports",
		run:     runTest,
	})
}

const testUsage = `Usage: morpheus test -rewrite=false [flags] [go test flags] PACKAGES

Runs "go test" on the packages, with -count=1 unless given: only the tests
that call morpheus.Check are under control (without -rewrite=false, morpheus
test rewrites the packages and controls every test: "morpheus test -h").
It shows the progress of every morpheus.Check: iterations, failures,
distinct partial orders, rate and time left (one updated line on a
terminal, plain lines otherwise). Then it prints a summary per Check and
writes an HTML report per Check into the report directory, with an
index.html that links them. Flags it does not know go to go test (-run, -v,
-race, ...). It exits 1 if go test failed. A first ^C (SIGINT, or SIGTERM)
is passed on to the test processes: each Check stops starting iterations,
finishes the running ones and writes its record, traces and report as at a
normal end, marked interrupted; morpheus test prints the summary and exits
130. A second ^C kills the test processes at once.

Flags:
  -iterations N   iterations per Check; 0 means unlimited, until a failure,
                  -duration or ^C (MORPHEUS_ITERATIONS)
  -duration D     wall-clock budget per Check, e.g. 30s (MORPHEUS_DURATION)
  -strategy S     exploration strategy (MORPHEUS_STRATEGY)
  -seed N         base seed, or "random" (MORPHEUS_SEED)
  -shard i/N      run part i of N of each Check's iterations (MORPHEUS_SHARD);
                  merge the shards' result files with morpheus merge
  -replay TRACE   replay the trace (a file, or a directory holding one)
                  instead of exploring (MORPHEUS_REPLAY): with -run, the
                  command the summary prints for a failing Check
  -results FILE   keep the result records (JSON lines) in FILE
  -report DIR     directory of the HTML reports (default "morpheus-report");
                  "" writes none
  -json           print the result records as JSON lines instead of the
                  summary; go test's output goes to stderr
`

// testFlags are morpheus test's own flags: name -> environment variable
// ("" for those it handles itself).
var testFlags = map[string]string{
	"iterations": "MORPHEUS_ITERATIONS", "duration": "MORPHEUS_DURATION", "strategy": "MORPHEUS_STRATEGY",
	"seed": "MORPHEUS_SEED", "shard": "MORPHEUS_SHARD", "replay": "MORPHEUS_REPLAY", "results": "", "report": "", "json": "",
}

type testOpts struct {
	env     []string
	results string
	report  string
	json    bool
	goArgs  []string
}

// parseTestArgs splits args into morpheus test's flags and go test's.
func parseTestArgs(args []string) (*testOpts, error) {
	o := &testOpts{report: "morpheus-report"}
	for k := 0; k < len(args); k++ {
		a := args[k]
		if a == "-h" || a == "-help" || a == "--help" {
			return nil, errHelpAsked
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "rewrite" {
			continue // -rewrite=false chose this mode
		}
		env, ours := testFlags[name]
		if !strings.HasPrefix(a, "-") || !ours {
			o.goArgs = append(o.goArgs, a)
			continue
		}
		if name == "json" {
			o.json = !hasVal || val == "true"
			continue
		}
		if !hasVal {
			if k+1 >= len(args) {
				return nil, fmt.Errorf("flag -%s needs a value", name)
			}
			k++
			val = args[k]
		}
		switch name {
		case "results":
			o.results = val
		case "report":
			o.report = val
		case "replay":
			// go test runs in the package's directory: the trace is
			// named from here, a directory holding one trace names it.
			path, err := replayPath(".", val)
			if err == nil {
				_, err = morpheus.ReadTrace(path)
			}
			if err != nil {
				return nil, fmt.Errorf("-replay: %v", err)
			}
			o.env = append(o.env, env+"="+absPath(path))
		case "shard":
			if _, _, err := results.ParseShard(val); err != nil {
				return nil, fmt.Errorf("-shard %q: %v", val, err)
			}
			fallthrough
		default:
			o.env = append(o.env, env+"="+val)
		}
	}
	hasCount := false
	for _, a := range o.goArgs {
		if strings.HasPrefix(strings.TrimLeft(a, "-"), "count") {
			hasCount = true
		}
	}
	if !hasCount {
		o.goArgs = append([]string{"-count=1"}, o.goArgs...)
	}
	return o, nil
}

// errHelpAsked is parseTestArgs's answer to -h: print the usage.
var errHelpAsked = errors.New("help")

func runTest(args []string, stdout, stderr io.Writer) error {
	if rewriteMode(args) {
		return runTestRewrite(args, stdout, stderr)
	}
	o, err := parseTestArgs(args)
	if errors.Is(err, errHelpAsked) {
		fmt.Fprint(stderr, testUsage)
		return flag.ErrHelp
	}
	if err != nil {
		fmt.Fprintf(stderr, "morpheus test: %v\n", err)
		return errUsage
	}
	progress, cleanup, err := tempFile("progress.jsonl")
	if err != nil {
		return err
	}
	defer cleanup()
	keep := o.results != ""
	if !keep {
		o.results = strings.TrimSuffix(progress, "progress.jsonl") + "results.jsonl"
	} else if err := os.Remove(o.results); err != nil && !os.IsNotExist(err) {
		return err
	}
	env := append(o.env, "MORPHEUS_PROGRESS="+progress, "MORPHEUS_RESULTS="+absPath(o.results))
	// go test's output and the progress lines share a writer, from two
	// goroutines when it is not a file.
	out := stdout
	if o.json {
		out = stderr
	}
	if _, ok := out.(*os.File); !ok {
		out = &lockedWriter{w: out}
	}
	view := newProgressView(out, progress)
	if view.tty {
		out = view // go test's lines go above the progress line
	} else {
		out = &orderedOutput{w: out, view: view} // after their packages' progress lines
	}
	done := make(chan error, 1)
	go func() { done <- goTest(".", o.goArgs, env, out) }()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	var testErr error
wait:
	for {
		select {
		case testErr = <-done:
			view.finish()
			break wait
		case <-tick.C:
			view.poll()
		}
	}
	recs, err := results.ReadFile(o.results)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		for _, r := range recs {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
	} else {
		paths := plainPackagePaths(recs)
		for _, r := range recs {
			summarize(stdout, []*results.Record{r}, paths[r.Package])
		}
	}
	if o.report != "" && len(recs) > 0 {
		paths, err := writeReports(o.report, recs)
		if err != nil {
			return err
		}
		if !o.json {
			for _, p := range paths {
				fmt.Fprintf(stdout, "report: %s\n", p)
			}
		}
	}
	if testErr != nil {
		return fmt.Errorf("go test: %v", testErr)
	}
	return nil
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// lockedWriter serializes writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
