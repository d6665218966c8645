package core

import "github.com/morpheus-go/morpheus/trace"

// StepTrace fills into with the iteration's tasks and events, reusing its
// buffers: no message contents, no location texts, locations as program
// counters. It is the cheap view that a per-iteration analysis of the order
// of steps needs (such as trace.PartialOrder), valid until the worker runs
// its next iteration.
func (o *Outcome) StepTrace(into *trace.Trace) {
	r := o.run
	into.Header = trace.Header{Version: trace.FormatVersion, Seed: r.cfg.Seed}
	into.Tasks = into.Tasks[:0]
	for _, t := range r.tasks {
		into.Tasks = append(into.Tasks, trace.Task{ID: t.ID, Parent: t.Parent, Name: t.Name, Key: t.Key})
	}
	if cap(into.Events) > 1<<16 && r.rec.Len() < 1<<12 {
		into.Events = nil // do not keep a huge buffer after one long iteration
	}
	into.Events = into.Events[:0]
	for i := 0; i < r.rec.Len(); i++ {
		into.Events = append(into.Events, *r.rec.At(i))
	}
}
