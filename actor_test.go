package morpheus_test

import (
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/mtest"
)

// The assertions shared with the other packages' tests (internal/mtest).
var (
	explore  = mtest.Explore
	mustPass = mtest.MustPass
	mustFail = mtest.MustFail
)

type ping struct{ from morpheus.PID }
type pong struct{}

func TestPingPong(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		n := e.NewNode("n1", nil)
		srv := n.Spawn("server", func(e *morpheus.Env) {
			for {
				p := morpheus.Recv[ping](e)
				e.Send(p.from, pong{})
			}
		})
		for range 3 {
			e.Send(srv, ping{from: e.Self()})
			morpheus.Recv[pong](e)
		}
	}, morpheus.Iterations(200))
	mustPass(t, res)
	if res.Iterations != 200 {
		t.Fatalf("ran %d iterations, want 200", res.Iterations)
	}
	// 3 round trips of 4 ops, starts, spawn, exit: every iteration has the same length.
	if res.Steps%200 != 0 || res.Steps/200 < 14 {
		t.Fatalf("steps %d over 200 iterations: want the same count ≥ 14 in each", res.Steps)
	}
}

// counterServer holds an int: an int message writes it, a PID message asks
// for it. Clients that read, add and write race with each other.
func counterServer(e *morpheus.Env) {
	v := 0
	for {
		switch m := e.Receive(nil).(type) {
		case int:
			v = m
		case morpheus.PID:
			e.Send(m, v)
		}
	}
}

// A lost-update race between two processes: found, with the right location.
func TestFindsAssertion(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		n := e.NewNode("n1", nil)
		counter := n.Spawn("counter", counterServer)
		done := e.Self()
		for range 2 {
			n.Spawn("incr", func(e *morpheus.Env) {
				e.Send(counter, e.Self())
				v := morpheus.Recv[int](e)
				e.Send(counter, v+1)
				e.Send(done, "done")
			})
		}
		morpheus.Recv[string](e)
		morpheus.Recv[string](e)
		e.Send(counter, e.Self())
		v := morpheus.Recv[int](e)
		e.Assert(v == 2, "lost update: counter is %d after two increments", v)
	}, morpheus.Iterations(2000))
	f := mustFail(t, res, "assertion", "lost update")
	if !strings.HasPrefix(f.Location, "actor_test.go:") || f.Task != "main" {
		t.Fatalf("failure at %q in %q, want actor_test.go in main", f.Location, f.Task)
	}
	if f.Trace == nil || f.Trace.Steps() != f.Steps {
		t.Fatalf("trace missing or of the wrong length")
	}
}

func TestPanicInProcess(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		n := e.NewNode("n1", nil)
		n.Spawn("bad", func(e *morpheus.Env) {
			var m map[string]int
			//lint:ignore SA5000 the panic is the test
			m["x"] = 1 // nil map write
		})
		e.Sleep(time.Second)
	}, morpheus.Iterations(10))
	f := mustFail(t, res, "panic", "assignment to entry in nil map")
	if f.Task != "bad@n1" || !strings.Contains(f.Stack, "actor_test.go") || !strings.HasPrefix(f.Location, "actor_test.go:") {
		t.Fatalf("task %q location %q; stack:\n%s", f.Task, f.Location, f.Stack)
	}
}

func TestDeadlockReport(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		n := e.NewNode("n1", nil)
		n.Spawn("waiter", func(e *morpheus.Env) { morpheus.Recv[int](e) })
		morpheus.Recv[string](e)
	}, morpheus.Iterations(5))
	f := mustFail(t, res, "deadlock", "main: waits in receive at actor_test.go")
	if !strings.Contains(f.Message, "waiter@n1: waits in receive") {
		t.Fatalf("report does not list the waiter:\n%s", f.Message)
	}
}

func TestStepLimit(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		for {
			e.Yield()
		}
	}, morpheus.Iterations(3), morpheus.MaxSteps(500))
	// Past the limit it runs on to ten times it, the hard bound; there main,
	// which ran alone and polls nothing (a yield is no poll), may be a long
	// computation, and runs on to ten times that, where it fails as a loop,
	// not a livelock.
	f := mustFail(t, res, "step-limit", "no end after 50000 steps (the step limit is 500 steps): main ran alone")
	if f.Steps != 50000 || f.Iteration != 0 {
		t.Fatalf("steps %d iteration %d", f.Steps, f.Iteration)
	}
}

func TestClockLimit(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		n := e.NewNode("n1", nil)
		n.Spawn("ticker", func(e *morpheus.Env) {
			for {
				e.Sleep(time.Second)
			}
		})
		morpheus.Recv[string](e) // never comes: the clock runs to its limit
	}, morpheus.Iterations(2), morpheus.ClockLimit(time.Minute))
	f := mustFail(t, res, "clock-limit", "stuck")
	if f.Clock != time.Minute {
		t.Fatalf("failed at virtual time %v, want 1m", f.Clock)
	}
}

func TestTimersAndTimeouts(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		start := e.Now()
		e.SendAfter(3*time.Second, e.Self(), "late")
		t2 := e.SendAfter(time.Second, e.Self(), "cancelled")
		e.Assert(e.Cancel(t2), "cancel of a pending timer")
		_, ok := morpheus.RecvTimeout[string](e, 2*time.Second)
		e.Assert(!ok, "nothing arrives within 2s")
		e.Assert(e.Elapsed() == 2*time.Second, "time-out at %v", e.Elapsed())
		m := morpheus.Recv[string](e)
		e.Assert(m == "late", "got %q", m)
		e.Assert(e.Now().Sub(start) == 3*time.Second, "timer fired at %v", e.Now().Sub(start))
		e.Sleep(time.Hour)
		e.Assert(e.Elapsed() == time.Hour+3*time.Second, "slept until %v", e.Elapsed())
	}, morpheus.Iterations(50), morpheus.ClockLimit(2*time.Hour))
	mustPass(t, res)
}

func TestChooseExploresValues(t *testing.T) {
	seen := [3]bool{}
	res := explore(t, func(e *morpheus.Env) {
		seen[e.Choose(3)] = true
	}, morpheus.Iterations(100), morpheus.Workers(1))
	mustPass(t, res)
	if seen != [3]bool{true, true, true} {
		t.Fatalf("values chosen: %v", seen)
	}
}

func TestSelectiveReceive(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		self := e.Self()
		e.Send(self, 1)
		e.Send(self, "a")
		e.Send(self, 2)
		e.Assert(morpheus.Recv[string](e) == "a", "string first")
		e.Assert(morpheus.Recv[int](e) == 1, "then ints in order")
		e.Assert(morpheus.Recv[int](e) == 2, "then ints in order")
	}, morpheus.Iterations(10))
	mustPass(t, res)
}

// Messages from one sender to one receiver keep their order under every schedule.
func TestFIFOPerPair(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		n := e.NewNode("n1", nil)
		main := e.Self()
		for s := range 2 {
			n.Spawn("sender", func(e *morpheus.Env) {
				for i := range 3 {
					e.Send(main, [2]int{s, i})
				}
			})
		}
		next := [2]int{}
		for range 6 {
			m := morpheus.Recv[[2]int](e)
			e.Assert(m[1] == next[m[0]], "sender %d: got message %d, want %d", m[0], m[1], next[m[0]])
			next[m[0]]++
		}
	}, morpheus.Iterations(300))
	mustPass(t, res)
}

// Every primitive records the user's call site, not a line inside morpheus.
func TestLocationsPointAtCallers(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		n := e.NewNode("n1", func(e *morpheus.Env) { e.Register("init") })
		p := n.Spawn("p", func(e *morpheus.Env) {
			e.TrapExits(true)
			morpheus.Recv[int](e)
			e.Receive(nil)
			e.ReceiveTimeout(nil, time.Second)
			morpheus.RecvTimeout[string](e, time.Second)
		})
		e.Spawn("q", func(e *morpheus.Env) {})
		ref := e.Watch(p)
		e.Unwatch(ref)
		e.Link(p)
		e.Unlink(p)
		e.Send(p, 1)
		e.Send(p, "x")
		tm := e.SendAfter(time.Second, p, 2)
		e.Cancel(tm)
		e.Whereis(n, "init")
		e.Register("main")
		e.Unregister("main")
		e.Sleep(time.Millisecond)
		e.Yield()
		e.Choose(2)
		e.ChooseBool()
		e.Kill(p, "stop")
		n.Crash()
		n.Restart()
		e.Assert(false, "end")
	}, morpheus.Iterations(1))
	f := mustFail(t, res, "assertion", "end")
	tr := f.Trace
	kinds := map[string]bool{}
	for _, ev := range tr.Events {
		if ev.Loc == 0 {
			continue
		}
		kinds[ev.Kind.String()] = true
		if where := tr.LocString(ev.Loc); !strings.HasPrefix(where, "actor_test.go:") {
			t.Errorf("%v recorded at %s", ev.Kind, where)
		}
	}
	if len(kinds) < 17 {
		t.Errorf("only %d kinds with locations: %v", len(kinds), kinds)
	}
}
