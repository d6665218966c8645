package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/bugs"
	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/strategy"
)

func init() {
	registerBench(&command{
		name:    "bugs",
		summary: "hit ratios of strategies on the bug scenarios (Morpheus Table 3)",
		run:     runBenchBugs,
	})
}

// bugStrategies are the columns of the table, as in Morpheus Table 3 (PCT
// with depth 5, as the paper ran it).
var bugStrategies = []string{"random", "random+ca", "pct:5", "pct:5+ca", "pos", "pos+ca", "pos*", "pos*+ca"}

// bugRun is one scenario under one strategy.
type bugRun struct {
	hits, failures, iterations int
	first                      time.Duration // wall clock to the first hit, -1 if none
	elapsed                    time.Duration
	failure                    *morpheus.Failure // the lowest failing iteration's failure
	ca                         *strategy.CAStats // with +ca: what conflict analysis saw
}

func (r bugRun) ratio() float64 { return float64(r.hits) / float64(max(r.iterations, 1)) }

func runBenchBugs(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench bugs", "bench bugs [-trials N] [-json] [-fixed] [-seed S] [-only NAME[,NAME]] [-strategies S[,S]] [-work K] [-background P]", stderr)
	trials := fs.Int("trials", 1000, "iterations per scenario and strategy")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the tables")
	fixed := fs.Bool("fixed", false, "run the fixed variants: any failure is reported and fails the command")
	seed := fs.Uint64("seed", 1, "base seed of every run")
	only := fs.String("only", "", "comma-separated scenarios to run (default: the suite; also accepts "+extraNames()+")")
	strats := fs.String("strategies", strings.Join(bugStrategies, ","), "comma-separated strategies (the table's columns)")
	work := fs.Int("work", 0, "make every process of a scenario do K private updates after each message it handles (see bugs.WithWork)")
	bgPairs := fs.Int("background", 0, "add P pairs of background processes to every scenario (see bugs.WithBackground)")
	bgRounds := fs.Int("background-rounds", 25, "ping-pong rounds of each background pair")
	bgPeriod := fs.Duration("background-period", 100*time.Millisecond, "virtual time between a background pair's rounds")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 || *trials < 1 || *bgPairs < 0 || *bgRounds < 1 || *work < 0 {
		fmt.Fprintln(stderr, "morpheus bench bugs: -trials and -background-rounds must be positive, -work and -background not negative, and no arguments are taken")
		fs.Usage()
		return errUsage
	}
	scenarios := bugs.All()
	if *only != "" {
		scenarios = nil
		for _, name := range strings.Split(*only, ",") {
			s, ok := bugs.Lookup(strings.TrimSpace(name))
			if !ok {
				fmt.Fprintf(stderr, "morpheus bench bugs: unknown scenario %q (known: %s, %s)\n", name, suiteNames(), extraNames())
				return errUsage
			}
			scenarios = append(scenarios, s)
		}
	}
	for i := range scenarios {
		scenarios[i] = bugs.WithBackground(bugs.WithWork(scenarios[i], *work), *bgPairs, *bgRounds, *bgPeriod)
	}
	strategies := strings.Split(*strats, ",")
	for _, st := range strategies {
		if _, err := strategy.Parse(st); err != nil {
			fmt.Fprintf(stderr, "morpheus bench bugs: %v\n", err)
			return errUsage
		}
	}
	runs := make([][]bugRun, len(scenarios))
	for i, sc := range scenarios {
		runs[i] = make([]bugRun, len(strategies))
		for j, st := range strategies {
			r, err := runBug(sc, st, *fixed, *trials, *seed)
			if err != nil {
				return err
			}
			runs[i][j] = r
			fmt.Fprintf(stderr, "bench bugs: %-16s %-10s hits %5d  failures %5d  of %d  %v\n",
				sc.Name, st, r.hits, r.failures, r.iterations, r.elapsed.Round(time.Millisecond))
		}
	}
	if *fixed {
		return reportFixed(stdout, stderr, scenarios, strategies, runs, *trials, *asJSON)
	}
	if *asJSON {
		return writeBugsJSON(stdout, scenarios, strategies, runs, *trials)
	}
	writeBugsTables(stdout, scenarios, strategies, runs, *trials, *seed)
	return nil
}

// runBug runs one scenario under one strategy for trials iterations, counting
// hits and noting when the first one came.
func runBug(sc bugs.Scenario, strat string, fixed bool, trials int, seed uint64) (bugRun, error) {
	r := bugRun{first: -1}
	start := time.Now()
	opts := append([]morpheus.Option{
		morpheus.Name(sc.Name), morpheus.Strategy(strat), morpheus.Seed(seed), morpheus.Iterations(trials),
		morpheus.CountHits(func(kind, msg string) bool {
			// Called once per failing iteration, under the explorer's lock.
			h := sc.Hit(kind, msg)
			if h && r.first < 0 {
				r.first = time.Since(start)
			}
			return h
		}),
	}, sc.Options...)
	res, err := morpheus.Explore(sc.Test(fixed), opts...)
	if err != nil {
		return r, fmt.Errorf("%s under %s: %w", sc.Name, strat, err)
	}
	r.hits, r.failures, r.iterations = res.Hits, res.Failures, res.Iterations
	r.elapsed, r.failure, r.ca = res.Elapsed, res.Failure, res.CA
	return r, nil
}

// geomean is the geometric mean of strategy j's hit ratios over the
// scenarios, counting a zero ratio as 1/trials.
func geomean(runs [][]bugRun, j, trials int) float64 {
	if len(runs) == 0 {
		return 0
	}
	sum := 0.0
	for _, rs := range runs {
		v := rs[j].ratio()
		if v == 0 {
			v = 1 / float64(trials)
		}
		sum += math.Log(v)
	}
	return math.Exp(sum / float64(len(runs)))
}

func writeBugsTables(w io.Writer, scenarios []bugs.Scenario, strategies []string, runs [][]bugRun, trials int, seed uint64) {
	fmt.Fprintf(w, "Hit ratios (hits / iterations), %s per scenario and strategy, seed %d; — = no hit.\n\n", plural.N(trials, "iteration"), seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "scenario\t%s\t\n", strings.Join(strategies, "\t"))
	for i, sc := range scenarios {
		fmt.Fprintf(tw, "%s\t", sc.Name)
		for j := range strategies {
			if r := runs[i][j]; r.hits > 0 {
				fmt.Fprintf(tw, "%s\t", fmtRatio(r.ratio()))
			} else {
				fmt.Fprint(tw, "—\t")
			}
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprint(tw, "geo-mean\t")
	for j := range strategies {
		fmt.Fprintf(tw, "%s\t", fmtRatio(geomean(runs, j, trials)))
	}
	fmt.Fprintln(tw)
	tw.Flush()
	fmt.Fprintf(w, "\nGeo-means count a scenario without hits as 1/%d.\n", trials)

	fmt.Fprintf(w, "\nWall-clock seconds to the first hit, from the start of each run (all cores); — = no hit in %s.\n\n", plural.N(trials, "iteration"))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "scenario\t%s\t\n", strings.Join(strategies, "\t"))
	for i, sc := range scenarios {
		fmt.Fprintf(tw, "%s\t", sc.Name)
		for j := range strategies {
			if r := runs[i][j]; r.first >= 0 {
				fmt.Fprintf(tw, "%.3f\t", r.first.Seconds())
			} else {
				fmt.Fprint(tw, "—\t")
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	writeBugsSizes(w, scenarios, strategies, runs)
	writeBugsPaper(w, scenarios, strategies, runs, trials)

	// The two headline comparisons, when their columns ran: POS with conflict
	// analysis against PCT of depth 5, and what conflict analysis adds to POS.
	col := map[string]int{}
	for j, s := range strategies {
		col[s] = j
	}
	ratio := func(a, b string) (float64, bool) {
		ja, okA := col[a]
		jb, okB := col[b]
		if !okA || !okB {
			return 0, false
		}
		return geomean(runs, ja, trials) / geomean(runs, jb, trials), true
	}
	fmt.Fprintln(w)
	if v, ok := ratio("pos+ca", "pct:5"); ok {
		fmt.Fprintf(w, "pos+ca / pct:5 geo-mean: %.2f×\n", v)
	}
	if v, ok := ratio("pos+ca", "pos"); ok {
		fmt.Fprintf(w, "conflict analysis on pos: %+.0f%%\n", (v-1)*100)
	}
	targets := []string{morpheus.DefaultStrategy}
	if !slices.Contains(targets, "pos+ca") {
		targets = append(targets, "pos+ca")
	}
	for _, s := range targets {
		j, ok := col[s]
		if !ok {
			continue
		}
		found, worst := 0, time.Duration(0)
		for i := range scenarios {
			if r := runs[i][j]; r.hits > 0 {
				found++
				worst = max(worst, r.first)
			}
		}
		fmt.Fprintf(w, "%s: found %d of %d scenarios; slowest first hit %.3f s\n", s, found, len(scenarios), worst.Seconds())
	}
}

// writeBugsSizes prints, per scenario, what conflict analysis saw in an
// iteration under the default strategy, or else the first +ca strategy that ran (Morpheus Table 4's
// columns): ops, ops in a conflict, and their share. Nothing without a +ca
// column.
func writeBugsSizes(w io.Writer, scenarios []bugs.Scenario, strategies []string, runs [][]bugRun) {
	j := slices.Index(strategies, morpheus.DefaultStrategy)
	if j < 0 || !strings.HasSuffix(morpheus.DefaultStrategy, "+ca") {
		j = slices.IndexFunc(strategies, func(s string) bool { return strings.HasSuffix(s, "+ca") })
	}
	if j < 0 {
		return
	}
	fmt.Fprintf(w, "\nConflict analysis under %s (Morpheus Table 4's columns; mean per analysed iteration): ops, ops in a\n"+
		"conflict and their share, false negatives (predicted independent, in a conflict), false positives (left to\n"+
		"the strategy, in no conflict).\n\n", strategies[j])
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "scenario\tops\tconflicting\tshare\tFNs\tFPs\t\n")
	for i, sc := range scenarios {
		st := runs[i][j].ca
		if st == nil || st.Iterations == 0 {
			fmt.Fprintf(tw, "%s\t—\t—\t—\t—\t—\t\n", sc.Name)
			continue
		}
		n := float64(st.Iterations)
		fmt.Fprintf(tw, "%s\t%.1f\t%.1f\t%.1f%%\t%.2f\t%.1f\t\n", sc.Name, float64(st.Ops)/n, float64(st.Conflicts)/n,
			100*float64(st.Conflicts)/float64(max(st.Ops, 1)), float64(st.FalseNegatives)/n, float64(st.FalsePositives)/n)
	}
	tw.Flush()
	fmt.Fprintln(w, "(Morpheus Table 4, {P, PC} signatures: gproc-1 6593.4 ops, 325.6 conflicting, 0.54 FNs, 526.3 FPs;\n"+
		" mnesia-2 10018.8, 628.3, 1.13, 1442.7)")
}

// fmtRatio prints a ratio with four decimals, or in scientific notation
// when that would hide it.
func fmtRatio(v float64) string {
	if v >= 0.001 {
		return fmt.Sprintf("%.4f", v)
	}
	return fmt.Sprintf("%.1e", v)
}

type bugsJSON struct {
	Trials  int                `json:"trials"`
	Cases   []bugCaseJSON      `json:"cases"`
	Geomean map[string]float64 `json:"geomean"`
}

type bugCaseJSON struct {
	Name            string              `json:"name"`
	HitRatio        map[string]float64  `json:"hit_ratio"`
	FirstHitSeconds map[string]*float64 `json:"first_hit_seconds"` // null: no hit
}

func writeBugsJSON(w io.Writer, scenarios []bugs.Scenario, strategies []string, runs [][]bugRun, trials int) error {
	out := bugsJSON{Trials: trials, Cases: []bugCaseJSON{}, Geomean: map[string]float64{}}
	for j, s := range strategies {
		out.Geomean[s] = geomean(runs, j, trials)
	}
	for i, sc := range scenarios {
		c := bugCaseJSON{Name: sc.Name, HitRatio: map[string]float64{}, FirstHitSeconds: map[string]*float64{}}
		for j, s := range strategies {
			r := runs[i][j]
			c.HitRatio[s] = r.ratio()
			c.FirstHitSeconds[s] = nil
			if r.first >= 0 {
				v := r.first.Seconds()
				c.FirstHitSeconds[s] = &v
			}
		}
		out.Cases = append(out.Cases, c)
	}
	return json.NewEncoder(w).Encode(out)
}

// reportFixed prints the failures of the fixed variants; there must be none.
func reportFixed(w, stderr io.Writer, scenarios []bugs.Scenario, strategies []string, runs [][]bugRun, trials int, asJSON bool) error {
	total := 0
	failures := make([]map[string]int, len(scenarios))
	for i := range scenarios {
		failures[i] = map[string]int{}
		for j, s := range strategies {
			failures[i][s] = runs[i][j].failures
			total += runs[i][j].failures
		}
	}
	if asJSON {
		type caseJSON struct {
			Name     string         `json:"name"`
			Failures map[string]int `json:"failures"`
		}
		out := struct {
			Trials   int        `json:"trials"`
			Fixed    bool       `json:"fixed"`
			Cases    []caseJSON `json:"cases"`
			Failures int        `json:"failures"`
		}{Trials: trials, Fixed: true, Failures: total}
		for i, sc := range scenarios {
			out.Cases = append(out.Cases, caseJSON{Name: sc.Name, Failures: failures[i]})
		}
		if err := json.NewEncoder(w).Encode(out); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(w, "Fixed variants: failing iterations of %d per scenario and strategy (all must be 0).\n\n", trials)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "scenario\t%s\t\n", strings.Join(strategies, "\t"))
		for i, sc := range scenarios {
			fmt.Fprintf(tw, "%s\t", sc.Name)
			for _, s := range strategies {
				fmt.Fprintf(tw, "%d\t", failures[i][s])
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}
	if total == 0 {
		if !asJSON {
			fmt.Fprintf(w, "\nno failure: every fixed variant passed.\n")
		}
		return nil
	}
	// The reports go with the table, or to stderr beside the JSON.
	rw := w
	if asJSON {
		rw = stderr
	}
	for i, sc := range scenarios {
		for j, s := range strategies {
			if f := runs[i][j].failure; f != nil {
				fmt.Fprintf(rw, "\n%s under %s:\n%s", sc.Name, s, f.Report(false, ""))
			}
		}
	}
	return fmt.Errorf("%d failing iterations of fixed variants: the scenarios are broken", total)
}

func suiteNames() string {
	var ns []string
	for _, s := range bugs.All() {
		ns = append(ns, s.Name)
	}
	return strings.Join(ns, ", ")
}

func extraNames() string {
	var ns []string
	for _, s := range bugs.Extra() {
		ns = append(ns, s.Name)
	}
	return strings.Join(ns, ", ")
}
