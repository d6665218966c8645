package core

import "github.com/morpheus-go/morpheus/trace"

// StepTrace fills into with the iteration's tasks and events, reusing its
// buffers: no message contents, no location texts, locations as program
// counters. It is the cheap view that a per-iteration analysis of the order
// of steps needs (such as hb.PartialOrder), valid until the worker runs
// its next iteration.
func (o *Outcome) StepTrace(into *trace.Trace) { o.run.fillSteps(into, false) }

// light returns the iteration's trace without message contents or location
// texts, its locations as stable keys (LocKey), in buffers reused across
// iterations: what a strategy.TraceReader learns from at the end of every
// iteration. Strategies must not keep it past End.
func (r *Run) light() *trace.Trace {
	r.fillSteps(&r.lt, true)
	return &r.lt
}

// fillSteps fills into with the iteration's tasks and events, reusing its
// buffers; with stableLocs, locations become the stable keys that op
// signatures use (LocKey) instead of program counters.
func (r *Run) fillSteps(into *trace.Trace, stableLocs bool) {
	into.Header = trace.Header{Version: trace.FormatVersion, Seed: r.cfg.Seed}
	into.Tasks = into.Tasks[:0]
	for _, t := range r.m.all() {
		into.Tasks = append(into.Tasks, trace.Task{ID: t.ID, Parent: t.Parent, Name: t.Name, Key: t.Key})
	}
	rec := r.m.recorder()
	if cap(into.Events) > 1<<16 && rec.Len() < 1<<12 {
		into.Events = nil // do not keep a huge buffer after one long iteration
	}
	into.Events = into.Events[:0]
	for i := 0; i < rec.Len(); i++ {
		e := *rec.At(i)
		if stableLocs {
			e.Loc = LocKey(uintptr(e.Loc))
		}
		into.Events = append(into.Events, e)
	}
}
