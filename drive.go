package morpheus

import (
	"fmt"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/explore"
)

// The face's one way to the driver (internal/explore), for Check and
// Explore alike: a test goes down as a Program, the driver's result comes
// back as a Result.

func init() { explore.ResultOf = func(res any) *explore.Result { return res.(*Result).run } }

// exploreTest runs the driver on test.
func exploreTest(c *config, test func(*Env)) (*Result, error) {
	res, err := explore.Run(c, program(test))
	if res == nil {
		return nil, err
	}
	return newResult(res), err
}

// replayTest replays the trace at path on test, as one of Check's saved
// traces: where the run leaves the recorded schedule (the trace was
// recorded on different code), the configured strategy finishes it.
func replayTest(c *config, test func(*Env), path string) (*Result, error) {
	fallback, err := explore.NewStrategy(c)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r, err := explore.ReplayFile(c, program(test), path, fallback)
	if err != nil {
		return nil, err
	}
	return newResult(r), nil
}

// program hands test to the driver: each iteration's environment is an
// *Env made on the iteration's run.
func program(test func(*Env)) explore.Program {
	return explore.Program{
		Setup: func(r *core.Run, iter int) any { return newEnv(r, iter) },
		Main:  func(env any) { test(env.(*Env)) },
	}
}

// newResult turns the driver's result into a Result.
func newResult(r *explore.Result) *Result {
	res := &Result{
		Test: r.Test, Strategy: r.Strategy, Seed: r.Seed, Iterations: r.Iterations,
		Steps: r.Steps, Elapsed: r.Elapsed, Failure: newFailure(r.Failure),
		Exhausted: r.Exhausted, Diverged: r.Diverged,
		PartialOrders: r.PartialOrders, Shard: r.Shard, Interrupted: r.Interrupted,
		Stopped: r.Stopped, run: r,
	}
	for _, p := range r.Coverage {
		res.Coverage = append(res.Coverage, CoveragePoint(p))
	}
	return res
}

// newFailure turns the driver's failure into a Failure, with what its
// iteration's test logged and attached.
func newFailure(d *explore.Failure) *Failure {
	if d == nil {
		return nil
	}
	f := &Failure{
		Kind: d.Kind, Message: d.Message, Task: d.Task, Location: d.Location, Stack: d.Stack,
		Test: d.Test, Strategy: d.Strategy, Iteration: d.Iteration, Seed: d.Seed,
		Steps: d.Steps, Clock: d.Clock, Trace: d.Trace, Path: d.Path, replayed: d.Replayed,
	}
	if d.Shrink != nil {
		st := ShrinkStats(*d.Shrink)
		f.Shrink = &st
	}
	if env, ok := d.Env.(*Env); ok {
		f.Attachments = env.attach
		for _, l := range env.logs {
			f.Logs = append(f.Logs, fmt.Sprintf("step %d %s: %s", l.step, l.task, l.text))
		}
	}
	return f
}
