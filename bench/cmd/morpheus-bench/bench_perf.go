package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/morpheus-go/morpheus/bench/internal/perf"
)

func init() {
	registerBench(&command{
		name:    "perf",
		summary: "speed of the controlled runtime: round trips, iterations/s, memory",
		run:     runBenchPerf,
	})
}

func runBenchPerf(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench perf", "bench perf [-roundtrips N] [-iterations N] [-json]", stderr)
	roundtrips := fs.Int("roundtrips", 1_000_000, "message round trips between two actors")
	iterations := fs.Int("iterations", 200_000, "iterations of each small test (3 processes, ~30 ops; 3 goroutines, ~50 ops)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *roundtrips <= 0 || *iterations <= 0 {
		fmt.Fprintln(stderr, "morpheus bench perf: -roundtrips and -iterations must be positive")
		return errUsage
	}
	r, err := perf.Run(*roundtrips, *iterations)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		return enc.Encode(r)
	}
	fmt.Fprintf(stdout, "round trips           %d\n", r.Roundtrips)
	fmt.Fprintf(stdout, "controlled            %.3f s (%.0f ns per round trip)\n", r.ControlledSeconds, r.ControlledSeconds*1e9/float64(r.Roundtrips))
	fmt.Fprintf(stdout, "plain goroutines      %.3f s (%.0f ns per round trip)\n", r.UncontrolledSeconds, r.UncontrolledSeconds*1e9/float64(r.Roundtrips))
	fmt.Fprintf(stdout, "ratio                 %.2f\n", r.Ratio)
	fmt.Fprintf(stdout, "csync channels        %.3f s (%.0f ns per round trip, %.2f× actors)\n", r.ChanRoundtrips, r.ChanRoundtrips*1e9/float64(r.Roundtrips), r.ChanRatio)
	fmt.Fprintf(stdout, "peak RSS              %.0f MiB\n", r.PeakRSSMB)
	fmt.Fprintf(stdout, "small test            %.0f iterations/s on %d workers (%.1f steps each)\n", r.IterationsPerSecond, r.Workers, r.StepsPerIteration)
	fmt.Fprintf(stdout, "small test, Go        %.0f iterations/s on %d workers (%.1f steps each)\n", r.GoIterationsPerSecond, r.Workers, r.GoSteps)
	return nil
}
