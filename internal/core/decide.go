package core

import (
	"fmt"

	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// decide is the machine's decision (see sched): it asks the strategy for the
// next op among the enabled ones, records the step, and returns the task
// whose op was picked, or nil when the iteration is over (passed, or failed
// with the outcome in failure). The picked op is no longer pending; a
// runtime-owned task (a timer) is then done, and the caller runs its action.
func (s *sched) decide() *Task {
	if s.aborting {
		return nil
	}
	if s.step >= s.maxSteps {
		s.stepLimit()
		return nil
	}
	if s.drained() {
		return nil
	}
	if !s.collect() {
		return nil
	}
	if s.live != nil && s.live.Hot() {
		if msg := s.live.Expired(s.clock, s.step); msg != "" {
			s.fail(&Failure{Kind: Liveness, Task: -1, Message: msg})
			return nil
		}
	}
	var i int
	if s.fair() {
		i = s.tail.IntN(len(s.enabled))
	} else {
		i = s.strat.Next(s.enabled)
	}
	if i < 0 || i >= len(s.enabled) {
		s.diverged("Next")
		return nil
	}
	t := s.enabledT[i]
	if op := &t.op; op.Blocked && op.HasDeadline && op.Deadline > s.clock {
		s.fireEarly(op.Deadline)
	}
	s.unpend(t)
	s.step++
	var flag trace.Flag
	if t.op.Read {
		flag = trace.FlagRead
	}
	s.last = s.rec.Append(trace.Event{
		Task: t.ID, Obj: t.op.Obj, Res: t.op.Res, Kind: t.op.Kind,
		Flag: flag, Val: t.op.Val, Loc: uint64(t.op.PC),
	})
	if t.fire != nil {
		t.state = taskDone
	}
	return t
}

// stepLimit ends an iteration that reached the step limit: a liveness
// failure while a monitor is hot, a leak if the main task has returned and
// goroutines remain, a step-limit failure otherwise.
func (s *sched) stepLimit() {
	if s.live != nil && s.live.Hot() {
		s.fail(&Failure{Kind: Liveness, Task: -1, Message: fmt.Sprintf(
			"no progress in %d steps:\n%s", s.maxSteps, s.live.Describe())})
		return
	}
	if s.main.state == taskDone {
		if gs := s.leaked(); len(gs) > 0 {
			s.fail(s.leakFailure(gs, fmt.Sprintf("still running after the step limit (%d steps)", s.maxSteps)))
			return
		}
	}
	msg := fmt.Sprintf("no end after %d steps (a livelock, or raise the step limit)", s.maxSteps)
	if s.fairFrom < s.maxSteps {
		msg = fmt.Sprintf("no end after %d steps, of which the last %d were scheduled fairly: a livelock (or raise the step limit)",
			s.maxSteps, s.maxSteps-s.fairFrom)
	}
	s.fail(&Failure{Kind: StepLimit, Task: -1, Message: msg})
}

// fair reports whether the next step is picked by a random walk, which
// starves no task, rather than by the strategy (bounded unfairness): past
// Config.FairAfter steps, so that a step limit means no fair schedule
// ends; and in the fair tail, once the test's own work is done and only
// progress a liveness monitor owes keeps the run going, so that a monitor
// that stays hot means no progress, not bad luck. A strategy that follows
// a recorded schedule (a replay, a shrinking guide) picks every step.
func (s *sched) fair() bool {
	if s.step < s.fairFrom && (s.main.state != taskDone || s.live == nil) {
		return false
	}
	f, ok := s.strat.(strategy.Follower)
	return !ok || !f.Following()
}

// collect fills the enabled set, advancing the clock if nothing is enabled
// now. It returns false, with the outcome recorded, if the iteration is over.
func (s *sched) collect() bool {
	for {
		s.enabled = s.enabled[:0]
		s.enabledT = s.enabledT[:0]
		next := int64(-1)
		for _, t := range s.pending {
			op := &t.op
			if op.Blocked && !(op.HasDeadline && op.Deadline <= s.clock) {
				if op.HasDeadline && (next < 0 || op.Deadline < next) {
					next = op.Deadline
				}
				continue
			}
			s.offer(t)
		}
		if len(s.enabled) > 0 {
			if s.early > 0 && next >= 0 && next <= s.limit {
				s.offerEarly(next)
			}
			return true
		}
		if s.quiescent(next) {
			return false
		}
		s.clock = next
		s.rec.Append(trace.Event{Task: -1, Obj: -1, Kind: trace.KindClock, Val: next})
		if s.live != nil {
			if msg := s.live.Expired(s.clock, s.step); msg != "" {
				s.fail(&Failure{Kind: Liveness, Task: -1, Message: msg})
				return false
			}
		}
	}
}

// quiescent decides what happens when nothing is enabled and next is the
// nearest deadline (-1: none). It reports whether the iteration is over,
// with the outcome recorded: a pass once the main task has returned and
// nothing is left; a leak, a deadlock, a stuck run or a liveness failure
// when the clock cannot move on. Otherwise the clock moves on to next.
func (s *sched) quiescent(next int64) bool {
	done := s.main.state == taskDone
	owed := s.live != nil && s.live.Hot()
	if done && !owed {
		// Quiescent after the main task returned: a pass, unless
		// goroutines still wait. Then timers fire on as long as they
		// can (a goroutine that ends after a sleep is no leak).
		gs := s.leaked()
		if len(gs) == 0 {
			return true
		}
		if next < 0 || next > s.limit {
			why := "blocked forever (no task can run and no timer is pending)"
			if next >= 0 {
				why = fmt.Sprintf("still blocked at the clock limit %s (next deadline %s)", fmtNS(s.limit), fmtNS(next))
			}
			s.fail(s.leakFailure(gs, why))
			return true
		}
		return false
	}
	if next >= 0 && next <= s.limit {
		return false
	}
	switch {
	case owed:
		why := "still hot at the clock limit " + fmtNS(s.limit)
		if next < 0 {
			why = "still hot, and no task can run and no timer is pending"
		}
		s.fail(&Failure{Kind: Liveness, Task: -1, Message: "no progress: a monitor is " + why + "\n" + s.live.Describe()})
	case next < 0:
		s.fail(&Failure{Kind: Deadlock, Task: s.main.ID, Message: s.deadlockReport()})
	default:
		s.fail(&Failure{Kind: ClockLimit, Task: s.main.ID, Message: fmt.Sprintf(
			"stuck: the main task has not finished at the clock limit %s (next deadline %s)\n%s",
			fmtNS(s.limit), fmtNS(next), s.waitReport())})
	}
	return true
}

// offer adds t's pending op to the enabled set the strategy chooses from.
func (s *sched) offer(t *Task) {
	op := &t.op
	loc := uint64(op.PC)
	if s.stableLocs {
		loc = t.locKey()
	}
	s.enabled = append(s.enabled, strategy.Op{
		Task: t.ID, Kind: op.Kind, Res: op.Res, Read: op.Read,
		Sig: strategy.Sig{Task: t.Key, Loc: loc},
	})
	s.enabledT = append(s.enabledT, t)
}

func (s *sched) diverged(what string) {
	msg := "the strategy could not continue (" + what + ")"
	if d, ok := s.strat.(strategy.Diverger); ok {
		msg = d.Divergence()
	}
	s.fail(&Failure{Kind: Nondeterminism, Task: -1, Message: msg})
}
