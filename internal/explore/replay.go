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
	res, _ := replayTrace(c, prog, tr, strategy.NewReplay(tr, fallback), false)
	if f := res.Failure; f != nil {
		f.Path, f.Replayed = path, true
		if fallback == nil && f.Kind == string(core.Nondeterminism) {
			explainDivergence(c, prog, tr, path, f)
		}
	}
	return res, nil
}

// replayTrace runs the iteration tr records under rep, which follows tr;
// with keep it also returns the run's own trace.
func replayTrace(c *Config, prog Program, tr *trace.Trace, rep *strategy.Replay, keep bool) (*Result, *trace.Trace) {
	rep.Where = func(loc uint64) string { return core.Where(uintptr(loc)) }
	w := core.NewWorker()
	defer w.Close()
	iter := tr.Header.Iteration
	seed := tr.Header.Seed
	var env any
	limit := cutLimit(tr)
	if limit == 0 {
		limit = int64(c.ClockLimit)
	}
	cfg := c.core(rep, seed, c.MaxSteps, limit)
	out := detached(w, func() core.Outcome { return prog.execute(w, cfg, iter, &env) })
	rc := *c
	rc.Strategy = "replay"
	res := &Result{Test: c.Name, Strategy: "replay", Seed: seed, Iterations: 1, Steps: int64(out.Steps), Diverged: rep.Divergence()}
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
