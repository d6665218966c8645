package morpheus

import (
	"os"
	"strings"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/results"
	"github.com/morpheus-go/morpheus/trace"
)

// writeResult appends res to the result file (-morpheus.results,
// MORPHEUS_RESULTS), where morpheus test, merge, shrink and replay read it.
func writeResult(c *config, res *Result) error {
	r := &results.Record{
		Version: results.Version, Test: res.Test, Strategy: c.strategy, Seed: res.Seed,
		Shard: res.Shard, Replay: c.replay, Planned: c.iterations, Iterations: res.Iterations,
		Steps: res.Steps, ElapsedNS: int64(res.Elapsed), Failures: res.Failures,
		Exhausted: res.Exhausted, Limit: res.limit,
	}
	if dir, err := os.Getwd(); err == nil {
		r.Dir = dir
	}
	if res.Failure != nil && r.Failures == 0 {
		r.Failures = 1 // a replay, or a failure found by the watchdog
	}
	if res.orders != nil {
		r.SetOrders(res.orders)
	}
	if res.table != nil && res.table.Len() > 0 {
		var b strings.Builder
		if err := res.table.Save(&b, core.LocText); err != nil {
			return err
		}
		r.CATable = b.String()
	}
	if f := res.Failure; f != nil {
		rf := &results.Failure{
			Kind: f.Kind, Message: f.Message, Task: f.Task, Location: f.Location,
			Iteration: f.Iteration, Seed: f.Seed, Steps: f.Steps, Path: f.Path,
		}
		if f.Shrink != nil {
			rf.OriginalSteps = f.Shrink.OriginalSteps
		}
		if f.Trace != nil {
			var b strings.Builder
			if err := trace.Encode(&b, f.Trace); err != nil {
				return err
			}
			rf.Trace = b.String()
		}
		r.Failure = rf
	}
	return results.Append(c.results, r)
}
