package raftbench

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/morpheus-go/morpheus/bench/internal/hitratio"
	"github.com/morpheus-go/morpheus/internal/plural"
)

// WriteTables prints the bug table with its first hits, then the correct
// harness's failures and throughput.
func WriteTables(w io.Writer, r *Report) {
	if m := r.Matrix; m != nil && len(m.Cases) > 0 {
		fmt.Fprintf(w, "etcd raft, %d nodes: hit ratios (safety violations / iterations), %s per bug and strategy, seed %d; — = no hit.\n\n",
			r.Nodes, plural.N(r.Trials, "iteration"), r.Seed)
		style := hitratio.Style{Zero: "—", Sci: true}
		m.Table([]string{"bug"}, nil, func(c hitratio.Cell) string { return style.Format(c.Ratio()) }).Write(w)
		fmt.Fprintf(w, "\nFirst hit: wall-clock seconds from the start of the run (all workers) / lowest hitting iteration\n")
		fmt.Fprintf(w, "(* when a lower iteration failed otherwise, such as a livelock at the step limit).\n\n")
		m.Table([]string{"bug"}, nil, func(c hitratio.Cell) string {
			switch {
			case c.FirstHit >= 0 && c.FirstHitIteration >= 0:
				return fmt.Sprintf("%.2f s / #%d", c.FirstHit.Seconds(), c.FirstHitIteration)
			case c.FirstHit >= 0:
				return fmt.Sprintf("%.2f s / *", c.FirstHit.Seconds())
			}
			return "—"
		}).Write(w)
		if len(r.Fixed) > 0 {
			fmt.Fprintln(w)
		}
	}
	if len(r.Fixed) == 0 {
		return
	}
	fmt.Fprintf(w, "Correct harness, %d nodes, seed %d: failures must be 0.\n\n", r.Nodes, r.Seed)
	t := &hitratio.Table{Header: []string{"strategy", "iterations", "failures", "violations", "seconds", "iterations/s", "client ops/s", "steps/s"}}
	row := func(f FixedRun) {
		t.Add(f.Strategy, fmt.Sprint(f.Iterations), fmt.Sprint(f.Failures), fmt.Sprint(f.Violations),
			fmt.Sprintf("%.1f", f.Elapsed.Seconds()), fmt.Sprintf("%.0f", perSecond(int64(f.Iterations), f.Elapsed)),
			fmt.Sprintf("%.0f", perSecond(f.Ops, f.Elapsed)), fmt.Sprintf("%.0f", perSecond(f.Steps, f.Elapsed)))
	}
	tot := FixedRun{Strategy: "total"}
	for _, f := range r.Fixed {
		row(f)
		tot.Iterations += f.Iterations
		tot.Failures += f.Failures
		tot.Violations += f.Violations
		tot.Steps += f.Steps
		tot.Ops += f.Ops
		tot.Elapsed += f.Elapsed
	}
	row(tot)
	t.Write(w)
}

func perSecond(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

type fixedJSON struct {
	Strategy         string  `json:"strategy"`
	Iterations       int     `json:"iterations"`
	Failures         int     `json:"failures"`
	Violations       int     `json:"violations"`
	Seconds          float64 `json:"seconds"`
	IterationsPerSec float64 `json:"iterations_per_second"`
	ClientOpsPerSec  float64 `json:"client_ops_per_second"`
	StepsPerSec      float64 `json:"steps_per_second"`
}

// WriteJSON prints one JSON object: the settings, per bug the hit ratio and
// first hit (seconds and iteration) of every strategy, and per strategy the
// correct harness's failures and throughput.
func WriteJSON(w io.Writer, r *Report) error {
	out := struct {
		Trials int                 `json:"trials"`
		Seed   uint64              `json:"seed"`
		Nodes  int                 `json:"nodes"`
		Bugs   []hitratio.CaseJSON `json:"bugs"`
		Fixed  []fixedJSON         `json:"fixed"`
	}{Trials: r.Trials, Seed: r.Seed, Nodes: r.Nodes, Bugs: []hitratio.CaseJSON{}, Fixed: []fixedJSON{}}
	if r.Matrix != nil {
		out.Bugs = r.Matrix.JSONCases(hitratio.FirstHitSeconds | hitratio.FirstHitIteration)
	}
	for _, f := range r.Fixed {
		out.Fixed = append(out.Fixed, fixedJSON{Strategy: f.Strategy, Iterations: f.Iterations, Failures: f.Failures,
			Violations: f.Violations, Seconds: f.Elapsed.Seconds(), IterationsPerSec: perSecond(int64(f.Iterations), f.Elapsed),
			ClientOpsPerSec: perSecond(f.Ops, f.Elapsed), StepsPerSec: perSecond(f.Steps, f.Elapsed)})
	}
	return json.NewEncoder(w).Encode(out)
}
