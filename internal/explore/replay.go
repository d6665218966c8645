package explore

import (
	"os"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// ReadTrace reads a trace file.
func ReadTrace(path string) (*trace.Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return trace.Decode(f, path)
}

// ReplayFile runs the iteration recorded in the trace at path. With fallback
// nil the replay is strict: a divergence is a failure, of kind stale-trace
// when the code changed since the trace was recorded, nondeterminism when
// the test is not a function of its schedule (see explainDivergence);
// otherwise the fallback strategy takes over where the run leaves the
// trace.
func ReplayFile(c *Config, prog Program, path string, fallback strategy.Strategy) (*Result, error) {
	tr, err := ReadTrace(path)
	if err != nil {
		return nil, err
	}
	res, _ := replayTrace(c, prog, tr, NewReplay(tr, fallback), false)
	if f := res.Failure; f != nil {
		f.Path, f.Replayed = path, true
		if fallback == nil && f.Kind == string(core.Nondeterminism) {
			explainDivergence(c, prog, tr, path, f)
		}
	}
	return res, nil
}

// replayTrace runs the iteration tr records under rep, which follows tr,
// with the settings tr records (withOptions);
// with keep it also returns the run's own trace. A watchdog watches it as
// it watches an exploration: a task that blocks outside control (or spins
// without ops) ends the replay with an uncontrolled-blocking failure, and
// its worker is abandoned, as the explorer abandons one, instead of the
// replay hanging. Its kept trace is then nil.
func replayTrace(c *Config, prog Program, tr *trace.Trace, rep *Replay, keep bool) (*Result, *trace.Trace) {
	c = withOptions(c, tr) // the settings the trace was found with
	rep.Where = func(loc uint64) string { return core.Where(uintptr(loc)) }
	w := core.NewWorker()
	iter := tr.Header.Iteration
	seed := tr.Header.Seed
	var env any
	limit := cutLimit(tr)
	if limit == 0 {
		limit = int64(c.ClockLimit)
	}
	cfg := c.core(rep, seed, c.MaxSteps, limit)
	rc := *c
	rc.Strategy = "replay"
	res := &Result{Test: c.Name, Strategy: "replay", Seed: seed, Iterations: 1}
	out, stuck := watched(c, w, func() core.Outcome { return prog.execute(w, cfg, iter, &env) })
	if stuck != nil {
		res.Steps = int64(stuck.Step)
		res.Failure = stuckFailure(&rc, stuck, iter, seed)
		res.Failure.Trace = tr
		return res, nil
	}
	res.Steps, res.Diverged = int64(out.Steps), rep.Divergence()
	if out.Failure != nil {
		res.Failure = newFailure(&rc, out, env, iter, seed)
		if l := cutLimit(tr); l > 0 {
			res.Failure.Trace.Header.Failure.ClockLimit = l
		}
	}
	var ran *trace.Trace
	if keep {
		ran = out.Trace()
		ran.Header.Test, ran.Header.Iteration = c.Name, iter
	}
	return res, ran
}

// watched runs run, an execution on w, under a watchdog with c's limit, on
// a goroutine of its own (see detached), and closes w once run returns. If
// a task does not come back to the scheduler within the limit, it returns
// at once with what the watchdog saw; w is abandoned: its goroutine closes
// it once the blocked task comes back, if ever.
func watched(c *Config, w *core.Worker, run func() core.Outcome) (core.Outcome, *core.Stuck) {
	stuck := make(chan *core.Stuck, 1)
	wd := core.StartWatchdog(c.Watchdog, func(_ *core.Worker, s *core.Stuck) { stuck <- s })
	defer wd.Stop()
	wd.Attach(w)
	var out core.Outcome
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer w.Close()
		out = detached(w, run)
	}()
	select {
	case <-done:
		return out, nil
	case s := <-stuck:
		return core.Outcome{}, s
	}
}

// detached runs run, an execution on w, on a goroutine of its own: a task's
// runtime.Goexit (t.Fatal on the test's *testing.T, as in rewritten tests)
// ends that goroutine too, and the caller must still get the outcome.
func detached(w *core.Worker, run func() core.Outcome) core.Outcome {
	var out core.Outcome
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if g := w.Goexited(); g != nil {
				out = *g
			}
		}()
		out = run()
	}()
	<-done
	return out
}
