package morpheus_test

import (
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/programs"
)

// TestNoFalseLivelock: under every strategy, spin-waiting code that ends
// under fair schedules is never reported at the step limit: a strategy
// may starve a task only for a bounded number of steps. (The long version,
// on more programs, is morpheus bench fairness.)
func TestNoFalseLivelock(t *testing.T) {
	for _, sc := range programs.SpinCorrect {
		for _, s := range programs.SpinStrategies {
			t.Run(sc.Name+"/"+s, func(t *testing.T) {
				t.Parallel() // 18 explorations of their own
				// A sample: morpheus bench fairness runs 100,000.
				n := 150
				if s == "rapos" || s == "dfs" {
					n = 30 // their runs spin to the bound: slower
				}
				mustPass(t, explore(t, sc.Test, morpheus.Strategy(s), morpheus.Seed(3), morpheus.Iterations(n)))
			})
		}
	}
}

// TestRealLivelock: a livelock is still reported, under every strategy, at
// ten times the step limit, and the report says how many of its steps were
// scheduled fairly and which goroutines kept each other busy. (A small
// limit: under -race on a busy machine, 200,000 steps a strategy took the
// test binary past go test's time-out.)
func TestRealLivelock(t *testing.T) {
	t.Parallel() // explorations of their own: they overlap the other long ones
	for _, s := range programs.SpinStrategies {
		res := explore(t, programs.SpinLivelock, morpheus.Strategy(s), morpheus.Seed(3), morpheus.Iterations(5),
			morpheus.MaxSteps(2_000))
		mustFail(t, res, "step-limit", "no end after 20000 steps (the step limit is 2000 steps), of which the last 19800 were scheduled fairly: a livelock: g1, g2 kept each other busy")
	}
}
