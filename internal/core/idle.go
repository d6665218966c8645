package core

import "github.com/morpheus-go/morpheus/trace"

// WaitIdle blocks t, the running task, until no other task can run: every
// other goroutine of the iteration is blocked, on an op or until a deadline
// (testing/synctest's Wait, whose bubble is the iteration). It is the point
// at which the clock would move on: nothing is enabled. The wait is an op
// of kind yield, located at pc. What the other tasks did happens before it
// returns (those that ended too), for the data-race check, as with
// synctest.Wait.
func (r *Run) WaitIdle(t *Task, pc uintptr) {
	r.m.waitIdle(t)
	r.Do(t, Op{Kind: trace.KindYield, Obj: -1, Blocked: true, PC: pc, On: idleOn{}})
	if r.race.off {
		return
	}
	key := uint64(r.NewResource()) << 32
	for _, u := range r.m.all() {
		if u != t && u.fire == nil && u.state != taskNew {
			r.RaceSync(u.ID, key)
		}
	}
	r.RaceSync(t.ID, key)
}

// idleOn names what WaitIdle waits for, in reports.
type idleOn struct{}

func (idleOn) String() string { return "every other goroutine blocked (synctest.Wait)" }

// wakeIdle enables the ops of the tasks in WaitIdle, when nothing else is
// enabled. It reports whether it enabled any.
func (m *machine) wakeIdle() bool {
	woke := false
	for _, t := range m.idle {
		if t.state == taskParked {
			m.unblock(t)
			woke = true
		}
	}
	clear(m.idle)
	m.idle = m.idle[:0]
	return woke
}

// BubbleClockLimit is how many times the configured clock limit an
// iteration gets once it runs a testing/synctest bubble (WidenClockLimit).
const BubbleClockLimit = 1000

// WidenClockLimit raises the iteration's clock limit to BubbleClockLimit
// times the configured one (ten virtual minutes make a week): a synctest
// bubble's clock has no limit, and its tests sleep for hours, which
// virtual time makes instant. The limit still ends a run whose timers fire
// forever. Raising it again does nothing.
func (r *Run) WidenClockLimit() {
	limit := r.cfg.ClockLimit
	if limit <= 0 {
		limit = DefaultClockLimit
	}
	if w := limit * BubbleClockLimit; w/BubbleClockLimit == limit {
		r.m.widenClock(w)
	}
}
