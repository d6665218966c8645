package morpheus_test

import (
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
)

func TestMonitorDownOnExit(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		n := e.NewNode("n1", nil)
		w := n.Spawn("worker", func(e *morpheus.Env) { e.Exit("boom") })
		ref := e.Watch(w)
		d := morpheus.Recv[morpheus.Down](e)
		e.Assert(d.Ref == ref && d.PID == w, "down for %v", d.PID)
		// Before or after the worker's exit: either it is noted with its
		// reason or the monitor came too late (noproc).
		e.Assert(d.Reason == "boom" || d.Reason == morpheus.ReasonNoProc, "reason %v", d.Reason)
		e.Assert(!w.Alive(), "worker still alive")
	}, morpheus.Iterations(200))
	mustPass(t, res)
}

func TestCrashRestart(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		starts := 0
		n := e.NewNode("n1", func(e *morpheus.Env) {
			starts++
			e.Register("svc")
			for {
				m := morpheus.Recv[morpheus.PID](e)
				e.Send(m, starts)
			}
		})
		var svc morpheus.PID
		for svc.IsZero() {
			svc = e.Whereis(n, "svc")
			if svc.IsZero() {
				e.Sleep(time.Millisecond)
			}
		}
		ref := e.Watch(svc)
		n.Crash()
		d := morpheus.Recv[morpheus.Down](e)
		e.Assert(d.Ref == ref && d.Reason == morpheus.ReasonNodeDown, "down %+v", d)
		e.Assert(e.Whereis(n, "svc").IsZero(), "registry survived the crash")
		e.Send(svc, e.Self()) // dropped: the node is down
		n.Restart()
		var again morpheus.PID
		for again.IsZero() {
			again = e.Whereis(n, "svc")
			if again.IsZero() {
				e.Sleep(time.Millisecond)
			}
		}
		e.Assert(again != svc, "same process after restart")
		e.Send(again, e.Self())
		e.Assert(morpheus.Recv[int](e) == 2, "start function ran twice")
	}, morpheus.Iterations(300))
	mustPass(t, res)
}

func TestLinkPropagatesAndTraps(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		n := e.NewNode("n1", nil)
		main := e.Self()
		a := n.Spawn("a", func(e *morpheus.Env) {
			morpheus.Recv[string](e)
			e.Exit("failed")
		})
		b := n.Spawn("b", func(e *morpheus.Env) {
			e.Link(a)
			e.Send(main, "linked")
			morpheus.Recv[int](e) // killed through the link before this arrives
		})
		e.TrapExits(true)
		morpheus.Recv[string](e)
		e.Link(b)
		e.Send(a, "go")
		sig := morpheus.Recv[morpheus.ExitSignal](e)
		e.Assert(sig.From == b && sig.Reason == "failed", "exit signal %+v", sig)
		e.Assert(!a.Alive() && !b.Alive(), "a or b alive")
	}, morpheus.Iterations(300))
	mustPass(t, res)
}

func TestKillUntrappable(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		n := e.NewNode("n1", nil)
		main := e.Self()
		v := n.Spawn("victim", func(e *morpheus.Env) {
			e.TrapExits(true)
			e.Send(main, "ready")
			for {
				e.Receive(nil)
			}
		})
		ref := e.Watch(v)
		morpheus.Recv[string](e)
		e.Kill(v, "polite") // trapped: arrives as a message
		e.Kill(v, morpheus.ReasonKilled)
		d := morpheus.Recv[morpheus.Down](e)
		e.Assert(d.Ref == ref && d.Reason == morpheus.ReasonKilled, "down %+v", d)
	}, morpheus.Iterations(100))
	mustPass(t, res)
}

func TestRegisterConflicts(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		n := e.NewNode("n1", nil)
		won := 0
		main := e.Self()
		for range 2 {
			n.Spawn("", func(e *morpheus.Env) {
				if e.Register("leader") {
					won++
				}
				e.Send(main, true)
				e.Receive(nil) // hold the name until the end
			})
		}
		morpheus.Recv[bool](e)
		morpheus.Recv[bool](e)
		e.Assert(won == 1, "%d processes registered the same name", won)
	}, morpheus.Iterations(200))
	mustPass(t, res)
}
