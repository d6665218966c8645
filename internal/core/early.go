package core

// Early timers. Virtual time moves only when no task can run, so a timer,
// sleep or time-out never fires while other work is pending: computation
// takes no time. Real code runs on a machine that can be slow, and a bug
// that needs a timer to fire while a goroutine is still busy (an AfterFunc
// that wins a lock its owner still wants, a Sleep that ends before the
// goroutines it waits for) never shows. With Config.EarlyTimers k, up to k
// times in an iteration the ops waiting for the nearest deadline are
// offered to the strategy beside the enabled ones; picking one moves the
// clock to its deadline first, as if the running work had taken that long.
// Only the nearest deadline is offered, so timers still fire in the order
// of their deadlines, and only if it is at most earlyWindow ahead of the
// clock: a busy machine delays a goroutine by microseconds to a
// millisecond, not by a second. A deadline further ahead is a time-out
// the program means (a test's own watchdog, `case <-time.After(time.Second)`
// beside the work it waits for, a retry's back-off); firing it early would
// fail the test at its own time-out, in the fixed code as in the buggy one,
// instead of reaching the bug. Virtual time stands still while goroutines
// run, so a deadline's distance from the clock is how far ahead its timer
// was set (less the clock's moves since).
//
// And only once other work could have taken that long: an early firing is
// a goroutine delayed by the steps other goroutines run, not by nothing.
// A deadline d ahead of the clock is offered only when the steps run since
// its op began to wait, and since the clock last moved (a move accounts
// for the time before it), take d at earlyPace a step. A nanosecond timer
// is offered at the next step; a test's `time.Sleep(time.Millisecond)`
// "to let the goroutines work off" fires early only after a thousand
// steps of other work, never while three goroutines of a few steps each
// have not run (go-resiliency's breaker test did: a goroutine that can run
// is not descheduled for a millisecond while nothing else runs).

// earlyWindow is how far ahead of the clock, in virtual nanoseconds, a
// deadline may be for its ops to be offered early: one millisecond.
const earlyWindow = 1_000_000

// earlyPace is how long a step takes for an early firing, in virtual
// nanoseconds: a microsecond, a slow step (a lock, a channel operation, a
// shared access under go test -race on a loaded machine), ten times the
// drift's.
const earlyPace = 1_000

// offerEarly adds the ops waiting for deadline next to the enabled set,
// those whose wait the work since could have filled (worked).
func (m *machine) offerEarly(next int64) {
	for id := range m.timed.all() {
		if t := m.tasks[id]; t.op.Deadline == next && m.worked(t, next) {
			m.offer(t)
		}
	}
}

// worked reports whether the steps run since t's op began to wait for
// deadline, and since the clock last moved, counting the step about to
// run, take the time left to it at earlyPace.
func (m *machine) worked(t *Task, deadline int64) bool {
	steps := int64(m.step-max(t.timedAt, m.movedAt)) + 1
	return steps*m.earlyPace >= deadline-m.clock
}

// fireEarly moves the clock to deadline for an op picked before its time,
// enabling the other ops waiting for it.
func (m *machine) fireEarly(deadline int64) {
	m.early--
	m.extra = m.early > 0 || m.pollDue
	m.moveClock(deadline)
}
