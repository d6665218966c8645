package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/bench/internal/hitratio"
	"github.com/morpheus-go/morpheus/bench/internal/raftbench"
	"github.com/morpheus-go/morpheus/bench/internal/systems/raft"
	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/strategy"
)

func init() {
	registerBench(&command{
		name:    "raft",
		summary: "etcd raft under morpheus: hit ratios of the raft user bugs, and a long run of the correct harness",
		run:     runBenchRaft,
	})
}

func runBenchRaft(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench raft", "bench raft [-trials N] [-iterations N] [-json] [-bugs a,b] [-nodes 3|5] [-strategies S,S] [-seed S] [-workers W]", stderr)
	trials := fs.Int("trials", 1000, "iterations per bug and strategy (0: skip the bug table)")
	iterations := fs.Int("iterations", 6000, "iterations of the correct harness, split evenly across the strategies (0: skip)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the tables")
	bugList := fs.String("bugs", "", "comma-separated bugs (default: "+raftBugNames()+"; also accepts "+string(raft.LeaderReads)+")")
	nodes := fs.Int("nodes", 3, "raft cluster size, 3 or 5")
	strats := fs.String("strategies", strings.Join(raftbench.Strategies, ","), "comma-separated strategies")
	seed := fs.Uint64("seed", 1, "base seed of every run")
	workers := fs.Int("workers", 0, "parallel iterations (0: GOMAXPROCS); the results other than times do not depend on it")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 || *trials < 0 || *iterations < 0 || (*nodes != 3 && *nodes != 5) {
		fmt.Fprintln(stderr, "morpheus bench raft: -trials and -iterations must not be negative, -nodes is 3 or 5, and no arguments are taken")
		fs.Usage()
		return errUsage
	}
	bugs := raft.Bugs()
	if *bugList != "" {
		bugs = nil
		for _, name := range strings.Split(*bugList, ",") {
			b, err := raft.ParseBug(strings.TrimSpace(name))
			if err != nil {
				fmt.Fprintf(stderr, "morpheus bench raft: %v\n", err)
				return errUsage
			}
			bugs = append(bugs, b)
		}
	}
	strategies := strings.Split(*strats, ",")
	for _, st := range strategies {
		if _, err := strategy.Parse(st); err != nil {
			fmt.Fprintf(stderr, "morpheus bench raft: %v\n", err)
			return errUsage
		}
	}
	r, err := raftbench.Run(raftbench.Config{Nodes: *nodes, Bugs: bugs, Strategies: strategies, Trials: *trials,
		Iterations: *iterations, Seed: *seed, Workers: *workers,
		BugDone: func(b, st string, c hitratio.Cell) {
			fmt.Fprintf(stderr, "bench raft: %-20s %-8s hits %5d  failures %5d  of %d  %v\n",
				b, st, c.Hits, c.Failures, c.Iterations, c.Elapsed.Round(time.Millisecond))
		},
		FixedDone: func(f raftbench.FixedRun) {
			fmt.Fprintf(stderr, "bench raft: %-20s %-8s failures %5d  of %d  %v\n",
				"fixed", f.Strategy, f.Failures, f.Iterations, f.Elapsed.Round(time.Millisecond))
		}})
	if err != nil {
		return err
	}
	if *asJSON {
		if err := raftbench.WriteJSON(stdout, r); err != nil {
			return err
		}
	} else {
		raftbench.WriteTables(stdout, r)
	}
	failed := 0
	for _, f := range r.Fixed {
		if f.Failure != nil {
			failed += f.Failures
			fmt.Fprintf(stderr, "\nthe correct harness failed under %s:\n%s", f.Strategy, f.Failure.Report())
		}
	}
	if failed > 0 {
		return fmt.Errorf("the correct raft harness failed in %s", plural.N(failed, "iteration"))
	}
	return nil
}

func raftBugNames() string {
	var ns []string
	for _, b := range raft.Bugs() {
		ns = append(ns, string(b))
	}
	return strings.Join(ns, ", ")
}
