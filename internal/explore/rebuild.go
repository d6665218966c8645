package explore

import (
	"fmt"
	"sync/atomic"

	"github.com/morpheus-go/morpheus/internal/core"
)

// Rebuilt counts the failing iterations whose trace rebuild recovered by a
// replay, for tests.
var Rebuilt atomic.Int64

// earliest reports whether a failure of iteration i would be the one the
// exploration reports (the earliest so far).
func (x *explorer) earliest(i int) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.failure == nil || i < x.failure.Iteration
}

// rebuild recovers the full trace of failing iteration i, which dropped its
// older events (core.Config.Window): it replays the iteration's schedule on
// a fresh worker with every event recorded. It returns the replay's outcome
// and environment, and the strategy that ran the iteration (the replay's
// trace names the replay), if the replay failed the same way at the same
// step; otherwise out, whose trace holds only its latest events, with a note
// in its failure's message, and env.
//
// The replay runs detached, on a goroutine of its own, so that a task calling
// runtime.Goexit again ends that goroutine, not the caller. It is not
// watched: the iteration it repeats came back to the scheduler at every
// step.
func (x *explorer) rebuild(i int, out core.Outcome, env any) (core.Outcome, any, string) {
	sched := out.Schedule()
	w := core.NewWorker()
	defer w.Close()
	var genv any
	got := detached(w, func() core.Outcome {
		var o core.Outcome
		o, genv = x.iteration(w, NewReplay(sched, nil), i, x.c.MaxSteps, false, nil)
		return o
	})
	if g, f := got.Failure, out.Failure; g != nil && g.Kind == f.Kind && g.Message == f.Message && got.Steps == out.Steps {
		Rebuilt.Add(1)
		return got, genv, sched.Header.Strategy
	}
	what := "passed"
	if got.Failure != nil {
		what = fmt.Sprintf("failed otherwise (%s at step %d)", got.Failure.Kind, got.Steps)
	}
	f := *out.Failure
	f.Message += fmt.Sprintf("\n(the trace holds only the iteration's last %d events: it was too long to keep whole, "+
		"and replaying its schedule to rebuild it %s, so the test is not a function of its schedule)", len(out.Trace().Events), what)
	out.Failure = &f
	return out, env, ""
}
