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

// kept holds a channel past its schedule, as a package-level channel or a
// value that rewritten code keeps does.
var kept []chan int

// A goroutine still blocked on a channel when its schedule ends is killed;
// the channel, which outlives the schedule, must not keep its wait-queue
// entry, whose task holds the schedule's world and the worker.
func TestBlockedWaiterIsNotRetained(t *testing.T) {
	for _, tc := range []struct {
		name string
		wait func(ch chan int)
	}{
		{"recv", func(ch chan int) { rt.Recv(ch) }},
		{"send", func(ch chan int) { rt.Send(ch, 1) }},
		{"select", func(ch chan int) {
			other := rt.Make[chan int](0)
			rt.Select(false, rt.OnRecv(ch), rt.OnSend(other, 2))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kept = nil
			defer func() { kept = nil }()
			if !runGone(t, 2, func() {
				ch := rt.Make[chan int](0)
				kept = append(kept, ch)
				rt.Go(func() { tc.wait(ch) })
				rt.Gosched()
			}) {
				t.Fatal("the worker of a finished exploration is still reachable: a channel that outlived its schedule keeps a killed waiter")
			}
		})
	}
}

// A cleanup registered in a schedule (t.Cleanup) must not outlive it: the
// list of cleanups is reused from schedule to schedule and test to test,
// and a function left in its array kept what it captured.
func TestCleanupIsNotRetained(t *testing.T) {
	var obj weak.Pointer[[1 << 16]byte]
	rt.Test(t, func(t *testing.T) {
		big := new([1 << 16]byte)
		obj = weak.Make(big)
		rt.Cleanup(t, func() { big[0] = 1 })
	})
	for range 3 {
		runtime.GC()
	}
	if obj.Value() != nil {
		t.Fatal("an object a finished schedule's cleanup captured is still reachable")
	}
}
