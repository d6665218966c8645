package main

import (
	"fmt"
	"io"
	"sort"
)

// benchmarks is the table of "morpheus bench" suites; files add theirs from
// init functions with registerBench.
var benchmarks = map[string]*command{}

func registerBench(c *command) { benchmarks[c.name] = c }

func init() {
	register(&command{
		name:    "bench",
		summary: "run a benchmark suite (perf, micro, ...)",
		run:     runBench,
	})
}

func runBench(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		w := stderr
		if len(args) > 0 {
			w = stdout
		}
		fmt.Fprintln(w, "Usage: morpheus bench <suite> [flags]\n\n"+
			"The suites are the bench module of morpheus's source (bench/, a module of its own): morpheus bench\n"+
			"builds its command, bench/cmd/morpheus-bench, from the clone morpheus was built from (or $MORPHEUS_SRC;\n"+
			"$MORPHEUS_BENCH names a built one) and runs it here; from a clone, go -C bench run ./cmd/morpheus-bench\n"+
			"does the same.\n\nSuites:")
		names := make([]string, 0, len(benchmarks))
		for n := range benchmarks {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(w, "\t%-8s %s\n", n, benchmarks[n].summary)
		}
		if len(args) == 0 {
			return errUsage
		}
		return nil
	}
	b, ok := benchmarks[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "morpheus bench: unknown suite %q\n", args[0])
		return errUsage
	}
	return b.run(args[1:], stdout, stderr)
}
