package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/internal/ordering/runner"
	"github.com/morpheus-go/morpheus/internal/ordering/store"
	"github.com/morpheus-go/morpheus/internal/plural"
)

func init() {
	registerBench(&command{
		name:    "fuzz",
		summary: "throughput of morpheus fuzz on a trivial 2-process system: runs/s per window, memory; -coverage: constraints satisfied per minute on the demo",
		run:     runBenchFuzz,
	})
}

func runBenchFuzz(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench fuzz", "bench fuzz [-runs N] [-jobs J] [-window W] [-mode M] [-- COMMAND ARGS...]", stderr)
	runs := fs.Int("runs", 50000, "runs")
	jobs := fs.Int("jobs", 2*runtime.NumCPU(), "runs at once")
	window := fs.Int("window", 5000, "report the rate of every this many runs")
	mode := fs.String("mode", runner.ModeBaseline, "server, baseline or random (a server campaign ends when its planner is done, after a few runs here)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the runner here")
	cover := fs.Bool("coverage", false, "instead of throughput: campaigns of \"morpheus fuzz\" on fuzzdemo's coordinator and 3 workers (or the command), -runs 400 unless given; constraints satisfied per minute, pairs, the bug")
	repeat := fs.Int("repeat", 3, "with -coverage: campaigns per binary (medians of them)")
	before := fs.String("before", "", "with -coverage: another morpheus binary (an earlier build) whose fuzz command runs the same campaigns, side by side")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: morpheus bench fuzz [flags] [-- COMMAND ARGS...]\n\n"+
			"Without a command, builds examples/fuzzdemo (go build, CGO_ENABLED=0) once and runs \"fuzzdemo pair\":\n"+
			"two Go processes hitting two tracepoints each; with -coverage, \"fuzzdemo\" itself.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *cover {
		set := false
		fs.Visit(func(f *flag.Flag) { set = set || f.Name == "runs" })
		if !set {
			*runs = 400
		}
	}
	if *runs <= 0 || *jobs <= 0 || *window <= 0 || *repeat <= 0 {
		fmt.Fprintln(stderr, "morpheus bench fuzz: -runs, -jobs, -window and -repeat must be positive")
		return errUsage
	}
	tmp, err := os.MkdirTemp("", "morpheus-bench-fuzz-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	command := fs.Args()
	if len(command) == 0 {
		bin := filepath.Join(tmp, "fuzzdemo")
		build := exec.Command("go", "build", "-o", bin, "github.com/morpheus-go/morpheus/examples/fuzzdemo")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		build.Stderr = stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("building examples/fuzzdemo (run from the module, or give a command): %w", err)
		}
		command = []string{bin, "pair"}
		if *cover {
			command = []string{bin}
		}
	}
	if *cover {
		self, err := morpheusExecutable()
		if err != nil {
			return err
		}
		bins, names := []string{self}, []string{"this"}
		if *before != "" {
			bins, names = []string{*before, self}, []string{"before", "after"}
		}
		return benchFuzzCoverage(stdout, stderr, bins, names, *runs, *jobs, *repeat, command, tmp)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	var marks []time.Time
	start := time.Now()
	meta := store.Meta{Mode: *mode, Constraints: 1, Timeout: 100 * time.Millisecond, Limit: 10 * time.Second, Seed: 1, Rounds: 3, SkipInfeasible: true, Command: command}
	st, err := runner.Run(runner.Config{Meta: meta, Out: filepath.Join(tmp, "campaign"), Runs: *runs, Jobs: *jobs,
		Progress: func(n int) {
			if n%*window == 0 {
				marks = append(marks, time.Now())
			}
		}})
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	ru, rc := resourceUsage()
	cpu := func(r rusage) float64 {
		return float64(r.cpu.Nanoseconds()) / 1e6 / float64(st.Counters.Runs)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(stdout, "command     %s (mode %s, %d jobs)\n", strings.Join(command, " "), *mode, *jobs)
	fmt.Fprintf(stdout, "runs        %d in %.1f s: %.0f runs/s; %s, %s, %s\n",
		st.Counters.Runs, elapsed.Seconds(), float64(st.Counters.Runs)/elapsed.Seconds(), plural.N(st.Counters.Errors, "error run"), plural.N(st.Events.Len(), "event"), plural.N(st.Cov.Len(), "unordered pair"))
	var rates []float64
	prev := start
	var b strings.Builder
	for _, m := range marks {
		r := float64(*window) / m.Sub(prev).Seconds()
		rates = append(rates, r)
		fmt.Fprintf(&b, " %.0f", r)
		prev = m
	}
	fmt.Fprintf(stdout, "per %d     %s runs/s\n", *window, b.String())
	if len(rates) > 0 {
		s := append([]float64(nil), rates...)
		sort.Float64s(s)
		fmt.Fprintf(stdout, "windows     min %.0f, median %.0f, max %.0f runs/s; last/first %.2f\n", s[0], s[len(s)/2], s[len(s)-1], rates[len(rates)-1]/rates[0])
	}
	fmt.Fprintf(stdout, "cpu         %.2f ms per run in the runner, %.2f ms in the system's processes\n", cpu(ru), cpu(rc))
	fmt.Fprintf(stdout, "memory      runner peak RSS %.0f MiB, heap in use at the end %.1f MiB\n", ru.peakMiB, float64(ms.HeapInuse)/(1<<20))
	return nil
}
