package runner

import (
	"fmt"
	"slices"

	"github.com/morpheus-go/morpheus/internal/ordering/coverage"
	"github.com/morpheus-go/morpheus/internal/ordering/server"
	"github.com/morpheus-go/morpheus/internal/ordering/store"
)

// MaxErrorRuns is how many error runs a State keeps, with their traces, for
// the summary and the report.
const MaxErrorRuns = 20

// ErrorRun is a failed run kept for the report.
type ErrorRun struct {
	store.Run
	Keys []string // the trace as event keys
}

// State is a campaign between runs. Its memory is the events, the observed
// pairs, the growth points (one per change of the pair count), what is known
// of the precedence relation (the rules and the time-outs' holds) and a
// bounded sample of error runs, plus the runs finished since the last save.
type State struct {
	Events   *coverage.Events
	Cov      *coverage.Transpositions
	Prec     *coverage.Precedence
	Planner  coverage.Planner
	Counters store.Counters
	Session  store.Counters // Counters when this session started
	// SkipInfeasible: the planner passes over the pairs Prec orders.
	SkipInfeasible bool
	// Done: in server mode, the planner had nothing left to try (every pair
	// of the original order observed unordered or predicted ordered, or its
	// sweeps done) and the campaign ended before its runs.
	Done    bool
	Growth  []store.GrowthPoint
	Rules   []coverage.RuleCheck
	Errors  []ErrorRun
	NextRun int // number of the next run to start
	LastNew int // Counters.Runs when the pair count last grew

	// since the last save
	savedEvents, savedGrowth int
	originalSaved            bool
	cex                      []store.Counterexample
	runs                     []store.Run
	holds                    []coverage.Starvation
}

// NewState returns the state of a new campaign with the given rules.
func NewState(rules []coverage.Rule, window, rounds int) *State {
	s := &State{Events: coverage.NewEvents(), Cov: coverage.NewTranspositions(), Prec: coverage.NewPrecedence(), NextRun: 1}
	s.Planner.MaxRounds = rounds
	s.Cov.Window = window
	for _, r := range rules {
		s.Rules = append(s.Rules, coverage.RuleCheck{Rule: r})
	}
	return s
}

// Read loads the campaign saved in dir, to look at it.
func Read(dir string) (*State, error) {
	m, err := store.ReadMeta(dir)
	if err != nil {
		return nil, err
	}
	st := NewState(m.Rules, m.Window, m.Rounds)
	st.SkipInfeasible = m.SkipInfeasible
	if _, _, err := store.Open(dir, st.load); err != nil {
		return nil, err
	}
	return st, nil
}

// plan returns the constraints of the next run in server mode: none when
// there is no original order yet or when the planner is done.
func (s *State) plan(k int) ([]coverage.Constraint, []server.Constraint) {
	var prec *coverage.Precedence
	if s.SkipInfeasible {
		prec = s.Prec
	}
	cs, skipped := s.Planner.Next(s.Cov, k, prec)
	s.Counters.Skipped += skipped
	out := make([]server.Constraint, len(cs))
	for i, c := range cs {
		out[i] = server.Constraint{First: s.Events.Key(c.First), Then: s.Events.Key(c.Then)}
	}
	return cs, out
}

// record adds a finished run.
func (s *State) record(run int, cs []coverage.Constraint, o outcome) {
	r := store.Run{Run: run, Exit: o.exit, Hung: o.hung, Millis: o.millis, Constraints: cs, Trace: s.Events.IDs(o.res.Trace)}
	c := &s.Counters
	c.Runs++
	c.Constrained += len(cs)
	for _, out := range o.res.Outcomes {
		switch out {
		case server.Satisfied:
			c.Satisfied++
		case server.TimedOut:
			c.TimedOut++
			r.TimedOut++
		case server.NotReached:
			c.NotReached++
		}
	}
	c.Dropped += o.res.Dropped
	c.Protocol += o.res.ProtocolCount
	for i := range s.Rules {
		if s.Rules[i].Check(run, o.res.Trace) {
			s.cex = append(s.cex, store.Counterexample{Rule: i, Run: run})
		}
	}
	if r.Failed() {
		c.Errors++
		if o.hung {
			c.Hung++
		}
		r.Stderr = o.stderr
		if len(s.Errors) < MaxErrorRuns {
			s.Errors = append(s.Errors, ErrorRun{Run: r, Keys: o.res.Trace})
		}
	} else {
		if s.Cov.Add(r.Trace) > 0 {
			s.Growth = append(s.Growth, store.GrowthPoint{Run: c.Runs, Pairs: s.Cov.Len()})
			s.LastNew = c.Runs
		}
		s.learn(run, r.Trace, o.res)
	}
	s.runs = append(s.runs, r)
}

// learn takes what non-error run run tells of the precedence relation: its
// trace (Always, refutations), the rules still unbroken, and the holds the
// time-out let go, each with the events that arrived only after it.
func (s *State) learn(run int, trace []uint32, res server.Result) {
	s.syncRules()
	s.Prec.Observe(trace)
	for _, h := range res.Holds {
		if !h.TimedOut {
			continue
		}
		held, ok := s.Events.Lookup(h.Event)
		if !ok {
			continue
		}
		st := coverage.Starvation{Run: run, Held: held}
		seen := map[uint32]bool{held: true}
		for _, k := range res.Arrivals[h.To:] {
			// Hits that never passed (their client left) are not events.
			if e, ok := s.Events.Lookup(k); ok && !seen[e] {
				seen[e] = true
				st.Starved = append(st.Starved, e)
			}
		}
		if s.Prec.Starved(st, s.Cov.Seen) {
			s.holds = append(s.holds, st)
		}
	}
}

// syncRules gives Prec the rules no trace has broken, among known events.
func (s *State) syncRules() {
	var edges []coverage.Edge
	for _, r := range s.Rules {
		a, oka := s.Events.Lookup(r.Before)
		b, okb := s.Events.Lookup(r.After)
		if r.Broken == 0 && oka && okb {
			edges = append(edges, coverage.Edge{A: a, B: b})
		}
	}
	s.Prec.SetRules(edges)
}

// Bound is the upper bound on the unordered pairs of the original order
// (§4.3 of the Lingua Franca paper): its pairs, less those predicted
// ordered by every fact (bound) and by the rules alone (byRules, sound as
// far as the rules are true).
func (s *State) Bound() (pairs, bound, byRules int) {
	o := s.Cov.Original()
	pairs = len(o) * (len(o) - 1) / 2
	all, rules := s.Prec.Ordered(o, s.Cov.Observed)
	return pairs, pairs - all, pairs - rules
}

// delta takes what is new since the last save and marks it saved.
func (s *State) delta() *store.Delta {
	d := &store.Delta{
		Counters:  s.Counters,
		Cursor:    coverage.Planner{Round: s.Planner.Round, D: s.Planner.D, I: s.Planner.I},
		EventBase: s.savedEvents,
		Pairs:     s.Cov.Pending(),
		Growth:    append([]store.GrowthPoint(nil), s.Growth[s.savedGrowth:]...),
		Cex:       s.cex,
		Runs:      s.runs,
		Holds:     s.holds,
	}
	for id := s.savedEvents; id < s.Events.Len(); id++ {
		d.Events = append(d.Events, s.Events.Key(uint32(id)))
	}
	if !s.originalSaved && s.Cov.Original() != nil {
		d.Original = s.Cov.Original()
		s.originalSaved = true
	}
	for _, r := range s.Rules {
		d.Rules = append(d.Rules, store.RuleCount{Checked: r.Checked, Broken: r.Broken})
	}
	s.savedEvents, s.savedGrowth = s.Events.Len(), len(s.Growth)
	s.cex, s.runs, s.holds = nil, nil, nil
	s.Cov.Commit()
	return d
}

// load applies a saved delta (when resuming).
func (s *State) load(d *store.Delta) error {
	if d.EventBase != s.Events.Len() && len(d.Events) > 0 {
		return fmt.Errorf("events start at %d, expected %d", d.EventBase, s.Events.Len())
	}
	for _, k := range d.Events {
		s.Events.ID(k)
	}
	n := uint32(s.Events.Len())
	if d.Original != nil {
		for _, e := range d.Original {
			if e >= n {
				return fmt.Errorf("original trace names unknown event %d", e)
			}
		}
		if err := s.Cov.SetOriginal(d.Original); err != nil {
			return err
		}
		s.originalSaved = true
	}
	if err := s.Cov.Merge(d.Pairs); err != nil {
		return err
	}
	if len(d.Rules) != len(s.Rules) {
		return fmt.Errorf("%d rule counts, expected %d", len(d.Rules), len(s.Rules))
	}
	for i, rc := range d.Rules {
		s.Rules[i].Checked, s.Rules[i].Broken = rc.Checked, rc.Broken
	}
	for _, c := range d.Cex {
		if c.Rule >= len(s.Rules) {
			return fmt.Errorf("counterexample of rule %d, expected fewer than %d", c.Rule, len(s.Rules))
		}
		if r := &s.Rules[c.Rule]; len(r.Runs) < coverage.MaxCounterexamples {
			r.Runs = append(r.Runs, c.Run)
		}
	}
	s.Growth = append(s.Growth, d.Growth...)
	if len(d.Growth) > 0 {
		s.LastNew = d.Growth[len(d.Growth)-1].Run
	}
	s.Counters = d.Counters
	s.Planner.Round, s.Planner.D, s.Planner.I = d.Cursor.Round, d.Cursor.D, d.Cursor.I
	holds := d.Holds
	for _, r := range d.Runs {
		if r.Run >= s.NextRun {
			s.NextRun = r.Run + 1
		}
		for _, e := range r.Trace {
			if e >= n {
				return fmt.Errorf("run %d names unknown event %d", r.Run, e)
			}
		}
		if r.Failed() && len(s.Errors) < MaxErrorRuns {
			keys := make([]string, len(r.Trace))
			for i, e := range r.Trace {
				keys[i] = s.Events.Key(e)
			}
			s.Errors = append(s.Errors, ErrorRun{Run: r, Keys: keys})
		}
		if r.Failed() {
			continue
		}
		// What the run taught, in the order it was learnt.
		s.Prec.Observe(r.Trace)
		for ; len(holds) > 0 && holds[0].Run == r.Run; holds = holds[1:] {
			h := holds[0]
			if h.Held >= n || slices.ContainsFunc(h.Starved, func(e uint32) bool { return e >= n }) {
				return fmt.Errorf("hold of run %d names an unknown event", r.Run)
			}
			s.Prec.Starved(h, s.Cov.Seen)
		}
	}
	if len(holds) > 0 {
		return fmt.Errorf("hold of run %d does not follow a non-error run of its delta", holds[0].Run)
	}
	s.syncRules()
	s.savedEvents, s.savedGrowth = s.Events.Len(), len(s.Growth)
	return nil
}
