package core

import "time"

// The watchdog's limit is wall-clock time, and on a loaded machine a task
// that is working may not get a processor for longer than the limit: a
// step that computes for a second, or an uncontrolled goroutine (net/http's,
// a real timer's) that the task waits for, then looks exactly like a task
// blocked for good. So the watchdog counts a tick against a task only when
// the process was not starved during it: where the operating system tells
// how long the process's threads waited for a processor (Linux's
// /proc/self/task/*/schedstat), a tick in which they waited for at least
// half of it is a starved tick. A task blocked for good sleeps, and so do
// the threads that would wake it: its ticks count, and it is reported
// after the limit as on an idle machine. A task that works, or waits for
// one that works, on a starved machine is not, until the machine lets it
// run or starvedTicks ticks have passed without progress (the limit times
// starvedTicks/strikes), when it is reported whatever the load.

// starvedTicks is how many ticks without progress, starved or not, make a
// task stuck whatever the load: five times the limit.
const starvedTicks = 5 * strikes

// strikeCount is the watchdog's count of ticks without progress for one
// worker: strikes counts the ticks that were not starved, ticks all.
type strikeCount struct {
	strikes, ticks int
}

// tick counts one tick without progress and reports whether the task
// counts as stuck now.
func (c *strikeCount) tick(starved bool) bool {
	c.ticks++
	if !starved {
		c.strikes++
	}
	return c.strikes >= strikes || c.ticks >= starvedTicks
}

// reset starts counting again after progress.
func (c *strikeCount) reset() { *c = strikeCount{} }

// starvation samples the process's run-queue wait and tells, per tick,
// whether the process was starved since the last sample.
type starvation struct {
	read   func() (time.Duration, bool) // the process's total run-queue wait, if known
	now    func() time.Time
	wait   time.Duration
	at     time.Time
	valid  bool
	recent bool // the last interval was starved
}

// newStarvation samples with the platform's reader (runQueueWait).
func newStarvation() *starvation {
	s := &starvation{read: runQueueWait, now: time.Now}
	s.sample()
	return s
}

// sample takes a new reading and records whether the interval since the
// last one was starved: the process's threads waited for a processor, in
// total, for at least half of its wall-clock length. Without a reading
// (another platform, or /proc unreadable) no interval is starved.
func (s *starvation) sample() {
	w, ok := s.read()
	t := s.now()
	s.recent = ok && s.valid && 2*(w-s.wait) >= t.Sub(s.at)
	s.wait, s.at, s.valid = w, t, ok
}
