package coverage

import (
	"reflect"
	"testing"
)

// step is one call on a Precedence in a table test.
type step struct {
	observe []uint32    // Observe(observe)
	hold    *Starvation // Starved(*hold, seen)
	seen    []Edge      // what seen reports for hold: a before b
	taken   bool        // what Starved must return
	rules   []Edge      // SetRules(rules), when not nil
}

func TestPrecedence(t *testing.T) {
	tests := []struct {
		name      string
		steps     []step
		before    []Edge // known a < b
		notBefore []Edge // not known
		holds     int
	}{
		{
			name: "a time-out's hold orders the held event before what it starved",
			steps: []step{
				{observe: []uint32{0, 1, 2, 3}},
				{hold: &Starvation{Run: 2, Held: 1, Starved: []uint32{2, 3}}, taken: true},
			},
			before:    []Edge{{1, 2}, {1, 3}},
			notBefore: []Edge{{2, 1}, {0, 1}, {2, 3}, {0, 3}},
			holds:     1,
		},
		{
			name: "a hold that starved an event seen before it is not taken",
			steps: []step{
				{observe: []uint32{0, 1, 2, 3}},
				{hold: &Starvation{Run: 2, Held: 1, Starved: []uint32{2, 3}}, seen: []Edge{{3, 1}}},
			},
			notBefore: []Edge{{1, 2}, {1, 3}},
		},
		{
			name: "a hold with nothing starved is not taken",
			steps: []step{
				{hold: &Starvation{Run: 2, Held: 1}},
			},
			notBefore: []Edge{{1, 1}, {1, 2}},
		},
		{
			name: "a later trace refutes one fact of a hold: all its facts go",
			steps: []step{
				{observe: []uint32{0, 1, 2, 3}},
				{hold: &Starvation{Run: 2, Held: 1, Starved: []uint32{2, 3}}, taken: true},
				{hold: &Starvation{Run: 3, Held: 0, Starved: []uint32{3}}, taken: true},
				{observe: []uint32{0, 3, 1, 2}},
			},
			before:    []Edge{{0, 3}},
			notBefore: []Edge{{1, 2}, {1, 3}},
			holds:     1,
		},
		{
			name: "rules are facts until a trace breaks them",
			steps: []step{
				{rules: []Edge{{0, 1}, {2, 3}}},
				{observe: []uint32{0, 1, 3, 2}},
			},
			before:    []Edge{{0, 1}},
			notBefore: []Edge{{2, 3}, {1, 0}},
		},
		{
			name: "rule (1): transitive through an event that always occurs",
			steps: []step{
				{observe: []uint32{0, 1, 2}},
				{observe: []uint32{0, 1, 2}},
				{rules: []Edge{{0, 1}}},
				{hold: &Starvation{Run: 3, Held: 1, Starved: []uint32{2}}, taken: true},
			},
			before: []Edge{{0, 1}, {1, 2}, {0, 2}},
			holds:  1,
		},
		{
			name: "rule (1) does not go through an event missing from a trace",
			steps: []step{
				{observe: []uint32{0, 1, 2}},
				{observe: []uint32{0, 2}},
				{rules: []Edge{{0, 1}}},
				{hold: &Starvation{Run: 3, Held: 1, Starved: []uint32{2}}, taken: true},
			},
			before:    []Edge{{0, 1}, {1, 2}},
			notBefore: []Edge{{0, 2}},
			holds:     1,
		},
		{
			name: "rule (1) needs an observed trace for Always",
			steps: []step{
				{rules: []Edge{{0, 1}, {1, 2}}},
			},
			before:    []Edge{{0, 1}, {1, 2}},
			notBefore: []Edge{{0, 2}},
		},
		{
			name:      "events never heard of are not ordered",
			steps:     []step{{observe: []uint32{0, 1}}},
			notBefore: []Edge{{0, 7}, {7, 0}, {7, 8}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewPrecedence()
			for i, s := range tt.steps {
				switch {
				case s.observe != nil:
					p.Observe(s.observe)
				case s.hold != nil:
					seen := func(a, b uint32) bool {
						for _, e := range s.seen {
							if e == (Edge{a, b}) {
								return true
							}
						}
						return false
					}
					if got := p.Starved(*s.hold, seen); got != s.taken {
						t.Fatalf("step %d: Starved = %v, want %v", i, got, s.taken)
					}
				case s.rules != nil:
					p.SetRules(s.rules)
				}
			}
			for _, e := range tt.before {
				if !p.Before(e.A, e.B) {
					t.Errorf("%d < %d not known", e.A, e.B)
				}
			}
			for _, e := range tt.notBefore {
				if p.Before(e.A, e.B) {
					t.Errorf("%d < %d known", e.A, e.B)
				}
			}
			if p.Holds() != tt.holds {
				t.Errorf("%d live holds, want %d", p.Holds(), tt.holds)
			}
		})
	}
}

func TestPrecedenceAlways(t *testing.T) {
	p := NewPrecedence()
	if p.Always(0) {
		t.Fatal("always before any trace")
	}
	p.Observe([]uint32{0, 1})
	p.Observe([]uint32{1, 0, 2})
	if !p.Always(0) || !p.Always(1) || p.Always(2) || p.Always(9) {
		t.Fatalf("always: 0 %v, 1 %v, 2 %v, 9 %v", p.Always(0), p.Always(1), p.Always(2), p.Always(9))
	}
	p.Observe([]uint32{1})
	if p.Always(0) || !p.Always(1) {
		t.Fatal("0 stays always after a trace without it")
	}
}

func TestPrecedenceOrdered(t *testing.T) {
	p := NewPrecedence()
	p.Observe([]uint32{0, 1, 2, 3})
	p.SetRules([]Edge{{0, 1}, {1, 2}})
	p.Starved(Starvation{Run: 2, Held: 2, Starved: []uint32{3}}, func(a, b uint32) bool { return false })
	none := func(a, b uint32) bool { return false }
	all, byRules := p.Ordered([]uint32{0, 1, 2, 3}, none)
	// Rules: 0<1, 1<2, and 0<2 through 1; the hold adds 2<3, 1<3, 0<3.
	if all != 6 || byRules != 3 {
		t.Fatalf("ordered %d (rules %d), want 6 (3)", all, byRules)
	}
	// A pair observed unordered is not counted, whatever was derived.
	all, byRules = p.Ordered([]uint32{0, 1, 2, 3}, func(a, b uint32) bool { return a == 0 && b == 2 })
	if all != 5 || byRules != 2 {
		t.Fatalf("ordered %d (rules %d) with 0-2 observed, want 5 (2)", all, byRules)
	}
}

// TestPlannerSkipsPredictedOrdered: the planner passes over the pairs a
// Precedence orders, counts them, and is done when nothing else is left; a
// refuted hold brings back the pairs its other facts had removed.
func TestPlannerSkipsPredictedOrdered(t *testing.T) {
	tr := NewTranspositions()
	tr.Add([]uint32{0, 1, 2, 3})
	p := NewPrecedence()
	p.Observe([]uint32{0, 1, 2, 3})
	if !p.Starved(Starvation{Run: 2, Held: 0, Starved: []uint32{1, 2}}, tr.Seen) {
		t.Fatal("hold not taken")
	}
	p.SetRules([]Edge{{2, 3}})

	var pl Planner // no limit on sweeps
	cs, skipped := pl.Next(tr, 10, p)
	// (0,1), (2,3) and (0,2) are facts, (0,3) follows by rule (1) through
	// 2, which always occurs: (1,2) and (1,3) are left.
	want := []Constraint{{2, 1}, {3, 1}}
	if !reflect.DeepEqual(cs, want) || skipped != 4 || pl.Done() {
		t.Fatalf("planned %v, skipped %d (done %v); want %v, 4", cs, skipped, pl.Done(), want)
	}
	tr.Add([]uint32{0, 2, 3, 1})
	if cs, skipped := pl.Next(tr, 10, p); cs != nil || skipped != 0 || !pl.Done() {
		t.Fatalf("all observed or predicted: planned %v, skipped %d, done %v", cs, skipped, pl.Done())
	}
	// A trace with 1 before 0 refutes the hold, 0 < 2 with it.
	tr.Add([]uint32{1, 0, 2, 3})
	p.Observe([]uint32{1, 0, 2, 3})
	cs, skipped = pl.Next(tr, 10, p)
	if want := []Constraint{{2, 0}, {3, 0}}; !reflect.DeepEqual(cs, want) || skipped != 1 || pl.Done() {
		t.Fatalf("after the refutation: planned %v, skipped %d; want %v, 1", cs, skipped, want)
	}
}

func TestSeen(t *testing.T) {
	tr := NewTranspositions()
	tr.Add([]uint32{0, 1, 2})
	tr.Add([]uint32{0, 2, 1})
	for _, tt := range []struct {
		a, b uint32
		want bool
	}{
		{0, 1, true}, {1, 0, false}, {2, 1, true}, {1, 2, true}, {0, 0, false}, {0, 9, false}, {9, 0, false},
	} {
		if got := tr.Seen(tt.a, tt.b); got != tt.want {
			t.Errorf("Seen(%d, %d) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// BenchmarkPrecedence: a closure over 500 events, most of them always
// there, chained by holds (the cost of a campaign's worst recomputation).
func BenchmarkPrecedence(b *testing.B) {
	const n = 500
	trace := make([]uint32, n)
	for i := range trace {
		trace[i] = uint32(i)
	}
	for i := 0; i < b.N; i++ {
		p := NewPrecedence()
		p.Observe(trace)
		for e := uint32(0); e+1 < n; e++ {
			p.Starved(Starvation{Run: int(e), Held: e, Starved: []uint32{e + 1}}, func(a, b uint32) bool { return false })
		}
		if !p.Before(0, n-1) {
			b.Fatalf("0 < %d not derived", n-1)
		}
	}
}
