package core

import (
	"fmt"
	"math/bits"

	"github.com/morpheus-go/morpheus/internal/opkind"
	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// decide is the machine's decision (see machine): it asks the strategy for the
// next op among the enabled ones (a strategy.LocalFirst's local op it runs
// without asking: see collect), records the step, and returns the task
// whose op was picked, or nil when the iteration is over (passed, or failed
// with the outcome in failure). The picked op is no longer pending; a
// runtime-owned task (a timer) is then done, and the caller runs its action.
func (m *machine) decide() *Task {
	if m.aborting {
		return nil
	}
	if m.aloneDue != 0 {
		m.countAlone() // (alone.go)
	}
	if m.ownedDue >= ownedPace {
		m.countOwned() // (ownedpace.go)
	}
	if m.step >= m.checkAt && m.checkpoint() {
		return nil
	}
	if m.main.state == taskDone && m.drained() { // drained's own first test, inline
		return nil
	}
	fair := m.fair()
	local, ok := m.collect(m.localFirst && !fair)
	if !ok {
		return nil
	}
	if m.live != nil && m.clock > m.liveAt && m.live.Hot() {
		m.liveAt = m.clock
		if msg := m.live.Expired(m.clock); msg != "" {
			m.fail(&Failure{Kind: Liveness, Task: -1, Message: msg})
			return nil
		}
	}
	t, i := local, -1
	if t == nil {
		if fair {
			i = 0 // a single enabled op takes no draw
			if n := len(m.enabled); n > 1 {
				i = m.tail.IntN(n)
			}
		} else {
			i = m.strat.Next(m.enabled)
		}
		if i < 0 || i >= len(m.enabled) {
			m.diverged("Next")
			return nil
		}
		t = m.enabledT[i]
	}
	if op := &t.op; op.Blocked && op.HasDeadline && op.Deadline > m.clock {
		m.fireEarly(op.Deadline)
	}
	to := taskRunning
	if t.fire != nil {
		to = taskDone // a timer: the caller runs its action
	}
	m.unpend(t, to)
	m.step++
	var flag trace.Flag
	if t.op.Read {
		flag = trace.FlagRead
	}
	if m.polls {
		m.quietStep(t) // (poll.go)
	}
	ev := trace.Event{
		Task: t.ID, Obj: t.op.Obj, Res: t.op.Res, Kind: t.op.Kind,
		Flag: flag, Val: t.op.Val, Loc: uint64(t.op.PC),
	}
	if p := m.rec.Slot(); p != nil {
		*p = ev
		m.last = m.rec.Len() - 1
	} else {
		m.last = m.rec.Append(ev)
	}
	if m.feed.to != nil { // ran's own test, inline
		if i >= 0 {
			m.ran(m.last, m.enabled[i].Sig)
		} else {
			m.ran(m.last, m.sig(t))
		}
	}
	if m.beats != nil {
		beat(m.beats, int64(m.step))
	}
	return t
}

// fair reports whether the next step is picked by a random walk, which
// starves no task, rather than by the strategy (bounded unfairness): past
// Config.FairAfter steps, so that a step limit means no fair schedule
// ends; and in the fair tail, once the test's own work is done and only
// progress a liveness monitor owes keeps the run going, so that a monitor
// that stays hot means no progress, not bad luck. A strategy that follows
// a recorded schedule (a replay, a shrinking guide) picks every step.
func (m *machine) fair() bool {
	if m.step < m.fairFrom && (m.main.state != taskDone || m.live == nil) {
		return false
	}
	return m.follower == nil || !m.follower.Following()
}

// collect fills the enabled set, advancing the clock if nothing is enabled
// now. It returns false, with the outcome recorded, if the iteration is over.
// With localFirst (the strategy is a strategy.LocalFirst, and decides this
// step) it returns instead the task of the first enabled op that is local,
// if any, as soon as it finds it: the strategy would pick it.
func (m *machine) collect(localFirst bool) (local *Task, ok bool) {
	for {
		if m.aliased { // the cache's memory: not to append to
			m.enabled, m.enabledT, m.aliased = nil, nil, false
		}
		m.enabled = m.enabled[:0]
		m.enabledT = m.enabledT[:0]
		if words := m.pending.words; len(words) == 1 {
			// Up to 64 tasks, inline (a step's cost): walk's loop for
			// one word, without the summary.
			for w := words[0]; w != 0; w &= w - 1 {
				t := m.tasks[bits.TrailingZeros64(w)]
				if localFirst && opkind.Local(t.op.Kind, t.op.Res) {
					return t, true
				}
				m.offer(t)
			}
		} else {
			m.aliased = true
			if t := m.cached(localFirst); t != nil {
				return t, true
			}
		}
		if len(m.enabled) > 0 {
			if m.extra { // one test for the two (see machine.extra)
				if m.pollDue && m.polling() {
					if m.aborting {
						return nil, false
					}
					continue // the clock moved: collect again
				}
				if m.early > 0 {
					if next := m.nextDeadline(); next >= 0 && next <= m.limit && next-m.clock <= earlyWindow {
						m.offerEarly(next)
					}
				}
			}
			return nil, true
		}
		if len(m.idle) > 0 && m.wakeIdle() {
			continue // synctest.Wait returns before the clock moves
		}
		next := m.nextDeadline()
		if m.quiescent(next) {
			return nil, false
		}
		m.moveClock(next)
		if m.live != nil {
			m.liveAt = m.clock
			if msg := m.live.Expired(m.clock); msg != "" {
				m.fail(&Failure{Kind: Liveness, Task: -1, Message: msg})
				return nil, false
			}
		}
	}
}

// quiescent decides what happens when nothing is enabled and next is the
// nearest deadline (-1: none). It reports whether the iteration is over,
// with the outcome recorded: a pass once the main task has returned and
// nothing is left; a leak, a deadlock, a stuck run or a liveness failure
// when the clock cannot move on. Otherwise the clock moves on to next.
func (m *machine) quiescent(next int64) bool {
	done := m.main.state == taskDone
	owed := m.live != nil && m.live.Hot()
	if done && !owed {
		// Quiescent after the main task returned: a pass, unless
		// goroutines still wait. Then timers fire on as long as they
		// can (a goroutine that ends after a sleep is no leak).
		gs := m.leaked()
		if len(gs) == 0 {
			return true
		}
		if next < 0 || next > m.limit {
			why := "blocked forever (no task can run and no timer is pending)"
			if next >= 0 {
				why = fmt.Sprintf("still blocked at the clock limit %s (next deadline %s)", fmtNS(m.limit), fmtNS(next))
			}
			m.fail(m.leakFailure(gs, why))
			return true
		}
		return false
	}
	if next >= 0 && next <= m.limit {
		return false
	}
	switch {
	case owed:
		why := "still hot at the clock limit " + fmtNS(m.limit)
		if next < 0 {
			why = "still hot, and no task can run and no timer is pending"
		}
		m.fail(&Failure{Kind: Liveness, Task: -1, Message: "no progress: a monitor is " + why + "\n" + m.live.Describe()})
	case next < 0:
		m.fail(&Failure{Kind: Deadlock, Task: m.main.ID, Message: m.deadlockReport()})
	default:
		m.fail(&Failure{Kind: ClockLimit, Task: m.main.ID, Message: fmt.Sprintf(
			"stuck: the main task has not finished at the clock limit %s (next deadline %s)\n%s",
			fmtNS(m.limit), fmtNS(next), m.waitReport())})
	}
	return true
}

// offer adds t's pending op to the enabled set the strategy chooses from.
func (m *machine) offer(t *Task) {
	op := &t.op
	loc := uint64(op.PC) // as sig, inline
	if m.stableLocs {
		loc = t.locKey()
	}
	m.enabled = append(m.enabled, strategy.Op{
		Task: t.ID, Kind: op.Kind, Res: op.Res, Read: op.Read,
		Sig: strategy.Sig{Task: t.Key, Loc: loc},
	})
	m.enabledT = append(m.enabledT, t)
}

// sig returns the signature of t's pending op.
func (m *machine) sig(t *Task) strategy.Sig {
	loc := uint64(t.op.PC)
	if m.stableLocs {
		loc = t.locKey()
	}
	return strategy.Sig{Task: t.Key, Loc: loc}
}

func (m *machine) diverged(what string) {
	msg := "the strategy could not continue (" + what + ")"
	if d, ok := m.strat.(interface{ Divergence() string }); ok {
		msg = d.Divergence()
	}
	m.fail(&Failure{Kind: Nondeterminism, Task: -1, Message: msg})
}
