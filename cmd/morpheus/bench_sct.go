package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/morpheus-go/morpheus/internal/sct"
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
	plain := fs.Bool("plain", false, "also run the suite written as plain Go (internal/sct/testdata/plain) through the rewriter, beside the csync version")
	cache := fs.String("cache", "", "with -plain: the rewrite driver's cache `dir` (default its own)")
	plainDir := fs.String("plaindir", "", "with -plain: the plain suite's module `dir` (default internal/sct/testdata/plain of morpheus's source)")
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
		err = writeSCTJSON(stdout, r)
	} else {
		writeSCTTable(stdout, r)
	}
	fmt.Fprintf(stderr, "bench sct: %v\n", time.Since(start).Round(time.Millisecond))
	if err == nil && r.Fixed {
		for i := range r.Results {
			res := &r.Results[i]
			for _, s := range r.Strategies {
				if f := res.First[s]; f != nil || res.Hits[s] > 0 {
					if f != nil {
						fmt.Fprintf(stderr, "%s with %s: %v\n", res.Case.Name, s, f)
					}
					err = fmt.Errorf("a fixed variant failed: %s with %s, %d of %d iterations", res.Case.Name, s, res.Hits[s], r.Trials)
				}
			}
		}
	}
	return err
}

// sctRatio formats a hit ratio as the thesis does, 0 as "0".
func sctRatio(v float64) string {
	if v == 0 {
		return "0"
	}
	return fmt.Sprintf("%.4f", v)
}

func writeSCTTable(w io.Writer, r *sct.Report) {
	variant := "buggy variants: hit = the case's intended failure"
	if r.Fixed {
		variant = "fixed variants: hit = any failure (all must be 0)"
	}
	fmt.Fprintf(w, "Bug hit ratios, %d trials per case and strategy; %s.\n", r.Trials, variant)
	fmt.Fprintf(w, "Geo-mean counts a case never hit as 1/%d. [threads/steps] as in the thesis.\n\n", r.Trials)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "case\tsize\t%s\t\n", strings.Join(r.Strategies, "\t"))
	for i := range r.Results {
		res := &r.Results[i]
		size := fmt.Sprintf("[%d/%d]", res.Case.Threads, res.Case.Steps)
		if res.Case.Steps == 0 {
			size = fmt.Sprintf("[%d/-]", res.Case.Threads)
		}
		fmt.Fprintf(tw, "%s\t%s\t", res.Case.Name, size)
		for _, s := range r.Strategies {
			fmt.Fprintf(tw, "%s\t", sctRatio(r.Ratio(res, s)))
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprint(tw, "geo-mean\t\t")
	for _, s := range r.Strategies {
		fmt.Fprintf(tw, "%.4f\t", r.Geomean(s))
	}
	fmt.Fprintln(tw)
	tw.Flush()
	if r.Fixed {
		return
	}
	for _, pos := range []string{"pos*", "pos*+ca"} {
		if !hasStrategy(r, pos) {
			continue
		}
		suffix := strings.TrimPrefix(pos, "pos*") // "" or "+ca": compare like with like
		best, bestName := 0.0, ""
		for _, s := range r.Strategies {
			if strings.HasPrefix(s, "pct:") && strings.HasSuffix(s, "+ca") == (suffix == "+ca") {
				if g := r.Geomean(s); g > best {
					best, bestName = g, s
				}
			}
		}
		g := r.Geomean(pos)
		fmt.Fprintf(w, "\n%s geo-mean %.4f:", pos, g)
		if bestName != "" {
			fmt.Fprintf(w, "  %.2f× best pct (%s)", g/best, bestName)
		}
		if rw := "random" + suffix; hasStrategy(r, rw) {
			fmt.Fprintf(w, "  %.2f× %s", g/r.Geomean(rw), rw)
		}
		missed := 0
		for i := range r.Results {
			if r.Results[i].Hits[pos] == 0 {
				missed++
			}
		}
		fmt.Fprintf(w, "  cases missed: %d", missed)
	}
	fmt.Fprintln(w, "\n(thesis Table 3.3, 32 cases: pos* 0.1795 = 2.6× best pct 0.0694, 4.7× random 0.0380)")
	writeSCTPaper(w, r)
}

func hasStrategy(r *sct.Report, s string) bool {
	for _, x := range r.Strategies {
		if x == s {
			return true
		}
	}
	return false
}

type sctJSON struct {
	Trials  int                `json:"trials"`
	Cases   []sctCaseJSON      `json:"cases"`
	Geomean map[string]float64 `json:"geomean"`
}

type sctCaseJSON struct {
	Name     string             `json:"name"`
	HitRatio map[string]float64 `json:"hit_ratio"`
}

func writeSCTJSON(w io.Writer, r *sct.Report) error {
	out := sctJSON{Trials: r.Trials, Cases: []sctCaseJSON{}, Geomean: map[string]float64{}}
	for _, s := range r.Strategies {
		out.Geomean[s] = r.Geomean(s)
	}
	for i := range r.Results {
		res := &r.Results[i]
		c := sctCaseJSON{Name: res.Case.Name, HitRatio: map[string]float64{}}
		for _, s := range r.Strategies {
			c.HitRatio[s] = r.Ratio(res, s)
		}
		out.Cases = append(out.Cases, c)
	}
	return json.NewEncoder(w).Encode(out)
}
