package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/cmd/morpheus/internal/ordering/report"
	"github.com/morpheus-go/morpheus/internal/interrupt"
	"github.com/morpheus-go/morpheus/internal/ordering/coverage"
	"github.com/morpheus-go/morpheus/internal/ordering/runner"
	"github.com/morpheus-go/morpheus/internal/ordering/store"
	"github.com/morpheus-go/morpheus/internal/plural"
)

func init() {
	register(&command{
		name:    "fuzz",
		summary: "run a system of real processes many times under the ordering server; pairwise ordering coverage",
		run:     runFuzz,
	})
}

// ruleFlags collects -rule flags.
type ruleFlags []coverage.Rule

func (r *ruleFlags) String() string { return fmt.Sprint(*r) }
func (r *ruleFlags) Set(s string) error {
	rule, err := coverage.ParseRule(s)
	if err != nil {
		return err
	}
	*r = append(*r, rule)
	return nil
}

func runFuzz(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("fuzz", "fuzz [flags] -- COMMAND ARGS...", stderr)
	runs := fs.Int("runs", 1000, "runs of the command (per mode with -compare)")
	jobs := fs.Int("jobs", 2*runtime.NumCPU(), "runs at once (runs mostly wait on their processes)")
	out := fs.String("out", "morpheus-fuzz", "campaign directory (with -compare: one subdirectory per mode)")
	resume := fs.Bool("resume", false, "continue the campaign saved in -out up to -runs runs")
	mode := fs.String("mode", runner.ModeServer, "server (pairwise constraints), baseline (none) or random (POS-style delays)")
	compare := fs.Bool("compare", false, "run the server and the baseline campaigns, the same number of runs each, and compare them")
	constraints := fs.Int("constraints", 1, "pairwise constraints per run in server mode")
	timeout := fs.Duration("timeout", 300*time.Millisecond, "how long a held tracepoint waits for an infeasible constraint")
	limit := fs.Duration("limit", 10*time.Second, "time limit of a run; past it the run's process group is killed and the run counts as hung")
	save := fs.Duration("save", 2*time.Second, "save interval (a crash loses at most this much)")
	seed := fs.Uint64("seed", 1, "seed of random mode's priorities")
	quiet := fs.Duration("quiet", 300*time.Microsecond, "random mode: release the highest-priority held tracepoint after this long without a new one")
	rounds := fs.Int("rounds", 3, "server mode: sweeps over the unobserved pairs before a pair counts as infeasible; 0: no limit")
	skipInfeasible := fs.Bool("skip-infeasible", true, "server mode: pass over the pairs predicted ordered (by the rules, and by earlier time-outs: a held event that starved another for a whole -timeout); false: try every pair in every sweep")
	window := fs.Int("window", 0, "look for transpositions only this many events back (2k for a k-total system); 0: whole trace")
	reportPath := fs.String("report", "", "HTML report file (default: report.html in -out)")
	var rules ruleFlags
	fs.Var(&rules, "rule", "check that event A always passes before event B, as A<B (e.g. coord:start<w1:start); repeatable")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: morpheus fuzz [flags] -- COMMAND ARGS...\n\n"+
			"Runs COMMAND many times; its processes report tracepoints to a private ordering server\n"+
			"named by MORPHEUS_SOCKET (package tracepoint; protocol in docs/tracepoint-protocol.md).\n"+
			"In server mode each run holds one tracepoint until another passes, to show a pair in the order not yet seen;\n"+
			"pairs predicted ordered are skipped (-skip-infeasible), and the campaign ends once no pair is left to try.\n"+
			"A first ^C starts no more runs, lets the running ones finish, saves the campaign (-resume continues it),\n"+
			"prints the summary and writes the report, then exits 130; a second exits at once.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	command := fs.Args()
	if len(command) == 0 && !*resume {
		fmt.Fprintln(stderr, "morpheus fuzz: expected a command after the flags: morpheus fuzz [flags] -- COMMAND ARGS...")
		return errUsage
	}
	if *runs <= 0 || *jobs <= 0 || *constraints <= 0 || *timeout <= 0 || *limit <= 0 || *save <= 0 || *quiet <= 0 || *window < 0 || *rounds < 0 {
		fmt.Fprintln(stderr, "morpheus fuzz: -runs, -jobs, -constraints, -timeout, -limit, -save and -quiet must be positive, -window and -rounds not negative")
		return errUsage
	}
	modes := []string{*mode}
	if *compare {
		modes = []string{runner.ModeServer, runner.ModeBaseline}
	} else if *mode != runner.ModeServer && *mode != runner.ModeBaseline && *mode != runner.ModeRandom {
		fmt.Fprintf(stderr, "morpheus fuzz: -mode %q: expected server, baseline or random\n", *mode)
		return errUsage
	}
	var views []report.Campaign
	title := strings.Join(command, " ")
	failed := 0
	modeRuns := *runs // a server campaign done early sets the baseline's
	for _, m := range modes {
		if interrupt.Interrupted() {
			break // the campaigns not started are not started
		}
		dir := *out
		if *compare {
			dir = filepath.Join(*out, m)
		}
		shown := command
		if *resume {
			if m, err := store.ReadMeta(dir); err == nil {
				shown = m.Command
			}
		}
		meta := store.Meta{Mode: m, Constraints: *constraints, Timeout: *timeout, Limit: *limit, Seed: *seed, Window: *window, Rounds: *rounds,
			SkipInfeasible: *skipInfeasible, Rules: rules, Command: command}
		fmt.Fprintf(stdout, "mode %s: running %s, %s, %d at once...\n", m, strings.Join(shown, " "), plural.N(modeRuns, "run"), *jobs)
		start := time.Now()
		st, err := runner.Run(runner.Config{Meta: meta, Out: dir, Runs: modeRuns, Jobs: *jobs, Save: *save, Resume: *resume, Quiet: *quiet,
			Stop: interrupt.Done()}) // on ^C: finish the running runs, save, report (-resume continues)
		if st == nil || (err != nil && st.Counters.Runs == 0) {
			return err
		}
		elapsed := time.Since(start)
		printCampaign(stdout, m, st, elapsed)
		title = strings.Join(shown, " ")
		if err != nil {
			return err
		}
		failed += st.Counters.Errors
		views = append(views, report.FromState(m, st, elapsed))
		if st.Done {
			modeRuns = st.Counters.Runs
		}
	}
	if *compare && len(views) == 2 {
		s, b := views[0], views[1]
		fmt.Fprintf(stdout, "compare at %s: observed unordered pairs %d with the server, %d baseline (%s); error runs %d with the server, %d baseline\n",
			plural.N(b.Counters.Runs, "run"), s.Pairs, b.Pairs, ratio(s.Pairs, b.Pairs), s.Counters.Errors, b.Counters.Errors)
	}
	path := *reportPath
	if path == "" {
		path = filepath.Join(*out, "report.html")
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := report.Write(f, title, views); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "report: %s\n", path)
	if failed > 0 {
		return fmt.Errorf("%d error runs", failed)
	}
	return nil
}

func ratio(a, b int) string {
	if b == 0 {
		return "baseline 0"
	}
	return fmt.Sprintf("%.2f×", float64(a)/float64(b))
}

// printCampaign prints a campaign's summary.
func printCampaign(w io.Writer, mode string, st *runner.State, elapsed time.Duration) {
	c := st.Counters
	fmt.Fprintf(w, "mode %s: %s in %v (%.0f runs/s this session)\n", mode, plural.N(c.Runs, "run"), elapsed.Round(time.Millisecond), float64(c.Runs-st.Session.Runs)/elapsed.Seconds())
	if st.Done {
		fmt.Fprintf(w, "  planner done: every pair of the first trace observed unordered or predicted ordered, or its sweeps (-rounds) over\n")
	}
	fmt.Fprintf(w, "  events %d, observed unordered pairs %d", st.Events.Len(), st.Cov.Len())
	if st.Cov.Len() > 0 {
		fmt.Fprintf(w, " (last new pair at run %d, %s since)", st.LastNew, plural.N(c.Runs-st.LastNew, "run"))
	}
	fmt.Fprintln(w)
	if c.Constrained > 0 || c.Skipped > 0 {
		fmt.Fprintf(w, "  constraints %d: %d satisfied, %d timed out (infeasible), %d not reached; %d skipped as predicted infeasible\n",
			c.Constrained, c.Satisfied, c.TimedOut, c.NotReached, c.Skipped)
		s := st.Session
		mins := elapsed.Minutes()
		fmt.Fprintf(w, "  per minute this session: %.1f satisfied, %.1f timed out, %.1f skipped\n",
			float64(c.Satisfied-s.Satisfied)/mins, float64(c.TimedOut-s.TimedOut)/mins, float64(c.Skipped-s.Skipped)/mins)
		pairs, bound, byRules := st.Bound()
		fmt.Fprintf(w, "  unordered pairs at most %d of %d (predicted ordered: %d; by the rules alone at most %d)\n", bound, pairs, pairs-bound, byRules)
	}
	if c.Dropped+c.Protocol > 0 {
		fmt.Fprintf(w, "  client trouble: %d hits dropped (client left while held), %d protocol errors\n", c.Dropped, c.Protocol)
	}
	fmt.Fprintf(w, "  error runs %d (hung %d)\n", c.Errors, c.Hung)
	for i, e := range st.Errors {
		if i == 3 {
			fmt.Fprintf(w, "    ... (%d more kept in the report)\n", len(st.Errors)-3)
			break
		}
		how := fmt.Sprintf("exit %d", e.Exit)
		if e.Hung {
			how = "hung"
		}
		fmt.Fprintf(w, "    run %d: %s: %s\n", e.Run.Run, how, lastLine(e.Stderr))
		for _, k := range e.Constraints {
			fmt.Fprintf(w, "      constraint: %s before %s\n", st.Events.Key(k.First), st.Events.Key(k.Then))
		}
		fmt.Fprintf(w, "      trace: %s\n", strings.Join(e.Keys, " "))
	}
	for _, r := range st.Rules {
		if r.Broken == 0 {
			fmt.Fprintf(w, "  rule %s: held in all %s\n", r.Rule, plural.N(r.Checked, "trace"))
			continue
		}
		runs := make([]string, len(r.Runs))
		for i, n := range r.Runs {
			runs[i] = fmt.Sprint(n)
		}
		fmt.Fprintf(w, "  rule %s: broken in %d of %s: %s %s\n", r.Rule, r.Broken, plural.N(r.Checked, "trace"), plural.Of(len(runs), "run"), strings.Join(runs, ", "))
	}
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" {
		return "(no stderr)"
	}
	return s
}
