package explore

import (
	"fmt"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// stuck records an uncontrolled-blocking failure in iteration i; its worker
// is abandoned (its goroutine stays blocked where the user's code blocked).
func (x *explorer) stuck(i int, s *core.Stuck) {
	f := stuckFailure(x.c, s, i, SeedFor(x.base, i))
	x.mu.Lock()
	if x.failure == nil || i < x.failure.Iteration {
		x.failure = f
	}
	x.mu.Unlock()
	x.stop(int64(i))
}

// stuckFailure is the uncontrolled-blocking failure of iteration i, whose
// task s the watchdog found not coming back to the scheduler; it is
// located at the first frame of its stack outside morpheus and Go's
// runtime, where the task blocked or spins.
func stuckFailure(c *Config, s *core.Stuck, i int, seed uint64) *Failure {
	name := "?"
	if s.Task != nil {
		name = s.Task.Name
	}
	return &Failure{
		Kind: string(core.Uncontrolled),
		Message: fmt.Sprintf("task %s did not come back to the scheduler within %v after step %d: it blocks on something "+
			"morpheus does not control (a real channel, mutex, sleep or I/O), or loops without morpheus operations", name, c.Watchdog, s.Step),
		Task:      name,
		Location:  core.StackLocation(s.Stack),
		Stack:     s.Stack,
		Steps:     s.Step,
		Iteration: i,
		Seed:      seed,
		Strategy:  c.Strategy,
		Test:      c.Name,
	}
}

// stop makes iterations from n on not start (a failure at n-1, a worker
// abandoned at n, a spent time budget) and wakes workers waiting for an
// epoch that will now never complete.
func (x *explorer) stop(n int64) {
	lower(&x.stopAt, n)
	if x.learn != nil {
		x.learn.wake()
	}
}

// traceStuck recovers the trace of an uncontrolled-blocking failure: it runs
// the iteration again, deterministically, up to the step before the one
// whose task blocked, so the blocking code never runs; the failure names
// that task, whose op a replay runs as the trace's last step (Replay.Next),
// where it blocks again. The strategy that
// runs it decides as the exploration's did in that iteration (rearm); if it
// cannot, the failure has no trace and its message says why.
func (x *explorer) traceStuck(f *Failure) {
	if f.Steps <= 1 {
		return
	}
	strat := mustStrategy(x.c)
	if why := x.rearm(strat, f.Iteration); why != "" {
		f.Message += "\n(no trace: " + why + ")"
		return
	}
	w := core.NewWorker()
	defer w.Close()
	out, _ := x.iteration(w, strat, f.Iteration, f.Steps-1, false, nil)
	tr := out.Trace()
	tr.Header.Test, tr.Header.Iteration = x.c.Name, f.Iteration
	tr.Header.Failure = &trace.Failure{Kind: f.Kind, Message: f.Message, Task: taskNamed(tr, f.Task), Step: f.Steps}
	f.Trace = tr
}

// taskNamed is the id of tr's task named name, -1 if none is: the task
// that blocked, whose op at the failure's step a replay runs (Replay.Next)
// so that it blocks again.
func taskNamed(tr *trace.Trace, name string) int32 {
	for i := range tr.Tasks {
		if tr.Tasks[i].Name == name {
			return int32(i)
		}
	}
	return -1
}

// rearm makes strat, a fresh instance of the exploration's strategy, decide
// as the exploration's did in iteration i: a learner reads what that
// iteration read. It returns why it cannot, or "": a systematic search past
// its first iteration depends on every iteration before it, and what an
// iteration of an epoch since completed read is gone.
func (x *explorer) rearm(strat strategy.Strategy, i int) string {
	learner, learns := strategy.AsLearner(strat)
	learns = learns && x.learn != nil
	if _, ok := strategy.AsExhauster(strat); ok {
		if i > 0 {
			return fmt.Sprintf("a systematic search's iteration %d follows from all those before it and is not run again alone", i+1)
		}
		if learns {
			k, _ := x.learn.knowledge(0)
			learner.Learn(k, true) // as work does: the search reads the prior knowledge throughout
		}
		return ""
	}
	if !learns {
		return ""
	}
	j := x.c.Shard.index(int64(i))
	k, ok := x.learn.knowledge(int(j))
	if !ok {
		return fmt.Sprintf("what the strategy had learned by iteration %d is gone", i+1)
	}
	learner.Learn(k, x.learnsFrom(j))
	return ""
}
