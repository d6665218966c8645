package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/programs"
)

func init() {
	registerBench(&command{
		name:    "fairness",
		summary: "false livelocks: correct spin-waiting code under every strategy, and a real livelock",
		run:     runBenchFairness,
	})
}

// fairnessRow is one scenario under one strategy.
type fairnessRow struct {
	Scenario   string  `json:"scenario"`
	Strategy   string  `json:"strategy"`
	Livelock   bool    `json:"livelock"`   // the scenario is the real livelock
	Iterations int     `json:"iterations"` // run, up to the first failure
	Failure    string  `json:"failure"`    // the first failure's kind, "" if none
	Iteration  int     `json:"iteration"`  // the first failing iteration, -1 if none
	Steps      float64 `json:"steps"`      // mean steps per iteration
	Seconds    float64 `json:"seconds"`
}

func runBenchFairness(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench fairness", "bench fairness [-iterations N] [-strategies S,S] [-seed N] [-json]", stderr)
	iterations := fs.Int("iterations", 100_000, "iterations of each correct scenario under each strategy")
	strategies := fs.String("strategies", strings.Join(programs.SpinStrategies, ","), "comma-separated strategies")
	seed := fs.Uint64("seed", 1, "base seed")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the table")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *iterations <= 0 {
		fmt.Fprintln(stderr, "morpheus bench fairness: -iterations must be positive")
		return errUsage
	}
	var rows []fairnessRow
	run := func(sc programs.Spin, s string, n int, livelock bool) error {
		start := time.Now()
		opts := []morpheus.Option{morpheus.Strategy(s), morpheus.Seed(*seed), morpheus.Iterations(n), morpheus.Shrink(0)}
		if livelock {
			opts = append(opts, morpheus.MaxSteps(20_000))
		}
		res, err := morpheus.Explore(sc.Test, opts...)
		if err != nil {
			return err
		}
		r := fairnessRow{Scenario: sc.Name, Strategy: s, Livelock: livelock, Iterations: res.Iterations,
			Iteration: -1, Seconds: time.Since(start).Seconds()}
		if res.Iterations > 0 {
			r.Steps = float64(res.Steps) / float64(res.Iterations)
		}
		if f := res.Failure; f != nil {
			r.Failure, r.Iteration = f.Kind, f.Iteration
		}
		rows = append(rows, r)
		if !*asJSON {
			fmt.Fprintf(stderr, "bench fairness: %-16s %-8s %s\n", sc.Name, s, fairnessOutcome(r))
		}
		return nil
	}
	for _, sc := range programs.SpinCorrect {
		for _, s := range strings.Split(*strategies, ",") {
			if err := run(sc, s, *iterations, false); err != nil {
				return err
			}
		}
	}
	for _, s := range strings.Split(*strategies, ",") {
		if err := run(programs.Spin{Name: "livelock", Test: programs.SpinLivelock}, s, 5, true); err != nil {
			return err
		}
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(struct {
			Rows []fairnessRow `json:"rows"`
		}{rows})
	}
	fmt.Fprintf(stdout, "%-16s %-8s %10s %10s %8s  %s\n", "scenario", "strategy", "iterations", "steps/it", "seconds", "outcome")
	for _, r := range rows {
		fmt.Fprintf(stdout, "%-16s %-8s %10d %10.0f %8.1f  %s\n", r.Scenario, r.Strategy, r.Iterations, r.Steps, r.Seconds, fairnessOutcome(r))
	}
	return nil
}

// fairnessOutcome says whether a row is as it should be: a correct
// scenario passes every iteration, the livelock fails at the step limit.
func fairnessOutcome(r fairnessRow) string {
	switch {
	case r.Livelock && r.Failure == "step-limit":
		return "livelock reported (as it should)"
	case r.Livelock:
		return fmt.Sprintf("NOT REPORTED as a livelock (failure %q)", r.Failure)
	case r.Failure == "":
		return "no false livelock"
	default:
		return fmt.Sprintf("FALSE %s at iteration %d", r.Failure, r.Iteration)
	}
}
