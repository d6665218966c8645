// Command pgogen writes the CPU profile the morpheus command is built with
// (profile-guided optimization: cmd/morpheus/default.pgo, which go build
// uses by itself). It runs, in one process and without PGO, the work the
// command spends its time on: the storage demo under the default strategy,
// the bug suite under every strategy of its table, the controlled
// ping-pong and small iterations of bench perf, and a ring of goroutines
// under the data-race detector as rewritten tests run. Regenerate the
// profile after a change to the hot paths:
//
//	go generate ./cmd/morpheus
//
// A profile that has aged only costs some of the gain; the build stays
// correct whatever the profile says.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/bench/internal/bugs"
	"github.com/morpheus-go/morpheus/bench/internal/perf"
	"github.com/morpheus-go/morpheus/internal/systems/storage"
)

func main() {
	out := flag.String("o", "default.pgo", "the profile to write")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "pgogen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return err
	}
	err = work()
	pprof.StopCPUProfile()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// work is the profiled workload, a few tens of seconds on two cores.
func work() error {
	for _, fixed := range []bool{false, true} {
		cfg := storage.Config{FixDuplicates: fixed, FixReset: fixed}
		if _, err := morpheus.Explore(storage.Test(cfg), morpheus.Iterations(100_000), morpheus.Name("demo")); err != nil {
			return err
		}
	}
	if _, err := bugs.Run(bugs.All(), bugs.Config{Trials: 1000, Seed: 1}); err != nil {
		return err
	}
	if _, err := perf.RunPingPong(2_000_000); err != nil {
		return err
	}
	if _, _, err := perf.RunSmall(500_000); err != nil {
		return err
	}
	// Last: it turns the race detector on for the rest of the process.
	_, err := perf.RunScale("goroutines", "pos+ca", 100, 10_000, 2_000_000)
	return err
}
