package raftbench

import (
	"fmt"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/bench/internal/hitratio"
	"github.com/morpheus-go/morpheus/bench/internal/systems/raft"
	"github.com/morpheus-go/morpheus/internal/explore"
)

// Strategies are the columns of the bug table.
var Strategies = []string{"random", "pct:5", "pos", "pos+ca", "pos*", "pos*+ca"}

// Config configures Run.
type Config struct {
	Nodes      int        // cluster size, 3 or 5
	Bugs       []raft.Bug // default raft.Bugs()
	Strategies []string   // default Strategies
	Trials     int        // iterations per bug and strategy; 0: no bug table
	Iterations int        // iterations of the correct harness, split evenly across the strategies; 0: none
	Seed       uint64     // the base seed of every run
	Workers    int        // 0: GOMAXPROCS; the results other than times do not depend on it
	// BugDone and FixedDone, if not nil, are called after each run.
	BugDone   func(bug, strategy string, c hitratio.Cell)
	FixedDone func(r FixedRun)
}

// FixedRun is the correct harness under one strategy.
type FixedRun struct {
	Strategy             string
	Iterations, Failures int
	Violations           int // failing iterations that violated a safety property
	Steps, Ops           int64
	Elapsed              time.Duration
	Failure              *morpheus.Failure // the lowest failing iteration's
}

// Report is what Run measured.
type Report struct {
	Config
	Matrix *hitratio.Matrix // the bugs (rows) by strategy; nil without Trials
	Fixed  []FixedRun
}

// Run measures the hit ratios of the bugs, then runs the correct harness.
func Run(c Config) (*Report, error) {
	if len(c.Bugs) == 0 {
		c.Bugs = raft.Bugs()
	}
	if len(c.Strategies) == 0 {
		c.Strategies = Strategies
	}
	base := raft.Config{Nodes: c.Nodes}
	rep := &Report{Config: c}
	if c.Trials > 0 {
		cases := make([]hitratio.Case, len(c.Bugs))
		for i, b := range c.Bugs {
			cases[i] = hitratio.Case{Name: string(b), Test: raft.Test(base.With(b)), Hit: raft.IsViolation,
				Options: []morpheus.Option{morpheus.Name("raft/" + string(b))}}
		}
		var done func(hitratio.Case, string, hitratio.Cell)
		if c.BugDone != nil {
			done = func(cs hitratio.Case, s string, cell hitratio.Cell) { c.BugDone(cs.Name, s, cell) }
		}
		m, err := hitratio.Run(cases, hitratio.Config{Trials: c.Trials, Strategies: c.Strategies, Workers: c.Workers,
			Seed: func(string, string) uint64 { return c.Seed }, Done: done})
		if err != nil {
			return nil, fmt.Errorf("raft: %w", err)
		}
		rep.Matrix = m
	}
	for j, st := range c.Strategies {
		n := c.Iterations / len(c.Strategies)
		if j < c.Iterations%len(c.Strategies) {
			n++
		}
		if n == 0 {
			continue
		}
		r, err := runFixed(base, st, n, c)
		if err != nil {
			return nil, err
		}
		rep.Fixed = append(rep.Fixed, r)
		if c.FixedDone != nil {
			c.FixedDone(r)
		}
	}
	return rep, nil
}

// runFixed runs the correct harness, counting every failure.
func runFixed(cfg raft.Config, st string, n int, c Config) (FixedRun, error) {
	stats := &raft.Stats{}
	cfg.Stats = stats
	r := FixedRun{Strategy: st}
	opts := []morpheus.Option{morpheus.Name("raft/fixed"), morpheus.Strategy(st), morpheus.Seed(c.Seed), morpheus.Iterations(n),
		explore.CountHits(raft.IsViolation)}
	if c.Workers > 0 {
		opts = append(opts, morpheus.Workers(c.Workers))
	}
	res, err := morpheus.Explore(raft.Test(cfg), opts...)
	if err != nil {
		return r, fmt.Errorf("raft fixed under %s: %w", st, err)
	}
	run := explore.ResultOf(res)
	r.Iterations, r.Failures, r.Violations = res.Iterations, run.Failures, run.Hits
	r.Steps, r.Ops, r.Elapsed, r.Failure = res.Steps, stats.Ops.Load(), res.Elapsed, res.Failure
	return r, nil
}
