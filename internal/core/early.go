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

// earlyWindow is how far ahead of the clock, in virtual nanoseconds, a
// deadline may be for its ops to be offered early: one millisecond.
const earlyWindow = 1_000_000

// offerEarly adds the ops waiting for deadline next to the enabled set.
func (m *machine) offerEarly(next int64) {
	for id := range m.timed.all() {
		if t := m.tasks[id]; t.op.Deadline == next {
			m.offer(t)
		}
	}
}

// fireEarly moves the clock to deadline for an op picked before its time,
// enabling the other ops waiting for it.
func (m *machine) fireEarly(deadline int64) {
	m.early--
	m.extra = m.early > 0 || m.pollDue
	m.moveClock(deadline)
}
