package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/bench/internal/bugs"
	"github.com/morpheus-go/morpheus/bench/internal/hitratio"
	"github.com/morpheus-go/morpheus/strategy"
)

func init() {
	registerBench(&command{
		name:    "bugs",
		summary: "hit ratios of strategies on the bug scenarios (Morpheus Table 3)",
		run:     runBenchBugs,
	})
}

func runBenchBugs(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench bugs", "bench bugs [-trials N] [-json] [-fixed] [-seed S] [-only NAME[,NAME]] [-strategies S[,S]] [-work K] [-background P]", stderr)
	trials := fs.Int("trials", 1000, "iterations per scenario and strategy")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the tables")
	fixed := fs.Bool("fixed", false, "run the fixed variants: any failure is reported and fails the command")
	seed := fs.Uint64("seed", 1, "base seed of every run")
	only := fs.String("only", "", "comma-separated scenarios to run (default: the suite; also accepts "+extraNames()+")")
	strats := fs.String("strategies", strings.Join(bugs.Strategies, ","), "comma-separated strategies (the table's columns)")
	work := fs.Int("work", 0, "make every process of a scenario do K private updates after each message it handles (see bugs.WithWork)")
	bgPairs := fs.Int("background", 0, "add P pairs of background processes to every scenario (see bugs.WithBackground)")
	bgRounds := fs.Int("background-rounds", 25, "ping-pong rounds of each background pair")
	bgPeriod := fs.Duration("background-period", 100*time.Millisecond, "virtual time between a background pair's rounds")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 || *trials < 1 || *bgPairs < 0 || *bgRounds < 1 || *work < 0 {
		fmt.Fprintln(stderr, "morpheus bench bugs: -trials and -background-rounds must be positive, -work and -background not negative, and no arguments are taken")
		fs.Usage()
		return errUsage
	}
	scenarios := bugs.All()
	if *only != "" {
		scenarios = nil
		for _, name := range strings.Split(*only, ",") {
			s, ok := bugs.Lookup(strings.TrimSpace(name))
			if !ok {
				fmt.Fprintf(stderr, "morpheus bench bugs: unknown scenario %q (known: %s, %s)\n", name, suiteNames(), extraNames())
				return errUsage
			}
			scenarios = append(scenarios, s)
		}
	}
	for i := range scenarios {
		scenarios[i] = bugs.WithBackground(bugs.WithWork(scenarios[i], *work), *bgPairs, *bgRounds, *bgPeriod)
	}
	strategies := strings.Split(*strats, ",")
	for _, st := range strategies {
		if _, err := strategy.Parse(st); err != nil {
			fmt.Fprintf(stderr, "morpheus bench bugs: %v\n", err)
			return errUsage
		}
	}
	m, err := bugs.Run(scenarios, bugs.Config{Trials: *trials, Strategies: strategies, Seed: *seed, Fixed: *fixed,
		Done: func(c hitratio.Case, st string, r hitratio.Cell) {
			fmt.Fprintf(stderr, "bench bugs: %-16s %-10s hits %5d  failures %5d  of %d  %v\n",
				c.Name, st, r.Hits, r.Failures, r.Iterations, r.Elapsed.Round(time.Millisecond))
		}})
	if err != nil {
		return err
	}
	switch {
	case *fixed:
		return bugs.WriteFixed(stdout, stderr, m, *asJSON)
	case *asJSON:
		return bugs.WriteJSON(stdout, m)
	}
	bugs.WriteTables(stdout, m, *seed)
	return nil
}

func suiteNames() string {
	var ns []string
	for _, s := range bugs.All() {
		ns = append(ns, s.Name)
	}
	return strings.Join(ns, ", ")
}

func extraNames() string {
	var ns []string
	for _, s := range bugs.Extra() {
		ns = append(ns, s.Name)
	}
	return strings.Join(ns, ", ")
}
