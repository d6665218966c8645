package core

import "github.com/morpheus-go/morpheus/trace"

// WaitIdle blocks t, the running task, until no other task can run: every
// other goroutine of the iteration is blocked, on an op or until a deadline
// (testing/synctest's Wait, whose bubble is the iteration). It is the point
// at which the clock would move on: nothing is enabled. The wait is an op
// of kind yield, located at pc.
func (r *Run) WaitIdle(t *Task, pc uintptr) {
	r.idle = append(r.idle, t)
	r.Do(t, Op{Kind: trace.KindYield, Obj: -1, Blocked: true, PC: pc, On: idleOn{}})
}

// idleOn names what WaitIdle waits for, in reports.
type idleOn struct{}

func (idleOn) String() string { return "every other goroutine blocked (synctest.Wait)" }

// wakeIdle enables the ops of the tasks in WaitIdle, when nothing else is
// enabled. It reports whether it enabled any.
func (m *machine) wakeIdle() bool {
	woke := false
	for _, t := range m.idle {
		if t.state != taskDone && t.hasOp && t.parked {
			m.unblock(t)
			woke = true
		}
	}
	clear(m.idle)
	m.idle = m.idle[:0]
	return woke
}
