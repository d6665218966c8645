package sct

import (
	"testing"

	"github.com/morpheus-go/morpheus"
)

// scale shrinks iteration counts under the race detector (ten times slower)
// and with -short.
func scale(n int) int {
	if raceEnabled || testing.Short() {
		return max(n/10, 20)
	}
	return n
}

// Every buggy case fails with its intended failure within a few thousand
// iterations of POS*, with the race detector too (as in CI). Spawns cost
// no decision (strategy.Local), so the cases whose bug needs a thread
// created late (reorder_10, twostage_100) need no conflict analysis:
// twostage_100, the costliest (hundreds of 800-step iterations; its hit
// ratio is below 0.01, see bench sct), takes about 0.5 s, 6 s under -race
// on two cores (12 s when they are busy), and is left out only when -short
// and -race are both on.
func TestBuggyFound(t *testing.T) {
	for _, c := range Cases() {
		t.Run(c.Name, func(t *testing.T) {
			if c.Threads > 50 && raceEnabled && testing.Short() {
				t.Skip("hundreds of 800-step iterations under the race detector: not with -short")
			}
			t.Parallel()
			const s = "pos*"
			res, err := morpheus.Explore(c.Buggy, morpheus.Strategy(s), morpheus.Iterations(5000), morpheus.Name(c.Name), morpheus.Workers(2))
			if err != nil {
				t.Fatal(err)
			}
			f := res.Failure
			if f == nil {
				t.Fatalf("%s: no failure in %d iterations", s, res.Iterations)
			}
			if !c.Hit(f.Kind, f.Message) {
				t.Fatalf("%s: unintended failure:\n%s", s, f.Report())
			}
			t.Logf("%s: found in iteration %d: %s", s, f.Iteration, f.Error())
		})
	}
}

// Every fixed case passes under every strategy.
func TestFixedPass(t *testing.T) {
	for _, c := range Cases() {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			n := scale(2000)
			if c.Threads > 50 {
				n = scale(200)
			}
			r, err := Run(Options{Trials: n, Fixed: true, Cases: []string{c.Name}, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			for j, s := range r.Strategies {
				if h := r.Cells[0][j].Hits; h > 0 {
					t.Errorf("%s: %d of %d iterations failed; first:\n%s", s, h, n, r.First(0, j).Report())
				}
			}
		})
	}
}

// The hit predicates accept only the intended failure.
func TestHitPredicates(t *testing.T) {
	for _, c := range Cases() {
		if c.Hit("panic", c.Prefix) || c.Hit("step-limit", "no end after 100000 steps") {
			t.Errorf("%s: hit on another kind", c.Name)
		}
	}
	cs := Cases()
	var dl, rd Case
	for _, c := range cs {
		switch c.Name {
		case "deadlock01":
			dl = c
		case "reorder_3":
			rd = c
		}
	}
	if !dl.Hit("deadlock", "no task can run...\n  g1: blocked in lock on mutex#4 first used at deadlock.go:27") || dl.Hit("deadlock", "main: blocked in chan-recv on chan#3") {
		t.Error("deadlock01: wrong predicate")
	}
	if !rd.Hit("assertion", "reorder: checker saw a=1 b=0") || rd.Hit("assertion", "twostage: reader saw d1=1 d2=0") {
		t.Error("reorder_3: wrong predicate")
	}
}

// Run checks its arguments.
func TestRunArguments(t *testing.T) {
	if _, err := Run(Options{Trials: 0}); err == nil {
		t.Error("Run with 0 trials")
	}
	if _, err := Run(Options{Trials: 1, Cases: []string{"nope"}}); err == nil {
		t.Error("Run with an unknown case")
	}
}
