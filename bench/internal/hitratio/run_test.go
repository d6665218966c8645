package hitratio

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/morpheus-go/morpheus"
)

// choice fails by its bug when the environment chooses 0 of 4, and
// otherwise when it chooses 1.
func choice(e *morpheus.Env) {
	switch e.Choose(4) {
	case 0:
		e.Fatalf("the bug")
	case 1:
		e.Fatalf("something else")
	}
}

func isBug(_, msg string) bool { return msg == "the bug" }

func TestRun(t *testing.T) {
	cases := []Case{{Name: "choice", Test: choice, Hit: isBug}, {Name: "any", Test: choice}}
	var done []string
	var seeds []string
	cfg := Config{Trials: 200, Strategies: []string{"random", "pos"}, Workers: 2,
		Seed: func(c, s string) uint64 { seeds = append(seeds, c+"/"+s); return uint64(len(c) + len(s)) },
		Done: func(c Case, s string, cell Cell) { done = append(done, fmt.Sprintf("%s/%s %d", c.Name, s, cell.Hits)) }}
	m, err := Run(cases, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.Cases, []string{"choice", "any"}) || len(m.Cells) != 2 || len(m.Cells[0]) != 2 || len(done) != 4 {
		t.Fatalf("cases %v, cells %v, done %v", m.Cases, m.Cells, done)
	}
	if want := []string{"choice/random", "choice/pos", "any/random", "any/pos"}; !reflect.DeepEqual(seeds, want) {
		t.Errorf("seeds asked for %v, want %v", seeds, want)
	}
	for j, s := range m.Strategies {
		bug, all := m.Cells[0][j], m.Cells[1][j]
		// A quarter of the iterations hit the bug, half fail: wide margins.
		if bug.Iterations != 200 || bug.Hits < 20 || bug.Hits > 80 || bug.Failures < bug.Hits+20 || bug.Failures > 160 {
			t.Errorf("%s: %d hits, %d failures of %d", s, bug.Hits, bug.Failures, bug.Iterations)
		}
		if all.Hits != all.Failures {
			t.Errorf("%s: without a predicate every failure is a hit: %d of %d", s, all.Hits, all.Failures)
		}
		if bug.FirstHit < 0 || bug.Failure == nil || m.Ratio(0, j) != float64(bug.Hits)/200 {
			t.Errorf("%s: first hit %v, failure %v, ratio %v", s, bug.FirstHit, bug.Failure, m.Ratio(0, j))
		}
		// The lowest hitting iteration is known only if the lowest failing
		// one was a hit.
		if f := bug.Failure; (f.Message == "the bug") != (bug.FirstHitIteration == f.Iteration) || (f.Message != "the bug") != (bug.FirstHitIteration < 0) {
			t.Errorf("%s: lowest failure %q in iteration %d, first hit iteration %d", s, f.Message, f.Iteration, bug.FirstHitIteration)
		}
	}
	// The counts come from the seeds, not from the workers or the clock.
	cfg.Workers, cfg.Done, cfg.Seed = 1, nil, func(c, s string) uint64 { return uint64(len(c) + len(s)) }
	again, err := Run(cases, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.Cells {
		for j := range m.Cells[i] {
			a, b := m.Cells[i][j], again.Cells[i][j]
			if a.Hits != b.Hits || a.Failures != b.Failures || a.FirstHitIteration != b.FirstHitIteration {
				t.Errorf("%s/%s: %+v, then %+v", m.Cases[i], m.Strategies[j], a, b)
			}
		}
	}
	if _, err := Run(cases, Config{Trials: 0, Strategies: []string{"pos"}}); err == nil {
		t.Error("Run with no trials")
	}
	if _, err := Run(cases, Config{Trials: 1, Strategies: []string{"nosuch"}}); err == nil {
		t.Error("Run with an unknown strategy")
	}
}
