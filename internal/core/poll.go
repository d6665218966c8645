package core

import (
	"fmt"
	"strings"
)

// The polling clock. Virtual time moves when no task can run: the clock
// jumps to the nearest deadline. A task that polls (a select that takes
// its default, a load of a flag, runtime.Gosched, a read of the clock, a
// lock taken to read and released) can always run, so a program that waits
// for time by polling would never see it move, and end at the step limit;
// on a real machine the poller spins until the sleeper it waits for wakes.
//
// So polling counts as waiting. A step is quiet when its op is Read or
// Quiet: it changes nothing another task waits for (a load, a lock taken or
// released); a Poll op is a quiet one that asks whether something happened
// and goes on if not (a select that takes its default, a yield, a clock read
// again and again: see prim.Now). When the last pollSteps steps were all
// quiet (as a poll finds), and every task that can run has polled since the last step that
// was not, and its next op is quiet too, every task that can run is
// waiting: the clock moves on, by pollSpan, doubled at every further
// pollSteps quiet steps, and never past the nearest deadline, which it
// reaches soon (14 doublings from 1 µs pass 10 ms, 30 the default clock
// limit). Timers keep their order: only the nearest deadline's ops are
// enabled by a move. The first step that is not quiet (a write, a send, a
// wake) starts the count again, at pollSpan.
//
// Only polls make a task a poller: a computation that reads shared memory
// and takes locks, but asks for nothing, never moves the clock this way,
// however long it reads (a thousand Gets of a cache under its lock must not
// expire the cache's entries); only the slow drift (below) moves it then,
// so tests that do not poll keep their schedules. The first span is short and
// grows, so that a task that spins on the clock (for time.Since(t0) < d)
// sees time pass by little steps, not a jump to a far deadline. Moving the
// clock is a function of the schedule's steps alone, so a replay moves it
// alike.
//
// Polling that no deadline ends (every task that can run polls for a
// change nobody will make) moves the clock only where time can matter to
// it (timeMatters: a poller reads the clock, the test has returned, or a
// liveness monitor is hot), to the clock limit, where the iteration ends as
// stuck (or, once the main task has returned, as a leak) rather than at the
// step limit; other polling with no deadline pending leaves the clock where
// it is, so that a finite loop of polls ends as it would on a machine, and
// an endless one meets the step limit. A loop that spins on a load without
// polling (for !flag.Load() {}, no Gosched) is not seen as waiting: it
// runs on the fair random walk until the step limit (see Config.FairAfter).

const (
	// pollSteps is how many quiet steps in a row make the program one that
	// polls, and how many more double the clock's move (machine.pollSteps,
	// which scripts set).
	pollSteps = 64
	// pollSpan is the clock's first move when every task polls (ns).
	pollSpan = int64(1000)
)

// NotePoll tells the scheduler that the running task is about to post a
// Poll op that is not blocked (a select that will take its default): from
// then on decide counts quiet steps. A blocked Poll (a yield) tells it
// itself. Until an iteration's first poll, its steps cost nothing more.
func (r *Run) NotePoll() { r.m.notePoll() }

// quietStep counts the step that runs t's op (decide; m.step is its number),
// once the iteration has polled: a Poll is t's latest, and once pollSteps
// quiet steps ran in a row, collect asks polling. A step with an effect is
// not counted: the next quiet step finds the one before it was not quiet,
// and starts the run again.
//
//go:noinline
func (m *machine) quietStep(t *Task) {
	if !t.op.Read && !t.op.Quiet {
		return
	}
	if m.lastQuiet+1 != m.step {
		m.quietFrom = m.step
	}
	m.lastQuiet = m.step
	if t.op.Poll {
		m.pollStep(t)
	}
}

// pollStep counts a Poll op of t (quietStep): once pollSteps quiet steps ran
// in a row, collect asks polling. Only a poll asks, as only a task that
// polled counts as a poller.
func (m *machine) pollStep(t *Task) {
	t.pollAt = m.step
	if m.step-m.quietFrom+1 >= m.pollSteps {
		m.pollDue, m.extra = true, true
	}
}

// polling moves the clock when every task that can run is polling (see
// above): it reports whether the clock moved, or the iteration ended
// (aborting) because polling met the clock limit. collect calls it, with
// the enabled set built, once quiet steps may have made a poller (pollDue);
// it asks again every pollSteps steps while they go on.
func (m *machine) polling() bool {
	if m.lastQuiet != m.step {
		m.pollDue = false // a step with an effect ran since
		m.extra = m.early > 0
		return false
	}
	if m.step-m.pollAt < m.pollSteps {
		return false
	}
	m.pollAt = m.step
	for _, t := range m.enabledT {
		if op := &t.op; t.pollAt < m.quietFrom || !op.Read && !op.Quiet {
			return false
		}
	}
	next := m.nextDeadline()
	if next < 0 && !m.timeMatters() {
		return false
	}
	span := pollSpan << min((m.step-m.quietFrom+1)/m.pollSteps-1, 40)
	to := m.clock + span
	if next >= 0 && next < to {
		to = next
	}
	if to > m.limit {
		m.pollStuck()
		return true
	}
	m.moveClock(to)
	return true
}

// timeMatters reports whether moving the clock can change what the pollers
// see when no deadline is pending: a poller read the clock since the quiet
// steps began (it spins on time.Since), the test has returned (the pollers
// are left over, and the clock limit ends them as a leak), or a liveness
// monitor is hot (the clock limit ends the wait for its progress).
// Otherwise no time can bring what they poll for, and the clock stays: a
// finite loop of polls (a thousand TryGo's on a full semaphore) runs to its
// end, and one that never ends meets the step limit, as a livelock.
func (m *machine) timeMatters() bool {
	if m.main.state == taskDone || m.live != nil && m.live.Hot() {
		return true
	}
	for _, t := range m.enabledT {
		if t.readAt >= m.quietFrom {
			return true
		}
	}
	return false
}

// pollStuck ends an iteration whose tasks poll on beyond the clock limit.
func (m *machine) pollStuck() {
	why := fmt.Sprintf("polling at the clock limit %s, and nothing else can happen before it", fmtNS(m.limit))
	if m.main.state == taskDone && (m.live == nil || !m.live.Hot()) {
		if gs := m.leaked(); len(gs) > 0 {
			m.fail(m.leakFailure(gs, "still "+why))
			return
		}
	}
	if m.live != nil && m.live.Hot() {
		m.fail(&Failure{Kind: Liveness, Task: -1, Message: "no progress: a monitor is hot and every task that can run is " + why + "\n" + m.live.Describe()})
		return
	}
	m.fail(&Failure{Kind: ClockLimit, Task: m.main.ID, Message: fmt.Sprintf(
		"stuck: every task that can run is %s:\n%s", why, m.pollReport())})
}

// pollReport lists the polling tasks and where they poll.
func (m *machine) pollReport() string {
	var b strings.Builder
	for i, t := range m.enabledT {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "  %s: polls in %v", t.Name, t.op.Kind)
		if t.op.PC != 0 {
			b.WriteString(" at " + Where(t.op.PC))
		}
	}
	return b.String()
}

// Wall returns the time a task reads, in ns since the start of the
// iteration: the clock, plus a nanosecond for every move of the clock so
// far. A task that a deadline woke (the clock moved to it) reads a time
// past the deadline, as on a real machine, where a sleeper always wakes a
// little late; the clock itself, which deadlines are set on, stays exact,
// so timers that fall due at the same instant still do, and the strategy
// orders them.
func (r *Run) Wall() int64 { return r.m.wall() }

// ReadWall is the time a task reads of the clock (time.Now): Wall, but
// never a time an earlier read of the iteration returned, as a real clock's
// nanoseconds do not repeat. A read that would return the last read's time
// again puts the reckoning a nanosecond further ahead (as a move of the
// clock does), so names made of two reads in a row (a socket's path) differ.
// The clock itself does not move. In exact mode (a synctest bubble), reads
// repeat, as the bubble's clock does.
func (r *Run) ReadWall() int64 { return r.m.readWall() }

// ExactClock makes the rest of the iteration read the clock as it is: a
// task a deadline wakes reads the deadline itself, plus the nanoseconds
// moves of the clock added before (so time never goes back). A
// testing/synctest bubble promises that: its sleepers wake exactly on time.
func (r *Run) ExactClock() { r.m.exactClock() }

// Virtual converts a time a task read (Wall's reckoning) to the clock's:
// the deadline, on the clock, of a wait until then.
func (r *Run) Virtual(wall int64) int64 { return r.m.virtual(wall) }

// clockReads is how many reads of the clock without a step between them
// make the next one a poll (ReadClock).
const clockReads = 64

// ReadClock tells the scheduler that t, the running task, reads the clock,
// and reports whether the read must be a Poll op: t read the clock
// clockReads times and no step ran since. A loop that spins on the clock
// alone (for time.Since(t0) < d {}) runs no op, and would run for ever on a
// clock that cannot move while it runs; its every clockReads-th read is a
// scheduling point instead, and a poll, so that time moves while it spins.
// A task that reads the clock now and then is not slowed down.
func (r *Run) ReadClock(t *Task) bool {
	if step := r.m.steps(); t.readAt != step {
		t.readAt, t.reads = step, 0
	}
	t.reads++
	return t.reads%clockReads == 0
}

// The clock's drift. A task that polls and does some work between polls (a
// worker loop that counts its rounds and checks a stop channel with a
// select's default) is not quiet, yet it waits for time as much as a poller:
// on a real machine its loop takes time, and the sleeper it waits for wakes.
// So time also moves with steps, slowly: every driftSteps steps without a
// move of the clock, it moves by driftSpan (100 ns a step, a slow machine's
// pace), never past the nearest deadline, and only while one is pending, so
// that tests without timers read the same times as before and tests that
// move the clock more often than that (nearly all) keep their schedules. A
// computation of a hundred thousand steps under a 10 ms time-out may then
// time out, which a machine that slow would show too.
//
// At that pace a second of virtual time takes ten million steps: a stress
// test whose goroutines loop, each round a poll of a done channel and some
// work, until a time.AfterFunc of one second closes it, ran to the hard
// step bound (ten times the step limit) as "a livelock" with the clock at
// 0.999 s, though go test runs it in a second. Past the step limit, so only
// in a run already longer than any a strategy explores, a drift in which
// every task that can run polled since the last one (each loops around a
// poll that finds nothing: the program waits, and works while it waits)
// moves the clock twice as far as the drift before it, while drifts follow
// each other with no other move of the clock: a deadline a second away is
// reached some ten drifts later instead of a thousand. A drift with a task
// that can run and has not polled (a computation) keeps the slow pace, and
// the doubling starts again from it; so does any other move of the clock.
// Tasks that keep each other busy without a deadline pending (a livelock)
// meet the hard bound as before: the drift never moves the clock then.
// Accesses to memory of a task's own, which are no steps, count towards the
// drift too (ownedpace.go).
const (
	driftSteps = 10_000
	driftPace  = int64(100) // ns a step
)

// drift moves the clock by its span towards the nearest deadline, if one is
// pending within the clock limit (checkpoint calls it at driftAt).
func (m *machine) drift() {
	next := m.nextDeadline()
	if next < 0 || next > m.limit {
		m.driftAt = m.step + m.driftSteps
		return
	}
	span := int64(m.driftSteps) * driftPace
	if m.clock != m.driftTo || m.step < m.softSteps || !m.allPolled(m.step-m.driftSteps) {
		m.driftRun = 0 // the clock moved otherwise since, or the run is short, or a task computes
	} else {
		m.driftRun++
		span <<= min(m.driftRun, 40)
	}
	m.driftTo = min(m.clock+span, next)
	m.moveClock(m.driftTo)
}

// allPolled reports whether every task that could run at the last step has
// posted a Poll op after step from.
func (m *machine) allPolled(from int) bool {
	for _, t := range m.enabledT {
		if t.pollAt <= from {
			return false
		}
	}
	return len(m.enabledT) > 0
}
