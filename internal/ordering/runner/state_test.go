package runner

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/internal/ordering/coverage"
	"github.com/morpheus-go/morpheus/internal/ordering/server"
	"github.com/morpheus-go/morpheus/internal/ordering/store"
)

// original is the first run of the learning tests: a natural run, w:a
// before w:b before c:x before c:y.
var original = outcome{res: server.Result{
	Trace:    []string{"w:a#0", "w:b#0", "c:x#0", "c:y#0"},
	Arrivals: []string{"w:a#0", "w:b#0", "c:x#0", "c:y#0"},
}}

// heldRun is a run whose constraint held w:b: Arrivals[1] is the held hit,
// c:x arrived while it was held, c:y and a hit that never passed after.
func heldRun(timedOut bool, exit int) outcome {
	return outcome{exit: exit, res: server.Result{
		Trace:    []string{"w:a#0", "c:x#0", "w:b#0", "c:y#0"},
		Arrivals: []string{"w:a#0", "w:b#0", "c:x#0", "c:y#0", "c:y#0", "z:gone#0"},
		Holds:    []server.Hold{{Event: "w:b#0", From: 1, To: 3, TimedOut: timedOut}},
		Outcomes: []server.Outcome{server.TimedOut},
	}}
}

func TestStateLearns(t *testing.T) {
	tests := []struct {
		name      string
		rules     []string
		runs      []outcome
		before    [][2]string // known a < b
		notBefore [][2]string
		holds     int
	}{
		{
			name:      "a time-out's hold: what arrived after it is starved",
			runs:      []outcome{original, heldRun(true, 0)},
			before:    [][2]string{{"w:b#0", "c:y#0"}},
			notBefore: [][2]string{{"w:b#0", "c:x#0"}, {"c:y#0", "w:b#0"}, {"w:a#0", "c:y#0"}},
			holds:     1,
		},
		{
			name:      "a hold its First released teaches nothing",
			runs:      []outcome{original, heldRun(false, 0)},
			notBefore: [][2]string{{"w:b#0", "c:y#0"}},
		},
		{
			name:      "an error run teaches nothing",
			runs:      []outcome{original, heldRun(true, 1)},
			notBefore: [][2]string{{"w:b#0", "c:y#0"}},
		},
		{
			name: "a hold that starved an event seen before it is not taken",
			// c:x held, w:b (before it in the original) and c:y after.
			runs: []outcome{original, {res: server.Result{
				Trace:    []string{"w:a#0", "c:x#0", "w:b#0", "c:y#0"},
				Arrivals: []string{"w:a#0", "c:x#0", "w:b#0", "c:y#0"},
				Holds:    []server.Hold{{Event: "c:x#0", From: 1, To: 2, TimedOut: true}},
			}}},
			notBefore: [][2]string{{"c:x#0", "c:y#0"}, {"c:x#0", "w:b#0"}},
		},
		{
			name:      "a later trace refutes the hold",
			runs:      []outcome{original, heldRun(true, 0), {res: server.Result{Trace: []string{"c:y#0", "w:a#0", "w:b#0", "c:x#0"}}}},
			notBefore: [][2]string{{"w:b#0", "c:y#0"}},
		},
		{
			name:      "rules unbroken are facts, broken ones are not",
			rules:     []string{"w:a<w:b", "c:y<c:x", "w:a<never:seen"},
			runs:      []outcome{original},
			before:    [][2]string{{"w:a#0", "w:b#0"}},
			notBefore: [][2]string{{"c:y#0", "c:x#0"}, {"w:b#0", "w:a#0"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rules []coverage.Rule
			for _, r := range tt.rules {
				rule, err := coverage.ParseRule(r)
				if err != nil {
					t.Fatal(err)
				}
				rules = append(rules, rule)
			}
			s := NewState(rules, 0, 0)
			for i, o := range tt.runs {
				s.record(i+1, nil, o)
			}
			id := func(k string) uint32 {
				e, ok := s.Events.Lookup(k)
				if !ok {
					t.Fatalf("no event %s", k)
				}
				return e
			}
			for _, e := range tt.before {
				if !s.Prec.Before(id(e[0]), id(e[1])) {
					t.Errorf("%s < %s not known", e[0], e[1])
				}
			}
			for _, e := range tt.notBefore {
				if s.Prec.Before(id(e[0]), id(e[1])) {
					t.Errorf("%s < %s known", e[0], e[1])
				}
			}
			if s.Prec.Holds() != tt.holds {
				t.Errorf("%d live holds, want %d", s.Prec.Holds(), tt.holds)
			}
			// A reload from the saved deltas knows the same.
			out := filepath.Join(t.TempDir(), "c")
			dir, err := store.Create(out, &store.Meta{Mode: ModeServer, Rules: rules, Command: []string{"x"}})
			if err != nil {
				t.Fatal(err)
			}
			if err := dir.Save(s.delta()); err != nil {
				t.Fatal(err)
			}
			re := NewState(rules, 0, 0)
			if _, _, err := store.Open(out, re.load); err != nil {
				t.Fatal(err)
			}
			n := uint32(s.Events.Len())
			for a := range n {
				for b := range n {
					if s.Prec.Before(a, b) != re.Prec.Before(a, b) {
						t.Errorf("reloaded: %s < %s is %v, was %v", s.Events.Key(a), s.Events.Key(b), re.Prec.Before(a, b), s.Prec.Before(a, b))
					}
				}
			}
		})
	}
}

// TestHoldStarvedList: the starved events are those arrived after the
// release, once each, in order, without the held event or hits that never
// passed.
func TestHoldStarvedList(t *testing.T) {
	s := NewState(nil, 0, 0)
	s.record(1, nil, original)
	s.record(2, nil, heldRun(true, 0))
	want := []coverage.Starvation{{Run: 2, Held: 1, Starved: []uint32{3}}}
	if !reflect.DeepEqual(s.holds, want) {
		t.Fatalf("holds %+v, want %+v", s.holds, want)
	}
}

// TestLoadRejectsStrayHolds: a hold must follow a non-error run of its
// delta and name known events.
func TestLoadRejectsStrayHolds(t *testing.T) {
	for _, d := range []*store.Delta{
		{Events: []string{"a#0"}, Holds: []coverage.Starvation{{Run: 5, Held: 0, Starved: []uint32{0}}}},
		{Events: []string{"a#0"}, Runs: []store.Run{{Run: 1, Trace: []uint32{0}}}, Holds: []coverage.Starvation{{Run: 1, Held: 0, Starved: []uint32{7}}}},
		{Events: []string{"a#0"}, Runs: []store.Run{{Run: 1, Exit: 1, Trace: []uint32{0}}}, Holds: []coverage.Starvation{{Run: 1, Held: 0, Starved: []uint32{0}}}},
	} {
		if err := NewState(nil, 0, 0).load(d); err == nil {
			t.Errorf("delta %+v loaded", d)
		}
	}
}

// TestSkipInfeasible: with two goroutines racing through two tracepoints
// each, the 2 program-order pairs are infeasible. Skipping, each times out
// once (its hold starves the other event) and is not tried again; without,
// each of the 3 sweeps tries both (one run at a time: no sweep passes over a
// pair under way). Either way the campaign ends when its planner is done,
// before its runs, with the 4 cross pairs observed. The time-out is long
// enough that a feasible pair, or a goroutine's hit, is not late by that
// much on a loaded machine; it costs 2 of them (skipping) or 6 (not).
func TestSkipInfeasible(t *testing.T) {
	for _, skip := range []bool{true, false} {
		m := helperMeta(ModeServer, "race")
		m.Rounds, m.SkipInfeasible, m.Timeout = 3, skip, 300*time.Millisecond
		out := filepath.Join(t.TempDir(), "c")
		st, err := Run(Config{Meta: m, Out: out, Runs: 100, Jobs: 1})
		if err != nil {
			t.Fatal(err)
		}
		c := st.Counters
		if !st.Done || c.Runs >= 100 || st.Cov.Len() != 4 {
			t.Fatalf("skip %v: done %v after %d runs, %d pairs", skip, st.Done, c.Runs, st.Cov.Len())
		}
		ga, gb := id(t, st, "g1"), id(t, st, "g2")
		known := st.Prec.Before(ga[0], ga[1]) && st.Prec.Before(gb[0], gb[1])
		if !known {
			t.Fatalf("skip %v: the program order was not learnt", skip)
		}
		if pairs, bound, byRules := st.Bound(); pairs != 6 || bound != 4 || byRules != 6 {
			t.Fatalf("skip %v: bound %d (rules alone %d) of %d pairs, want 4 (6) of 6", skip, bound, byRules, pairs)
		}
		switch {
		case skip && c.TimedOut != 2:
			t.Fatalf("skipping: %d time-outs, want 2", c.TimedOut)
		case !skip && (c.TimedOut != 6 || c.Skipped != 0):
			t.Fatalf("not skipping: %d time-outs, %d skipped; want 6 (2 pairs, 3 sweeps), 0", c.TimedOut, c.Skipped)
		}
		re := NewState(nil, 0, 0)
		if _, _, err := store.Open(out, re.load); err != nil {
			t.Fatal(err)
		}
		if re.Counters != c || !re.Prec.Before(ga[0], ga[1]) || !re.Prec.Before(gb[0], gb[1]) {
			t.Fatalf("reloaded counters %+v (saved %+v), or the program order lost", re.Counters, c)
		}
	}
}

// id returns the ids of goroutine g's events a and b (whatever the process
// is called).
func id(t *testing.T, st *State, g string) [2]uint32 {
	t.Helper()
	var out [2]uint32
	for i, n := range []string{"a", "b"} {
		found := false
		for e := range uint32(st.Events.Len()) {
			if strings.HasSuffix(st.Events.Key(e), ":"+n+"{g="+g+"}#0") {
				out[i], found = e, true
			}
		}
		if !found {
			t.Fatalf("no event %s of %s", n, g)
		}
	}
	return out
}
