package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/internal/systems/storage"
	"github.com/morpheus-go/morpheus/trace"
)

func init() {
	register(&command{
		name:    "demo",
		summary: "find the replicating-storage bugs of the P# paper and show their traces",
		run:     runDemo,
	})
}

func runDemo(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("demo", "demo [-bug A|B] [-fixed] [-iterations N] [-strategy S] [-seed N] [-out DIR] [-replay FILE]", stderr)
	bug := fs.String("bug", "A", "which bug to look for: A (duplicate replica, safety) or B (lost ack, liveness)")
	fixed := fs.Bool("fixed", false, "test the fixed server instead: every iteration must pass")
	iterations := fs.Int("iterations", 10000, "iterations to run (0 means unlimited: until a failure or ^C)")
	strat := fs.String("strategy", morpheus.DefaultStrategy, "exploration strategy")
	seed := fs.Uint64("seed", 1, "base seed")
	out := fs.String("out", "", "directory for the failing trace (default morpheus/demo in the user's cache directory, ~/.cache on Linux)")
	replay := fs.String("replay", "", "replay this trace file step by step instead of exploring")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg := storage.Config{FixDuplicates: *fixed, FixReset: *fixed}
	switch *bug {
	case "A", "a":
		cfg.FixReset = true
	case "B", "b":
		cfg.FixDuplicates = true
	default:
		fmt.Fprintf(stderr, "morpheus demo: -bug %q: expected A or B\n", *bug)
		return errUsage
	}
	opts := []morpheus.Option{
		morpheus.Name("storage"), morpheus.Strategy(*strat), morpheus.Seed(*seed),
		morpheus.Iterations(*iterations), morpheus.ClockLimit(time.Minute),
	}
	if *replay != "" {
		return demoReplay(stdout, cfg, *replay, opts)
	}
	what := fmt.Sprintf("bug %s", *bug)
	if *fixed {
		what = "the fixed server"
	}
	fmt.Fprintf(stdout, "Testing the replicating storage system of the P# paper (%s), strategy %s, up to %s...\n", what, *strat, plural.N(*iterations, "iteration"))
	res, err := morpheus.Explore(storage.Test(cfg), opts...)
	if err != nil {
		return err
	}
	rate := float64(res.Iterations) / res.Elapsed.Seconds()
	f := res.Failure
	if f == nil {
		fmt.Fprintf(stdout, "%s, %s in all, in %v (%.0f iterations/s): no failure.\n", plural.N(res.Iterations, "iteration"), plural.N(res.Steps, "step"), res.Elapsed.Round(time.Millisecond), rate)
		if !*fixed {
			return fmt.Errorf("the bug was not found")
		}
		return nil
	}
	fmt.Fprintf(stdout, "Found a failure in iteration %d (%s run, %v):\n\n", f.Iteration+1, plural.N(res.Iterations, "iteration"), res.Elapsed.Round(time.Millisecond))
	dir, err := demoDir(*out)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, fmt.Sprintf("morpheus-demo-bug%s.trace", *bug))
	if err := morpheus.WriteTrace(path, f.Trace); err != nil {
		return err
	}
	f.Path = path
	fmt.Fprint(stdout, f.Report()+"replay: "+invokedAs()+" demo -bug "+*bug+" -replay "+path+"\n")
	if *fixed {
		return fmt.Errorf("the fixed server failed")
	}
	return nil
}

// demoDir returns the directory for the demo's trace: out, or the user's
// own (morpheus/demo in the user's cache directory), not a fixed path in
// /tmp that another user's run may own.
func demoDir(out string) (string, error) {
	if out == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("no directory for the trace (%v): give one with -out", err)
		}
		out = filepath.Join(d, "morpheus", "demo")
	}
	return out, os.MkdirAll(out, 0o755)
}

// demoReplay re-runs a saved demo trace and prints it whole.
func demoReplay(stdout io.Writer, cfg storage.Config, path string, opts []morpheus.Option) error {
	res, err := morpheus.Explore(storage.Test(cfg), append(opts, morpheus.Replay(path))...)
	if err != nil {
		return err
	}
	f := res.Failure
	if f == nil {
		fmt.Fprintf(stdout, "replayed %s: %s, no failure (was the trace made with another -bug?)\n", path, plural.N(res.Steps, "step"))
		return nil
	}
	if f.Kind == "stale-trace" || f.Kind == "nondeterminism" {
		return fmt.Errorf("%s (was the trace made with another -bug?)", f.Message)
	}
	fmt.Fprintf(stdout, "Replayed %s: the same %s failure at step %d.\n\n", path, f.Kind, f.Steps)
	if err := trace.Render(stdout, f.Trace, 0, -1); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n%s\n", f.Error())
	return nil
}
