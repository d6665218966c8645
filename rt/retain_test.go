package rt_test

import (
	"runtime"
	"testing"
	"weak"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/rt"
)

// Memory a test process keeps once a test's schedules have ended: the
// worker that ran them (its Run, its recorder, its race state, the last
// schedule's world) must be garbage, however the schedules left rt's
// tables. Each test below holds the Run of its last schedule weakly and
// checks, after a collection, that nothing kept it.

// runGone explores body for n schedules and reports whether the Run of the
// schedules is garbage once Explore has returned.
func runGone(t *testing.T, n int, body func()) bool {
	t.Helper()
	var run weak.Pointer[core.Run]
	res, err := morpheus.Explore(func(*morpheus.Env) {
		run = weak.Make(core.CurrentTask().Run())
		body()
	}, morpheus.Iterations(n), morpheus.Workers(1), morpheus.Seed(1), morpheus.AllowLeaks(true))
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil {
		t.Fatal(res.Failure.Report())
	}
	for range 3 {
		runtime.GC()
	}
	return run.Value() == nil
}

// rt's state of a schedule (plain-memory locations, rand, finalizers) is
// the schedule's own: a table of it keyed by the Run kept every worker of
// the process alive.
func TestScheduleStateIsNotRetained(t *testing.T) {
	if !runGone(t, 3, func() {
		x := new([64]int)
		*rt.Write(&x[3], "x[3]") = 1
		_ = rt.RandIntn(10)
	}) {
		t.Fatal("the worker of a finished exploration is still reachable: rt keeps its schedules' state")
	}
}
