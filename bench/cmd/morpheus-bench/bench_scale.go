package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/morpheus-go/morpheus/bench/internal/perf"
	"github.com/morpheus-go/morpheus/internal/plural"
)

func init() {
	registerBench(&command{
		name:    "scale",
		summary: "cost per step as iterations grow: tasks x steps per iteration, per strategy",
		run:     runBenchScale,
	})
}

func runBenchScale(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench scale", "bench scale [-workloads list] [-strategies list] [-tasks list] [-steps list] [-budget N] [-count N] [-json]", stderr)
	workloads := fs.String("workloads", "actors,goroutines", "workloads: actors (a ring of processes passing 4 tokens), goroutines (the same with goroutines, channels and plain memory, race detector on), timers (processes waiting with a time-out beside a ping-pong)")
	strategies := fs.String("strategies", "random,pos*,pos+ca", "strategies, comma-separated")
	tasks := fs.String("tasks", "10,100,1000,10000", "tasks per iteration, comma-separated")
	steps := fs.String("steps", "100,1000,10000,100000,1000000", "steps per iteration, comma-separated")
	budget := fs.Int("budget", 1_000_000, "steps each cell runs in all (at least one iteration)")
	count := fs.Int("count", 3, "runs of each cell; the median (by CPU time per step) is reported")
	asJSON := fs.Bool("json", false, "print the cells as JSON, one object per line")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg := perf.ScaleConfig{Workloads: list(*workloads), Strategies: list(*strategies), Budget: *budget, Count: *count}
	var err error
	if cfg.Tasks, err = ints(*tasks); err == nil {
		cfg.Steps, err = ints(*steps)
	}
	if err != nil || *budget <= 0 || *count <= 0 {
		fmt.Fprintln(stderr, "morpheus bench scale: -tasks and -steps are lists of positive numbers, -budget and -count positive")
		return errUsage
	}
	enc := json.NewEncoder(stdout)
	cells, err := perf.Scale(cfg, func(c perf.ScaleCell) {
		switch {
		case *asJSON:
			_ = enc.Encode(c)
		case c.Skipped:
			fmt.Fprintf(stderr, "%s %s %s %s: skipped (fewer steps than the tasks need)\n", c.Workload, c.Strategy, plural.N(c.Tasks, "task"), plural.N(c.Steps, "step"))
		default:
			fmt.Fprintf(stderr, "%s %s %s %s: %.0f ns/step (CPU %.0f)\n", c.Workload, c.Strategy, plural.N(c.Tasks, "task"), plural.N(c.Steps, "step"), c.NsPerStep, c.CPUNsPerStep)
		}
	})
	if err != nil || *asJSON {
		return err
	}
	writeScaleTables(stdout, cfg, cells)
	return nil
}

// writeScaleTables prints, per workload and strategy, CPU and wall ns per
// step: a row per number of tasks, a column per steps per iteration.
func writeScaleTables(w io.Writer, cfg perf.ScaleConfig, cells []perf.ScaleCell) {
	fmt.Fprintf(w, "ns per step, CPU / wall (median of %s by CPU; %s per cell; — = fewer steps than the tasks need)\n", plural.N(cfg.Count, "run"), plural.N(cfg.Budget, "step"))
	at := map[[4]string]perf.ScaleCell{}
	for _, c := range cells {
		at[[4]string{c.Workload, c.Strategy, strconv.Itoa(c.Tasks), strconv.Itoa(c.Steps)}] = c
	}
	for _, wl := range cfg.Workloads {
		for _, s := range cfg.Strategies {
			fmt.Fprintf(w, "\n%s, %s\n%10s", wl, s, "tasks")
			for _, n := range cfg.Steps {
				fmt.Fprintf(w, " %15s", strconv.Itoa(n)+" steps")
			}
			fmt.Fprintln(w)
			for _, n := range cfg.Tasks {
				fmt.Fprintf(w, "%10d", n)
				for _, st := range cfg.Steps {
					c, ok := at[[4]string{wl, s, strconv.Itoa(n), strconv.Itoa(st)}]
					switch {
					case !ok || c.Skipped:
						fmt.Fprintf(w, " %15s", "—")
					default:
						fmt.Fprintf(w, " %15s", fmt.Sprintf("%.0f / %.0f", c.CPUNsPerStep, c.NsPerStep))
					}
				}
				fmt.Fprintln(w)
			}
		}
	}
}

func list(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func ints(s string) ([]int, error) {
	var out []int
	for _, f := range list(s) {
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not a positive number", f)
		}
		out = append(out, n)
	}
	return out, nil
}
