package explore

import (
	"fmt"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/trace"
)

// stuck records an uncontrolled-blocking failure in iteration i; its worker
// is abandoned (its goroutine stays blocked where the user's code blocked).
func (x *explorer) stuck(i int, s *core.Stuck) {
	name := "?"
	if s.Task != nil {
		name = s.Task.Name
	}
	f := &Failure{
		Kind: string(core.Uncontrolled),
		Message: fmt.Sprintf("task %s did not come back to the scheduler within %v after step %d: it blocks on something "+
			"morpheus does not control (a real channel, mutex, sleep or I/O), or loops without morpheus operations", name, x.c.Watchdog, s.Step),
		Task:      name,
		Stack:     s.Stack,
		Steps:     s.Step,
		Iteration: i,
		Seed:      SeedFor(x.base, i),
		Strategy:  x.c.Strategy,
		Test:      x.c.Name,
	}
	x.mu.Lock()
	if x.failure == nil || i < x.failure.Iteration {
		x.failure = f
	}
	x.mu.Unlock()
	x.stop(int64(i))
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
// whose task blocked, so the blocking code never runs.
func (x *explorer) traceStuck(f *Failure) {
	if f.Steps <= 1 {
		return
	}
	w := core.NewWorker()
	defer w.Close()
	out, _ := x.iteration(w, mustStrategy(x.c), f.Iteration, f.Steps-1, false, nil)
	tr := out.Trace()
	tr.Header.Test, tr.Header.Iteration = x.c.Name, f.Iteration
	tr.Header.Failure = &trace.Failure{Kind: f.Kind, Message: f.Message, Task: -1, Step: f.Steps}
	f.Trace = tr
}
