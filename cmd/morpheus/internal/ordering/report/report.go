// Package report writes the HTML report of "morpheus fuzz" campaigns with
// the project's page machinery (internal/htmlpage): the campaigns' figures
// side by side, the observed unordered pairs over the runs of each campaign
// (the ordering server against the baseline on one chart), the rules and
// their counterexample runs, and the error runs with their stderr and traces.
// Write is deterministic: the same campaigns give the same bytes.
package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/cmd/morpheus/internal/htmlpage"
	"github.com/morpheus-go/morpheus/internal/ordering/coverage"
	"github.com/morpheus-go/morpheus/internal/ordering/runner"
	"github.com/morpheus-go/morpheus/internal/ordering/store"
	"github.com/morpheus-go/morpheus/internal/plural"
)

// ErrorRun is a failed run as the report shows it.
type ErrorRun struct {
	Run         int
	Exit        int
	Hung        bool
	Constraints []string // "FIRST before THEN"
	Stderr      string
	Trace       []string
}

// Campaign is one campaign as the report shows it.
type Campaign struct {
	Mode     string
	Counters store.Counters
	Events   int
	Pairs    int
	LastNew  int
	Elapsed  time.Duration  // of the last session
	Session  store.Counters // Counters when the last session started
	Done     bool           // the planner had nothing left to try
	Growth   []store.GrowthPoint
	Rules    []coverage.RuleCheck
	Errors   []ErrorRun

	// The unordered pairs among the OriginalPairs pairs of the first
	// non-error trace are at most Bound, at most ByRules by the rules
	// alone (runner.State.Bound).
	OriginalPairs, Bound, ByRules int
}

// FromState takes what the report needs from a campaign's final state.
func FromState(mode string, st *runner.State, elapsed time.Duration) Campaign {
	c := Campaign{Mode: mode, Counters: st.Counters, Events: st.Events.Len(), Pairs: st.Cov.Len(), LastNew: st.LastNew,
		Elapsed: elapsed, Session: st.Session, Done: st.Done, Growth: st.Growth, Rules: st.Rules}
	c.OriginalPairs, c.Bound, c.ByRules = st.Bound()
	for _, e := range st.Errors {
		er := ErrorRun{Run: e.Run.Run, Exit: e.Exit, Hung: e.Hung, Stderr: e.Stderr, Trace: e.Keys}
		for _, k := range e.Constraints {
			er.Constraints = append(er.Constraints, st.Events.Key(k.First)+" before "+st.Events.Key(k.Then))
		}
		c.Errors = append(c.Errors, er)
	}
	return c
}

// Write writes the report of campaigns of command.
func Write(w io.Writer, command string, campaigns []Campaign) error {
	p := &htmlpage.Page{
		Title:    "morpheus fuzz: pairwise ordering coverage",
		Subtitle: command,
		Footer:   "Observed unordered pairs: pairs of events seen in both orders in non-error traces (streaming transpositions over the first non-error trace).",
	}
	p.Sections = append(p.Sections, summary(campaigns), growth(campaigns))
	if s, ok := rules(campaigns); ok {
		p.Sections = append(p.Sections, s)
	}
	p.Sections = append(p.Sections, errorRuns(campaigns)...)
	return htmlpage.Write(w, p)
}

func summary(cs []Campaign) htmlpage.Section {
	t := &htmlpage.Table{Columns: []htmlpage.Column{
		{Name: "mode"}, {Name: "runs", Numeric: true}, {Name: "error runs", Numeric: true}, {Name: "hung", Numeric: true},
		{Name: "events", Numeric: true}, {Name: "unordered pairs", Numeric: true}, {Name: "last new pair at run", Numeric: true},
		{Name: "pairs of the first trace", Numeric: true}, {Name: "unordered pairs at most", Numeric: true},
		{Name: "constraints", Numeric: true}, {Name: "satisfied", Numeric: true}, {Name: "timed out", Numeric: true},
		{Name: "skipped (predicted infeasible)", Numeric: true},
		{Name: "runs/s (last session)", Numeric: true}, {Name: "satisfied/min (last session)", Numeric: true},
	}}
	var stats htmlpage.Stats
	for _, c := range cs {
		k := c.Counters
		rate, satisfied := "-", "-"
		if c.Elapsed > 0 {
			rate = fmt.Sprintf("%.0f", float64(k.Runs-c.Session.Runs)/c.Elapsed.Seconds())
			satisfied = fmt.Sprintf("%.1f", float64(k.Satisfied-c.Session.Satisfied)/c.Elapsed.Minutes())
		}
		bound := "-"
		if k.Constrained > 0 {
			bound = itoa(c.Bound)
		}
		row := htmlpage.Row{Cells: []string{c.Mode, itoa(k.Runs), itoa(k.Errors), itoa(k.Hung), itoa(c.Events), itoa(c.Pairs), itoa(c.LastNew),
			itoa(c.OriginalPairs), bound, itoa(k.Constrained), itoa(k.Satisfied), itoa(k.TimedOut), itoa(k.Skipped), rate, satisfied}}
		if k.Errors > 0 {
			row.Class = "bad"
		}
		t.Rows = append(t.Rows, row)
		class := ""
		if k.Errors > 0 {
			class = "bad"
		}
		stats = append(stats, htmlpage.Stat{Label: c.Mode + ": unordered pairs", Value: itoa(c.Pairs)},
			htmlpage.Stat{Label: c.Mode + ": error runs", Value: itoa(k.Errors), Class: class})
	}
	blocks := []htmlpage.Block{stats, t, htmlpage.Paragraph("Unordered pairs at most: the pairs of the first non-error trace less those predicted ordered " +
		"(by the rules not broken, and by time-outs: a held event that starved another for a whole time-out); skipped: pairs the planner passed over " +
		"as predicted infeasible, once per sweep, each a run and a time-out not spent.")}
	for _, c := range cs {
		if c.Done {
			blocks = append(blocks, htmlpage.Paragraph(fmt.Sprintf("%s: the planner was done after %s: every pair observed unordered or predicted ordered, or its sweeps over.", c.Mode, plural.N(c.Counters.Runs, "run"))))
		}
	}
	return htmlpage.Section{Title: "Campaigns", ID: "summary", Blocks: blocks}
}

func growth(cs []Campaign) htmlpage.Section {
	chart := &htmlpage.LineChart{Title: "Observed unordered pairs over runs", XLabel: "runs", YLabel: "pairs"}
	for _, c := range cs {
		s := htmlpage.Series{Name: c.Mode, Points: []htmlpage.Point{{X: 0, Y: 0}}}
		prev := 0
		for _, g := range c.Growth {
			// A step: the count holds until the run that raised it.
			s.Points = append(s.Points, htmlpage.Point{X: float64(g.Run), Y: float64(prev)}, htmlpage.Point{X: float64(g.Run), Y: float64(g.Pairs)})
			prev = g.Pairs
		}
		s.Points = append(s.Points, htmlpage.Point{X: float64(c.Counters.Runs), Y: float64(prev)})
		chart.Series = append(chart.Series, s)
	}
	return htmlpage.Section{Title: "Coverage", ID: "coverage", Blocks: []htmlpage.Block{chart,
		htmlpage.Paragraph("A curve that flattens is saturating: later runs seldom show a pair in a new order. The baseline runs the same command without constraints.")}}
}

func rules(cs []Campaign) (htmlpage.Section, bool) {
	t := &htmlpage.Table{Columns: []htmlpage.Column{{Name: "mode"}, {Name: "rule"}, {Name: "traces", Numeric: true}, {Name: "broken", Numeric: true}, {Name: "counterexample runs"}}}
	for _, c := range cs {
		for _, r := range c.Rules {
			runs := make([]string, len(r.Runs))
			for i, n := range r.Runs {
				runs[i] = itoa(n)
			}
			row := htmlpage.Row{Cells: []string{c.Mode, r.Rule.String(), itoa(r.Checked), itoa(r.Broken), strings.Join(runs, ", ")}}
			if r.Broken > 0 {
				row.Class = "bad"
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return htmlpage.Section{Title: "Rules", ID: "rules", Blocks: []htmlpage.Block{t}}, len(t.Rows) > 0
}

func errorRuns(cs []Campaign) []htmlpage.Section {
	var out []htmlpage.Section
	for _, c := range cs {
		if len(c.Errors) == 0 {
			continue
		}
		sec := htmlpage.Section{Title: "Error runs: " + c.Mode, ID: "errors-" + c.Mode}
		t := &htmlpage.Table{Columns: []htmlpage.Column{{Name: "run", Numeric: true}, {Name: "outcome"}, {Name: "constraint"}, {Name: "last line of stderr"}}}
		for _, e := range c.Errors {
			t.Rows = append(t.Rows, htmlpage.Row{Cells: []string{itoa(e.Run), outcome(e), strings.Join(e.Constraints, "; "), lastLine(e.Stderr)}, Class: "bad", Ref: fmt.Sprintf("%s-%d", c.Mode, e.Run)})
		}
		sec.Blocks = append(sec.Blocks, t)
		if n := c.Counters.Errors - len(c.Errors); n > 0 {
			sec.Blocks = append(sec.Blocks, htmlpage.Paragraph(fmt.Sprintf("%d more error runs are in the campaign's deltas.", n)))
		}
		for _, e := range c.Errors {
			var b strings.Builder
			fmt.Fprintf(&b, "run %d (%s)\n", e.Run, outcome(e))
			for _, k := range e.Constraints {
				fmt.Fprintf(&b, "constraint: %s\n", k)
			}
			b.WriteString("trace:\n")
			for i, k := range e.Trace {
				fmt.Fprintf(&b, "  %3d  %s\n", i+1, k)
			}
			if e.Stderr != "" {
				b.WriteString("stderr (tail):\n")
				b.WriteString(e.Stderr)
			}
			sec.Blocks = append(sec.Blocks, htmlpage.Pre(b.String()))
		}
		out = append(out, sec)
	}
	return out
}

func outcome(e ErrorRun) string {
	if e.Hung {
		return "hung (killed at the time limit)"
	}
	return fmt.Sprintf("exit %d", e.Exit)
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

func itoa(n int) string { return fmt.Sprint(n) }
