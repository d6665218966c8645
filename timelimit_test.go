package morpheus_test

import (
	"runtime"
	"runtime/debug"
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

// Under a TimeLimit the process's soft memory limit is lowered to the
// memory in use when the run began plus the heap bound and a quarter of it
// (the collector then works harder as the limit nears, rather than let a
// large heap double), and restored after the run; a lower limit the user
// set stays.
func TestTimeLimitLowersMemoryLimit(t *testing.T) {
	defer morpheus.SetHeapLimit(64 << 20)()
	orig := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(orig)
	during := func() int64 {
		var seen int64
		explore(t, func(*morpheus.Env) { seen = debug.SetMemoryLimit(-1) },
			morpheus.Iterations(1), morpheus.Workers(1), morpheus.Shrink(0), morpheus.TimeLimit(time.Hour))
		return seen
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if got := during(); got >= orig || got < 64<<20+16<<20 || got > int64(ms.Sys)+80<<20+1<<30 {
		t.Errorf("limit during the run %d, want about %d MiB above the process's %d MiB", got>>20, 80, ms.Sys>>20)
	}
	if got := debug.SetMemoryLimit(-1); got != orig {
		t.Errorf("limit after the run %d, want it restored to %d", got, orig)
	}
	user := int64(ms.Sys) + 32<<20 // below what the run wants
	debug.SetMemoryLimit(user)
	if got := during(); got != user {
		t.Errorf("a user's limit of %d MiB became %d MiB during the run", user>>20, got>>20)
	}
	if got := debug.SetMemoryLimit(-1); got != user {
		t.Errorf("a user's limit of %d MiB became %d MiB after the run", user>>20, got>>20)
	}
}
