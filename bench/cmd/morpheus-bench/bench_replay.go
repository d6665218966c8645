package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/bench/internal/sweep"
	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/trace"
)

func init() {
	registerBench(&command{
		name:    "replay",
		summary: "every failure found replays in a fresh process, to a byte-identical trace",
		run:     runBenchReplay,
	})
}

// envReplayChild makes a test binary of this package run the CLI (TestMain)
// rather than its tests: bench replay's fresh processes are then the test
// binary itself.
const envReplayChild = "MORPHEUS_CLI_MAIN"

// replayRow is one test under one strategy.
type replayRow struct {
	Source    string  `json:"source"`
	Strategy  string  `json:"strategy"`
	Kind      string  `json:"kind"`      // the failure found, "" if none
	Iteration int     `json:"iteration"` // its iteration, -1 if none
	Steps     int     `json:"steps"`
	Command   string  `json:"command,omitempty"`  // the replay command run in a fresh process
	Replayed  string  `json:"replayed,omitempty"` // the replay's failure kind ("passed" if none)
	Same      bool    `json:"same"`               // same kind and a byte-identical trace
	Diff      string  `json:"diff,omitempty"`     // where the traces differ, if they do
	Error     string  `json:"error,omitempty"`    // the fresh process's error, if any
	Seconds   float64 `json:"seconds"`
}

// replayChildOut is what a fresh process reports of its replay.
type replayChildOut struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

func runBenchReplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench replay", "bench replay [-iterations N] [-strategies S,S] [-random N] [-only REGEXP] [-seed N] [-dir DIR] [-json]", stderr)
	iterations := fs.Int("iterations", 2000, "iterations explored per test and strategy, up to the first failure")
	strategies := fs.String("strategies", "pos+ca,random,pct:3,pos*", "comma-separated strategies")
	random := fs.Int("random", 40, "random programs (internal/randprog) added to the tests")
	only := fs.String("only", "", "run only the tests whose names match REGEXP")
	seed := fs.Uint64("seed", 1, "base seed")
	dir := fs.String("dir", "", "directory for the traces (default: a temporary one, removed after)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the table")
	one := fs.String("one", "", "")         // fresh process: replay -trace of this test,
	tracePath := fs.String("trace", "", "") // and write its trace to -out
	out := fs.String("out", "", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *one != "" {
		return replayOne(*one, *tracePath, *out, stdout)
	}
	re, err := regexp.Compile(*only)
	if *iterations <= 0 || *random < 0 || err != nil {
		fmt.Fprintln(stderr, "morpheus bench replay: -iterations must be positive, -random not negative, -only a regexp")
		return errUsage
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "morpheus-replay-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		*dir = d
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	var rows []replayRow
	for _, src := range sweep.Sources(*random) {
		if !re.MatchString(src.Name) {
			continue
		}
		for _, st := range strings.Split(*strategies, ",") {
			row, err := sweepOne(src, st, *seed, *iterations, *dir, exe)
			if err != nil {
				return err
			}
			rows = append(rows, row)
			if !*asJSON {
				fmt.Fprintf(stderr, "bench replay: %-26s %-8s %s\n", src.Name, st, replayOutcome(row))
			}
		}
	}
	found, same := 0, 0
	for _, r := range rows {
		if r.Kind != "" {
			found++
			if r.Same {
				same++
			}
		}
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(struct {
			Rows  []replayRow `json:"rows"`
			Found int         `json:"found"`
			Same  int         `json:"same"`
		}{rows, found, same})
	}
	fmt.Fprintf(stdout, "%-26s %-8s %-12s %9s %7s  %s\n", "test", "strategy", "failure", "iteration", "steps", "replay in a fresh process")
	for _, r := range rows {
		kind := cmp.Or(r.Kind, "-")
		fmt.Fprintf(stdout, "%-26s %-8s %-12s %9d %7d  %s\n", r.Source, r.Strategy, kind, r.Iteration, r.Steps, replayOutcome(r))
	}
	fmt.Fprintf(stdout, "\n%s found, %d replayed to the same failure and a byte-identical trace\n", plural.N(found, "failure"), same)
	if same != found {
		return fmt.Errorf("%d of %s did not replay", found-same, plural.N(found, "failure"))
	}
	return nil
}

// sweepOne explores src under strategy st and, if it fails, replays the
// saved trace in a fresh process.
func sweepOne(src sweep.Source, st string, seed uint64, iterations int, dir, exe string) (replayRow, error) {
	start := time.Now()
	row := replayRow{Source: src.Name, Strategy: st, Iteration: -1}
	opts := append([]morpheus.Option{morpheus.Strategy(st), morpheus.Seed(seed), morpheus.Iterations(iterations)}, src.Options...)
	res, err := morpheus.Explore(src.Test, opts...)
	if err != nil {
		return row, fmt.Errorf("%s under %s: %w", src.Name, st, err)
	}
	f := res.Failure
	if f == nil {
		row.Seconds = time.Since(start).Seconds()
		return row, nil
	}
	row.Kind, row.Iteration, row.Steps = f.Kind, f.Iteration, f.Steps
	name := strings.NewReplacer("/", "_", ":", "_", "+", "_", "*", "star").Replace(src.Name + "-" + st)
	path := filepath.Join(dir, name+".trace")
	if err := morpheus.WriteTrace(path, f.Trace); err != nil {
		return row, err
	}
	outPath := path + ".replayed"
	args := []string{"bench", "replay", "-one", src.Name, "-trace", path, "-out", outPath}
	row.Command = "morpheus " + strings.Join(args, " ")
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), envReplayChild+"=1")
	var errBuf bytes.Buffer
	cmd.Stderr = &errBuf
	outBytes, err := cmd.Output()
	row.Seconds = time.Since(start).Seconds()
	if err != nil {
		row.Error = strings.TrimSpace(err.Error() + ": " + errBuf.String())
		return row, nil
	}
	var child replayChildOut
	if err := json.Unmarshal(outBytes, &child); err != nil {
		row.Error = fmt.Sprintf("reading the fresh process's report %q: %v", outBytes, err)
		return row, nil
	}
	row.Replayed = cmp.Or(child.Kind, "passed")
	if child.Kind != f.Kind {
		return row, nil
	}
	got, err := morpheus.ReadTrace(outPath)
	if err != nil {
		row.Error = err.Error()
		return row, nil
	}
	row.Diff = traceDiff(f.Trace, got)
	row.Same = row.Diff == ""
	return row, nil
}

// replayOne is the fresh process: it replays the trace at path as the
// test name's failure, writes the replay's trace to out and reports its
// failure on stdout.
func replayOne(name, path, out string, stdout io.Writer) error {
	src, err := sweep.Lookup(name)
	if err != nil {
		return err
	}
	if path == "" || out == "" {
		return errors.New("-one needs -trace and -out")
	}
	res, err := morpheus.Explore(src.Test, append([]morpheus.Option{morpheus.Replay(path)}, src.Options...)...)
	if err != nil {
		return err
	}
	var r replayChildOut
	if f := res.Failure; f != nil {
		r.Kind, r.Message = f.Kind, f.Message
		if err := morpheus.WriteTrace(out, f.Trace); err != nil {
			return err
		}
	}
	return json.NewEncoder(stdout).Encode(r)
}

// traceDiff encodes both traces with the same header (a replay's names its
// own strategy) and says where they first differ, or returns "".
func traceDiff(want, got *trace.Trace) string {
	g := *got
	g.Header = want.Header
	var a, b bytes.Buffer
	if err := trace.Encode(&a, want); err != nil {
		return err.Error()
	}
	if err := trace.Encode(&b, &g); err != nil {
		return err.Error()
	}
	if bytes.Equal(a.Bytes(), b.Bytes()) {
		return ""
	}
	la, lb := strings.Split(a.String(), "\n"), strings.Split(b.String(), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d: recorded %q, replayed %q", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("recorded %d lines, replayed %d", len(la), len(lb))
}

func replayOutcome(r replayRow) string {
	switch {
	case r.Kind == "":
		return "no failure found"
	case r.Error != "":
		return "ERROR: " + r.Error
	case r.Same:
		return "same failure, byte-identical trace"
	case r.Replayed != r.Kind:
		return fmt.Sprintf("DIFFERENT: replayed as %s", r.Replayed)
	default:
		return "DIFFERENT trace: " + r.Diff
	}
}
