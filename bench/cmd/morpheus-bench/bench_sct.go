package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/bench/internal/sct"
)

func init() {
	registerBench(&command{
		name:    "sct",
		summary: "bug hit ratios of strategies on SCTBench-style shared-memory programs (thesis Table 3.3)",
		run:     runBenchSCT,
	})
}

func runBenchSCT(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench sct", "bench sct [-trials N] [-json] [-fixed] [-cases a,b] [-strategies s,t] [-seed S] [-workers W] [-plain [-cache DIR]]", stderr)
	trials := fs.Int("trials", 1000, "iterations per case and strategy (the thesis ran 10^4)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the table")
	fixed := fs.Bool("fixed", false, "run the fixed variants, counting every failure: all ratios must be 0")
	cases := fs.String("cases", "", "comma-separated case names (default: all)")
	seed := fs.Uint64("seed", 0, "base seed of the iterations")
	workers := fs.Int("workers", 0, "goroutines (0: GOMAXPROCS), and with -plain test processes at a time; the results do not depend on it")
	strategies := fs.String("strategies", "", "comma-separated strategies (default: the 12 of the suite)")
	plain := fs.Bool("plain", false, "also run the suite written as plain Go (bench/internal/sct/testdata/plain) through the rewriter, beside the csync version")
	cache := fs.String("cache", "", "with -plain: the rewrite driver's cache `dir` (default its own)")
	plainDir := fs.String("plaindir", "", "with -plain: the plain suite's module `dir` (default bench/internal/sct/testdata/plain of morpheus's source)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 || *trials < 1 {
		fmt.Fprintln(stderr, "morpheus bench sct: -trials must be positive and no arguments are taken")
		fs.Usage()
		return errUsage
	}
	var names []string
	if *cases != "" {
		names = strings.Split(*cases, ",")
	}
	var strats []string
	if *strategies != "" {
		strats = strings.Split(*strategies, ",")
	}
	start := time.Now()
	opts := sct.Options{Trials: *trials, Fixed: *fixed, Cases: names, Strategies: strats, Seed: *seed, Workers: *workers}
	if *plain {
		return benchSCTPlain(sctPlainOptions{Options: opts, Cache: *cache, Dir: *plainDir}, *asJSON, start, stdout, stderr)
	}
	r, err := sct.Run(opts)
	if err != nil {
		return err
	}
	if *asJSON {
		err = sct.WriteJSON(stdout, r)
	} else {
		sct.WriteTable(stdout, r)
	}
	fmt.Fprintf(stderr, "bench sct: %v\n", time.Since(start).Round(time.Millisecond))
	if err == nil && r.Fixed {
		for i, name := range r.Matrix.Cases {
			for j, s := range r.Strategies {
				if f, h := r.First(i, j), r.Cells[i][j].Hits; f != nil || h > 0 {
					if f != nil {
						fmt.Fprintf(stderr, "%s with %s: %v\n", name, s, f)
					}
					err = fmt.Errorf("a fixed variant failed: %s with %s, %d of %d iterations", name, s, h, r.Trials)
				}
			}
		}
	}
	return err
}
