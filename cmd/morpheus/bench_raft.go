package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/internal/systems/raft"
	"github.com/morpheus-go/morpheus/strategy"
)

func init() {
	registerBench(&command{
		name:    "raft",
		summary: "etcd raft under morpheus: hit ratios of the raft user bugs, and a long run of the correct harness",
		run:     runBenchRaft,
	})
}

// raftStrategies are the columns of the bug table.
var raftStrategies = []string{"random", "pct:5", "pos", "pos+ca", "pos*", "pos*+ca"}

// raftBugRun is one bug under one strategy.
type raftBugRun struct {
	hits, failures, iterations int
	firstIter                  int           // lowest hitting iteration; -1 if none, or if a lower iteration failed otherwise
	first                      time.Duration // wall clock to the first hit, -1 if none
	elapsed                    time.Duration
}

// raftFixedRun is the correct harness under one strategy.
type raftFixedRun struct {
	strategy             string
	iterations, failures int
	violations           int
	steps, ops           int64
	elapsed              time.Duration
	failure              *morpheus.Failure
}

func runBenchRaft(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench raft", "bench raft [-trials N] [-iterations N] [-json] [-bugs a,b] [-nodes 3|5] [-strategies S,S] [-seed S] [-workers W]", stderr)
	trials := fs.Int("trials", 1000, "iterations per bug and strategy (0: skip the bug table)")
	iterations := fs.Int("iterations", 6000, "iterations of the correct harness, split evenly across the strategies (0: skip)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the tables")
	bugList := fs.String("bugs", "", "comma-separated bugs (default: "+raftBugNames()+"; also accepts "+string(raft.LeaderReads)+")")
	nodes := fs.Int("nodes", 3, "raft cluster size, 3 or 5")
	strats := fs.String("strategies", strings.Join(raftStrategies, ","), "comma-separated strategies")
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
	base := raft.Config{Nodes: *nodes}
	opts := func(name, st string, n int) []morpheus.Option {
		o := []morpheus.Option{morpheus.Name(name), morpheus.Strategy(st), morpheus.Seed(*seed), morpheus.Iterations(n)}
		if *workers > 0 {
			o = append(o, morpheus.Workers(*workers))
		}
		return o
	}

	var runs [][]raftBugRun
	if *trials > 0 {
		for _, b := range bugs {
			row := make([]raftBugRun, len(strategies))
			for j, st := range strategies {
				r, err := runRaftBug(base.With(b), st, opts("raft/"+string(b), st, *trials))
				if err != nil {
					return err
				}
				row[j] = r
				fmt.Fprintf(stderr, "bench raft: %-20s %-8s hits %5d  failures %5d  of %d  %v\n",
					b, st, r.hits, r.failures, r.iterations, r.elapsed.Round(time.Millisecond))
			}
			runs = append(runs, row)
		}
	} else {
		bugs = nil
	}

	var fixed []raftFixedRun
	if *iterations > 0 {
		for j, st := range strategies {
			n := *iterations / len(strategies)
			if j < *iterations%len(strategies) {
				n++
			}
			if n == 0 {
				continue
			}
			r, err := runRaftFixed(base, st, opts("raft/fixed", st, n))
			if err != nil {
				return err
			}
			fixed = append(fixed, r)
			fmt.Fprintf(stderr, "bench raft: %-20s %-8s failures %5d  of %d  %v\n",
				"fixed", st, r.failures, r.iterations, r.elapsed.Round(time.Millisecond))
		}
	}

	var err error
	if *asJSON {
		err = writeRaftJSON(stdout, *trials, *seed, *nodes, bugs, strategies, runs, fixed)
	} else {
		writeRaftTables(stdout, *trials, *seed, *nodes, bugs, strategies, runs, fixed)
	}
	if err != nil {
		return err
	}
	failed := 0
	for _, r := range fixed {
		if r.failure != nil {
			failed += r.failures
			fmt.Fprintf(stderr, "\nthe correct harness failed under %s:\n%s", r.strategy, r.failure.Report(false, ""))
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

// runRaftBug counts the iterations in which the buggy harness violates a
// safety property.
func runRaftBug(cfg raft.Config, st string, opts []morpheus.Option) (raftBugRun, error) {
	r := raftBugRun{first: -1, firstIter: -1}
	start := time.Now()
	opts = append(opts, morpheus.CountHits(func(kind, msg string) bool {
		// Called once per failing iteration, under the explorer's lock.
		h := raft.IsViolation(kind, msg)
		if h && r.first < 0 {
			r.first = time.Since(start)
		}
		return h
	}))
	res, err := morpheus.Explore(raft.Test(cfg), opts...)
	if err != nil {
		return r, fmt.Errorf("raft %s under %s: %w", cfg, st, err)
	}
	r.hits, r.failures, r.iterations, r.elapsed = res.Hits, res.Failures, res.Iterations, res.Elapsed
	if f := res.Failure; f != nil && raft.IsViolation(f.Kind, f.Message) {
		r.firstIter = f.Iteration
	}
	return r, nil
}

// runRaftFixed runs the correct harness, counting every failure.
func runRaftFixed(cfg raft.Config, st string, opts []morpheus.Option) (raftFixedRun, error) {
	stats := &raft.Stats{}
	cfg.Stats = stats
	r := raftFixedRun{strategy: st}
	opts = append(opts, morpheus.CountHits(func(kind, msg string) bool { return raft.IsViolation(kind, msg) }))
	res, err := morpheus.Explore(raft.Test(cfg), opts...)
	if err != nil {
		return r, fmt.Errorf("raft fixed under %s: %w", st, err)
	}
	r.iterations, r.failures, r.violations = res.Iterations, res.Failures, res.Hits
	r.steps, r.ops, r.elapsed, r.failure = res.Steps, stats.Ops.Load(), res.Elapsed, res.Failure
	return r, nil
}

func perSecond(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

func writeRaftTables(w io.Writer, trials int, seed uint64, nodes int, bugs []raft.Bug, strategies []string, runs [][]raftBugRun, fixed []raftFixedRun) {
	if len(bugs) > 0 {
		fmt.Fprintf(w, "etcd raft, %d nodes: hit ratios (safety violations / iterations), %s per bug and strategy, seed %d; — = no hit.\n\n", nodes, plural.N(trials, "iteration"), seed)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "bug\t%s\t\n", strings.Join(strategies, "\t"))
		for i, b := range bugs {
			fmt.Fprintf(tw, "%s\t", b)
			for j := range strategies {
				if r := runs[i][j]; r.hits > 0 {
					fmt.Fprintf(tw, "%s\t", fmtRatio(float64(r.hits)/float64(max(r.iterations, 1))))
				} else {
					fmt.Fprint(tw, "—\t")
				}
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
		fmt.Fprintf(w, "\nFirst hit: wall-clock seconds from the start of the run (all workers) / lowest hitting iteration\n")
		fmt.Fprintf(w, "(* when a lower iteration failed otherwise, such as a livelock at the step limit).\n\n")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "bug\t%s\t\n", strings.Join(strategies, "\t"))
		for i, b := range bugs {
			fmt.Fprintf(tw, "%s\t", b)
			for j := range strategies {
				if r := runs[i][j]; r.first >= 0 && r.firstIter >= 0 {
					fmt.Fprintf(tw, "%.2f s / #%d\t", r.first.Seconds(), r.firstIter)
				} else if r.first >= 0 {
					fmt.Fprintf(tw, "%.2f s / *\t", r.first.Seconds())
				} else {
					fmt.Fprint(tw, "—\t")
				}
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}
	if len(fixed) == 0 {
		return
	}
	if len(bugs) > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Correct harness, %d nodes, seed %d: failures must be 0.\n\n", nodes, seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "strategy\titerations\tfailures\tviolations\tseconds\titerations/s\tclient ops/s\tsteps/s\t\n")
	var tot raftFixedRun
	for _, r := range fixed {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.1f\t%.0f\t%.0f\t%.0f\t\n", r.strategy, r.iterations, r.failures, r.violations,
			r.elapsed.Seconds(), perSecond(int64(r.iterations), r.elapsed), perSecond(r.ops, r.elapsed), perSecond(r.steps, r.elapsed))
		tot.iterations += r.iterations
		tot.failures += r.failures
		tot.violations += r.violations
		tot.steps += r.steps
		tot.ops += r.ops
		tot.elapsed += r.elapsed
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t%d\t%.1f\t%.0f\t%.0f\t%.0f\t\n", tot.iterations, tot.failures, tot.violations,
		tot.elapsed.Seconds(), perSecond(int64(tot.iterations), tot.elapsed), perSecond(tot.ops, tot.elapsed), perSecond(tot.steps, tot.elapsed))
	tw.Flush()
}

type raftBugJSON struct {
	Name              string              `json:"name"`
	HitRatio          map[string]float64  `json:"hit_ratio"`
	FirstHitSeconds   map[string]*float64 `json:"first_hit_seconds"`   // null: no hit
	FirstHitIteration map[string]*int     `json:"first_hit_iteration"` // null: no hit
}

type raftFixedJSON struct {
	Strategy         string  `json:"strategy"`
	Iterations       int     `json:"iterations"`
	Failures         int     `json:"failures"`
	Violations       int     `json:"violations"`
	Seconds          float64 `json:"seconds"`
	IterationsPerSec float64 `json:"iterations_per_second"`
	ClientOpsPerSec  float64 `json:"client_ops_per_second"`
	StepsPerSec      float64 `json:"steps_per_second"`
}

func writeRaftJSON(w io.Writer, trials int, seed uint64, nodes int, bugs []raft.Bug, strategies []string, runs [][]raftBugRun, fixed []raftFixedRun) error {
	out := struct {
		Trials int             `json:"trials"`
		Seed   uint64          `json:"seed"`
		Nodes  int             `json:"nodes"`
		Bugs   []raftBugJSON   `json:"bugs"`
		Fixed  []raftFixedJSON `json:"fixed"`
	}{Trials: trials, Seed: seed, Nodes: nodes, Bugs: []raftBugJSON{}, Fixed: []raftFixedJSON{}}
	for i, b := range bugs {
		c := raftBugJSON{Name: string(b), HitRatio: map[string]float64{}, FirstHitSeconds: map[string]*float64{}, FirstHitIteration: map[string]*int{}}
		for j, s := range strategies {
			r := runs[i][j]
			c.HitRatio[s] = float64(r.hits) / float64(max(r.iterations, 1))
			c.FirstHitSeconds[s], c.FirstHitIteration[s] = nil, nil
			if r.first >= 0 {
				v := r.first.Seconds()
				c.FirstHitSeconds[s] = &v
			}
			if r.firstIter >= 0 {
				v := r.firstIter
				c.FirstHitIteration[s] = &v
			}
		}
		out.Bugs = append(out.Bugs, c)
	}
	for _, r := range fixed {
		out.Fixed = append(out.Fixed, raftFixedJSON{Strategy: r.strategy, Iterations: r.iterations, Failures: r.failures,
			Violations: r.violations, Seconds: r.elapsed.Seconds(), IterationsPerSec: perSecond(int64(r.iterations), r.elapsed),
			ClientOpsPerSec: perSecond(r.ops, r.elapsed), StepsPerSec: perSecond(r.steps, r.elapsed)})
	}
	return json.NewEncoder(w).Encode(out)
}
