package morpheus_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// An iteration that would run for hours (a loop of ops far below its step
// limit) is cut at the TimeLimit: the run returns soon after it with no
// iteration counted, no failure, and Stopped "budget-cut"; the goroutines of
// the cut iteration have unwound (their deferred functions ran).
func TestTimeLimitCutsIteration(t *testing.T) {
	var unwound atomic.Int64
	endless := func(e *morpheus.Env) {
		var n csync.Int
		csync.Go(func() {
			defer unwound.Add(1)
			for {
				n.Add(1)
			}
		})
		defer unwound.Add(1)
		for {
			n.Add(-1)
		}
	}
	res := exploreWithin(t, 2*time.Minute, endless, morpheus.Iterations(10), morpheus.Workers(1),
		morpheus.MaxSteps(1<<30), morpheus.Shrink(0), morpheus.TimeLimit(300*time.Millisecond))
	if res.Failure != nil || res.Iterations != 0 || res.Stopped != "budget-cut" {
		t.Fatalf("failure %v, %d iterations, stopped %q; want none, 0, budget-cut", res.Failure, res.Iterations, res.Stopped)
	}
	if n := unwound.Load(); n != 2 {
		t.Errorf("%d of the cut iteration's 2 goroutines unwound", n)
	}
}

// Once the first iteration has ended, no iteration starts that, taking as
// long as the first, would end past the TimeLimit: on a clock where each
// takes 100 ms, a limit of 350 ms runs three (the fourth would end at
// 400 ms), and the run stops on the budget, nothing cut.
func TestTimeLimitStartsOnlyWhatFits(t *testing.T) {
	var now atomic.Int64
	restore := morpheus.SetBudgetClock(func() time.Time { return time.Unix(0, now.Load()) })
	defer restore()
	test := func(e *morpheus.Env) { now.Add(int64(100 * time.Millisecond)) }
	res := explore(t, test, morpheus.Iterations(100), morpheus.Workers(1), morpheus.TimeLimit(350*time.Millisecond))
	if res.Iterations != 3 || res.Stopped != "budget-time" {
		t.Errorf("ran %d, stopped %q; want 3, budget-time", res.Iterations, res.Stopped)
	}
	// A failure found before the limit is the run's result.
	res = explore(t, racyCounter, morpheus.Seed(7), morpheus.Iterations(500), morpheus.Shrink(0), morpheus.TimeLimit(time.Hour))
	if res.Failure == nil || !strings.Contains(res.Stopped, "failure") {
		t.Errorf("failure %v, stopped %q; want a failure", res.Failure, res.Stopped)
	}
}

// Under a TimeLimit, an iteration that grows the heap past HeapLimit (a
// schedule of endless heartbeats keeps every step for the race check) is
// cut as at the limit, long before it: memory, not the minute, ends it.
func TestHeapLimitCutsIteration(t *testing.T) {
	defer morpheus.SetHeapLimit(32 << 20)()
	growing := func(e *morpheus.Env) {
		var n csync.Int
		var keep [][]byte
		for {
			keep = append(keep, make([]byte, 64<<10))
			n.Add(len(keep))
		}
	}
	res := exploreWithin(t, 2*time.Minute, growing, morpheus.Iterations(10), morpheus.Workers(1),
		morpheus.MaxSteps(1<<30), morpheus.Shrink(0), morpheus.TimeLimit(time.Hour))
	if res.Failure != nil || res.Iterations != 0 || res.Stopped != "budget-cut" {
		t.Fatalf("failure %v, %d iterations, stopped %q; want none, 0, budget-cut", res.Failure, res.Iterations, res.Stopped)
	}
}
