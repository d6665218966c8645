package coverage

import (
	"reflect"
	"strings"
	"testing"
)

func TestTranspositions(t *testing.T) {
	tr := NewTranspositions()
	if n := tr.Add([]uint32{0, 1, 2, 3}); n != 0 || tr.Len() != 0 {
		t.Fatalf("original added %d pairs", n)
	}
	// 1 and 2 swapped, 3 before 0; event 9 is not in the original.
	if n := tr.Add([]uint32{3, 9, 0, 2, 1}); n != 4 {
		t.Fatalf("added %d, want 4 (0-3, 1-3, 2-3, 1-2)", n)
	}
	want := []Pair{{0, 3}, {1, 2}, {1, 3}, {2, 3}}
	if got := tr.Pending(); !reflect.DeepEqual(got, want) {
		t.Fatalf("pending %v, want %v", got, want)
	}
	if !tr.Observed(2, 1) || tr.Observed(0, 1) {
		t.Fatal("Observed wrong")
	}
	tr.Commit()
	if len(tr.Pending()) != 0 || tr.Len() != 4 {
		t.Fatal("commit lost pairs")
	}
	if n := tr.Add([]uint32{3, 0, 1, 2}); n != 0 {
		t.Fatalf("re-observed pairs counted as new: %d", n)
	}
	if n := tr.Add([]uint32{1, 0, 2, 3}); n != 1 || !reflect.DeepEqual(tr.Pending(), []Pair{{0, 1}}) {
		t.Fatalf("added %d, pending %v", n, tr.Pending())
	}
}

func TestTranspositionsWindow(t *testing.T) {
	tr := NewTranspositions()
	tr.Window = 1
	tr.Add([]uint32{0, 1, 2, 3})
	// 3 moved to the front: with a window of 1 only its new neighbour is seen.
	if n := tr.Add([]uint32{3, 0, 1, 2}); n != 1 {
		t.Fatalf("added %d with window 1, want 1", n)
	}
}

func TestMergeEqualsAdd(t *testing.T) {
	a, b := NewTranspositions(), NewTranspositions()
	orig := []uint32{0, 1, 2, 3, 4}
	a.Add(orig)
	b.Add(orig)
	for _, tr := range [][]uint32{{1, 0, 2, 3, 4}, {0, 1, 4, 3, 2}} {
		a.Add(tr)
	}
	if err := b.Merge(a.Pending()); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.All(), b.All()) {
		t.Fatalf("merge %v != add %v", b.All(), a.All())
	}
	if err := b.Merge([]Pair{{3, 1}}); err == nil || !strings.Contains(err.Error(), "not two events of the original trace in order") {
		t.Fatalf("bad pair merged: %v", err)
	}
}

func TestPlannerSweepsUnobservedPairs(t *testing.T) {
	tr := NewTranspositions()
	var pl Planner
	if cs, _ := pl.Next(tr, 1, nil); cs != nil || pl.Done() {
		t.Fatalf("constraints before an original: %v (done %v)", cs, pl.Done())
	}
	tr.Add([]uint32{10, 11, 12})
	tr.Add([]uint32{11, 10, 12}) // 10-11 observed
	var got []Constraint
	for i := 0; i < 3; i++ {
		cs, _ := pl.Next(tr, 1, nil)
		got = append(got, cs...)
	}
	// Distance 1: (11,12); distance 2: (10,12); then the next round.
	want := []Constraint{{12, 11}, {12, 10}, {12, 11}}
	if !reflect.DeepEqual(got, want) || pl.Round != 1 || pl.Done() {
		t.Fatalf("constraints %v (round %d), want %v", got, pl.Round, want)
	}
	if cs, _ := pl.Next(tr, 5, nil); len(cs) != 2 {
		t.Fatalf("k=5 gave %v, want the 2 unobserved pairs", cs)
	}
	limited := Planner{MaxRounds: 2}
	n := 0
	for i := 0; i < 10; i++ {
		cs, _ := limited.Next(tr, 1, nil)
		n += len(cs)
	}
	if n != 4 || limited.Round != 2 || !limited.Done() {
		t.Fatalf("2 rounds of 2 unobserved pairs gave %d constraints (round %d, done %v)", n, limited.Round, limited.Done())
	}
	tr.Add([]uint32{12, 11, 10})
	if cs, _ := pl.Next(tr, 1, nil); cs != nil || !pl.Done() {
		t.Fatalf("all pairs observed, got %v (done %v)", cs, pl.Done())
	}
}

func TestRules(t *testing.T) {
	r, err := ParseRule("c:start < w1:work")
	if err != nil || r.Before != "c:start#0" || r.After != "w1:work#0" {
		t.Fatalf("%+v %v", r, err)
	}
	c := RuleCheck{Rule: r}
	c.Check(1, []string{"c:start#0", "w1:work#0"})
	c.Check(2, []string{"w1:work#0", "c:start#0"})
	c.Check(3, []string{"c:other#0"})
	c.Check(4, []string{"w1:work#0"})
	if c.Checked != 4 || c.Broken != 2 || !reflect.DeepEqual(c.Runs, []int{2, 4}) {
		t.Fatalf("%+v", c)
	}
	for _, bad := range []string{"a", "a<", "x:a<b", "a:b<c:d<e:f", "a b:c<d:e"} {
		if _, err := ParseRule(bad); err == nil {
			t.Errorf("ParseRule(%q) accepted", bad)
		}
	}
}

func TestEvents(t *testing.T) {
	e := NewEvents()
	ids := e.IDs([]string{"a", "b", "a"})
	if !reflect.DeepEqual(ids, []uint32{0, 1, 0}) || e.Len() != 2 || e.Key(1) != "b" {
		t.Fatalf("%v", ids)
	}
}

// TestPlannerBusy: a constraint of a run under way is passed over without
// counting; a scan that finds only such is not done and leaves the cursor,
// so the pair comes back once the run is over.
func TestPlannerBusy(t *testing.T) {
	tr := NewTranspositions()
	tr.Add([]uint32{0, 1, 2})
	tr.Add([]uint32{0, 2, 1}) // 1-2 observed
	busy := map[Constraint]bool{{1, 0}: true, {2, 0}: true}
	pl := Planner{MaxRounds: 1, Busy: func(c Constraint) bool { return busy[c] }}
	if cs, skipped := pl.Next(tr, 1, nil); cs != nil || skipped != 0 || pl.Done() || pl.Round != 0 || pl.D != 1 || pl.I != 0 {
		t.Fatalf("only busy pairs: planned %v, skipped %d, done %v, cursor %d %d %d", cs, skipped, pl.Done(), pl.Round, pl.D, pl.I)
	}
	delete(busy, Constraint{2, 0})
	if cs, _ := pl.Next(tr, 1, nil); !reflect.DeepEqual(cs, []Constraint{{2, 0}}) {
		t.Fatalf("planned %v, want the pair no longer busy", cs)
	}
	// The sweep is over (MaxRounds 1): the busy pair will not be planned
	// again, so the planner is done.
	if cs, _ := pl.Next(tr, 1, nil); cs != nil || !pl.Done() {
		t.Fatalf("planned %v, done %v", cs, pl.Done())
	}
}
