package driver

import (
	"time"

	"github.com/morpheus-go/morpheus/rt"
)

// A test's outcome over several processes is the merge of each process's
// record: every process runs its shard of the test's schedules (the
// schedules whose number is its index modulo their count), so schedules,
// steps and failing schedules add up, the failure is the lowest failing
// schedule's, and why the exploration stopped is the strongest reason of
// any process. Merge is associative and commutative: merging the records of
// M processes in any grouping (one machine's -jobs, then N machines'
// shards, see morpheus merge) gives the same summary as merging them at
// once. A saved trace that still fails is every process's failure (each
// replays the corpus before exploring): it counts once.

// Merge adds o, the same test's outcome in other processes, to t.
func (t *TestSummary) Merge(o *TestSummary) {
	corpus := t.Failure != "" && t.Schedule < 0 && o.Failure != "" && o.Schedule < 0
	if !corpus {
		t.Schedules += o.Schedules
		t.Steps += o.Steps
		t.Hits += o.Hits
	}
	t.Skipped = t.Skipped || o.Skipped
	t.Interrupted = t.Interrupted || o.Interrupted
	t.Stopped = mergeStopped(t.Stopped, o.Stopped)
	t.Elapsed = max(t.Elapsed, o.Elapsed)
	if t.Real == "" {
		t.Real = o.Real
	}
	if o.Failure != "" && (t.Failure == "" || o.Schedule < t.Schedule) {
		t.Failure, t.Kind, t.Location, t.Trace, t.Log = o.Failure, o.Kind, o.Location, o.Trace, o.Log
		t.Task, t.Message, t.Schedule, t.proc = o.Task, o.Message, o.Schedule, o.proc
	}
	t.Foreign = mergeSorted(t.Foreign, o.Foreign)
	t.Stale = mergeSorted(t.Stale, o.Stale)
	t.Passed = mergeSorted(t.Passed, o.Passed)
	t.Pruned = mergeSorted(t.Pruned, o.Pruned)
	t.funcs = mergeSorted(t.funcs, o.funcs)
	t.marked = t.marked && o.marked
}

// fromResult is process j's record of a test.
func fromResult(r rt.Result, j int) *TestSummary {
	t := &TestSummary{Name: r.Test, Schedules: r.Schedules, Steps: r.Steps, Hits: r.Hits, Skipped: r.Skipped,
		Interrupted: r.Interrupted, Stopped: r.Stopped, Elapsed: time.Duration(r.Nanos), Real: r.Real,
		Foreign: r.Foreign, Stale: r.Stale, Passed: r.Passed, History: r.History, proc: j,
		funcs: r.Funcs, marked: r.Marked}
	if r.Failure != "" {
		t.Failure, t.Kind, t.Location, t.Trace = r.Failure, r.Kind, r.Location, r.Trace
		t.Task, t.Message, t.Schedule = r.Task, r.Message, r.Schedule
	}
	return t
}
