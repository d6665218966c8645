package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/morpheus-go/morpheus/bench/internal/micro"
)

func init() {
	registerBench(&command{
		name:    "micro",
		summary: "partial-order coverage of strategies on random micro programs (thesis Tables 3.1/3.2)",
		run:     runBenchMicro,
	})
}

func runBenchMicro(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench micro", "bench micro [-samples N] [-seed S] [-reads] [-json] [-workers W]", stderr)
	samples := fs.Int("samples", 1000000, "iterations per strategy and program (the thesis ran 5e7)")
	seed := fs.Uint64("seed", 1, "seed of the programs and of every iteration")
	reads := fs.Bool("reads", false, "half of the events read (Table 3.2), and also run pos* blind to read-read independence")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the table")
	workers := fs.Int("workers", 0, "goroutines (0: GOMAXPROCS); the results do not depend on it")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 || *samples < 1 {
		fmt.Fprintln(stderr, "morpheus bench micro: -samples must be positive and no arguments are taken")
		fs.Usage()
		return errUsage
	}
	start := time.Now()
	r, err := micro.Run(micro.Options{Samples: *samples, Seed: *seed, Reads: *reads, Workers: *workers})
	if err != nil {
		return err
	}
	if *asJSON {
		return writeMicroJSON(stdout, r)
	}
	writeMicroTable(stdout, r, *reads, *seed)
	fmt.Fprintf(stderr, "bench micro: %v\n", time.Since(start).Round(time.Millisecond))
	return nil
}

// microCoverage formats a coverage as the thesis does: "0(x)" when only x
// partial orders were hit.
func microCoverage(c micro.Case, name string) string {
	if v := c.Coverage[name]; v > 0 {
		return fmt.Sprintf("%.2e", v)
	}
	return fmt.Sprintf("0(%d)", c.Covered[name])
}

func writeMicroTable(w io.Writer, r *micro.Report, reads bool, seed uint64) {
	kind := "all writes"
	if reads {
		kind = "50% reads"
	}
	fmt.Fprintf(w, "Partial-order coverage: 10 programs of 4 threads × 4 events over 4 objects, %s; %d samples per strategy, seed %d.\n", kind, r.Samples, seed)
	fmt.Fprintf(w, "Coverage = min over partial orders of hits/samples; 0(x) = only x partial orders hit; %s is computed, not sampled.\n\n", micro.RandomExact)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "case\tPOs\tdepth\tconfl\t%s\t\n", strings.Join(r.Strategies, "\t"))
	for _, c := range r.Cases {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t", c.Space.Program.Name, c.Space.POs(), c.Space.MaxDepth, c.Space.MaxConflicts)
		for _, s := range r.Strategies {
			fmt.Fprintf(tw, "%s\t", microCoverage(c, s))
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprint(tw, "geo-mean\t\t\t\t")
	for _, s := range r.Strategies {
		fmt.Fprintf(tw, "%.2e\t", r.Geomean(s))
	}
	fmt.Fprintln(tw)
	tw.Flush()
	if len(r.Cases) > 0 {
		fmt.Fprintf(w, "\npct ran with d = depth+1 and k = %d (the events; start steps are no decision of its). Geo-means count 0(x) as 1/%d.\n",
			len(r.Cases[0].Space.Program.Events), r.Samples)
	}
	pos := r.Geomean("pos*")
	fmt.Fprintf(w, "pos* geo-mean / others:")
	for _, s := range r.Strategies {
		if s != "pos*" {
			fmt.Fprintf(w, "  %s %.1f×", s, pos/r.Geomean(s))
		}
	}
	fmt.Fprintln(w)
}

type microJSON struct {
	Samples int                `json:"samples"`
	Cases   []microCaseJSON    `json:"cases"`
	Geomean map[string]float64 `json:"geomean"`
}

type microCaseJSON struct {
	Name         string             `json:"name"`
	Program      [][3]any           `json:"program"` // [thread, object, "w"|"r"] per event
	POCount      int                `json:"po_count"`
	MaxDepth     int                `json:"max_depth"`
	MaxConflicts int                `json:"max_conflicts"`
	Coverage     map[string]float64 `json:"coverage"`
	Covered      map[string]int     `json:"covered"`
}

func writeMicroJSON(w io.Writer, r *micro.Report) error {
	out := microJSON{Samples: r.Samples, Geomean: map[string]float64{}}
	for _, s := range r.Strategies {
		out.Geomean[s] = r.Geomean(s)
	}
	for _, c := range r.Cases {
		p := c.Space.Program
		jc := microCaseJSON{
			Name: p.Name, POCount: c.Space.POs(), MaxDepth: c.Space.MaxDepth, MaxConflicts: c.Space.MaxConflicts,
			Coverage: c.Coverage, Covered: c.Covered,
		}
		for _, e := range p.Events {
			kind := "w"
			if e.Read {
				kind = "r"
			}
			jc.Program = append(jc.Program, [3]any{e.Thread, e.Obj, kind})
		}
		out.Cases = append(out.Cases, jc)
	}
	enc := json.NewEncoder(w)
	return enc.Encode(out)
}
