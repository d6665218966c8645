package csync_test

import (
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

var start = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// past reports whether got is past want by less than a microsecond: a task
// that a deadline woke reads a time a little past it (a nanosecond for every
// move of the clock), as on a real machine.
func past(got, want time.Time) bool { return got.After(want) && got.Sub(want) < time.Microsecond }

// Sleep moves the virtual clock, not the wall clock; Now and Since read it.
func TestSleepVirtualClock(t *testing.T) {
	wall := time.Now()
	mustPass(t, explore(t, func(e *morpheus.Env) {
		t0 := csync.Now()
		e.Assert(t0.Equal(start), "epoch %v", t0)
		csync.Sleep(time.Minute)
		e.Assert(past(csync.Now(), t0.Add(time.Minute)), "slept %v", csync.Since(t0))
		// Two reads in a row: the second is a nanosecond later.
		e.Assert(csync.Until(t0.Add(2*time.Minute)) == time.Minute-csync.Since(t0.Add(time.Minute))+time.Nanosecond, "until")
		csync.Sleep(-1)
		e.Assert(past(csync.Now(), e.Now()), "csync's clock is not a little ahead of Env's: %v, %v", csync.Now(), e.Now())
	}, morpheus.Iterations(5)))
	// Real minutes would take 5; a loaded machine takes well under one.
	if d := time.Since(wall); d > time.Minute {
		t.Errorf("virtual minutes took real time: %v", d)
	}
}

// A timer fires at its deadline, on the virtual clock; Stop prevents the
// firing and Reset moves it.
func TestTimer(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		tm := csync.NewTimer(time.Second)
		at := tm.C.Recv()
		e.Assert(past(at, start.Add(time.Second)), "fired at %v", at)
		e.Assert(!tm.Stop(), "Stop of a fired timer")
		e.Assert(!tm.Reset(2*time.Second), "Reset of a fired timer reports inactive")
		e.Assert(past(tm.C.Recv(), at.Add(2*time.Second)), "reset timer")
		e.Assert(tm.C.Len() == 0 && tm.C.Cap() == 0, "timer channel len/cap")

		tm = csync.NewTimer(time.Second)
		e.Assert(tm.Stop(), "Stop of a pending timer")
		got := false
		csync.Select(csync.Recv(tm.C, func(time.Time, bool) { got = true }), csync.Recv(csync.After(5*time.Second), nil))
		e.Assert(!got && past(csync.Now(), start.Add(8*time.Second)), "stopped timer fired (%v)", csync.Since(start))
	}, morpheus.Iterations(20)))
}

// A stale value is gone after Stop and Reset (Go 1.23 semantics).
func TestTimerNoStaleValue(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		tm := csync.NewTimer(time.Second)
		csync.Sleep(2 * time.Second) // fired, not received
		e.Assert(!tm.Reset(time.Second), "fired timer reported active")
		at := tm.C.Recv()
		e.Assert(past(at, start.Add(3*time.Second)), "received the stale value %v", at)
	}, morpheus.Iterations(5)))
}

// AfterFunc runs its function in a task of its own, which can block.
func TestAfterFunc(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		c := csync.Make[time.Time](0)
		csync.AfterFunc(time.Minute, func() { c.Send(csync.Now()) })
		e.Assert(past(c.Recv(), start.Add(time.Minute)), "AfterFunc time")
		stopped := csync.AfterFunc(time.Minute, func() { e.Fatalf("stopped AfterFunc ran") })
		e.Assert(stopped.Stop(), "Stop")
		csync.Sleep(5 * time.Minute)
	}, morpheus.Iterations(20)))
}

// A ticker ticks every period until stopped; a goroutine waiting on a timer
// that never fires keeps the main task from being deadlocked, but the clock
// limit catches it.
func TestTicker(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		tk := csync.NewTicker(10 * time.Millisecond)
		for i := 1; i <= 3; i++ {
			at := tk.C.Recv()
			e.Assert(past(at, start.Add(time.Duration(i)*10*time.Millisecond)), "tick %d at %v", i, at)
		}
		tk.Reset(time.Second)
		e.Assert(past(tk.C.Recv(), start.Add(1030*time.Millisecond)), "after Reset")
		tk.Stop()
		csync.Select(csync.Recv(tk.C, func(time.Time, bool) { e.Fatalf("tick after Stop") }), csync.Recv(csync.After(time.Minute), nil))
	}, morpheus.Iterations(10)))
	mustFail(t, explore(t, func(e *morpheus.Env) {
		tk := csync.NewTicker(time.Second)
		for {
			tk.C.Recv()
		}
	}, morpheus.Iterations(1), morpheus.ClockLimit(time.Minute)), "clock-limit", "stuck")
}

// A time-out races with the work it guards only when nothing else can run:
// the work always wins here, whatever the strategy.
func TestTimeoutAfterWork(t *testing.T) {
	for _, s := range []string{"random", "pos*", "pct:3"} {
		mustPass(t, explore(t, func(e *morpheus.Env) {
			c := csync.Make[int](0)
			csync.Go(func() { c.Send(1) })
			csync.Select(csync.Recv(c, nil), csync.Recv(csync.After(time.Second), func(time.Time, bool) { e.Fatalf("timed out") }))
		}, morpheus.Iterations(100), morpheus.Strategy(s)))
	}
}
