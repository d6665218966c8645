package core

import "github.com/morpheus-go/morpheus/trace"

// Trace returns a self-contained copy of the iteration's trace: tasks, events,
// message contents and the text of every code location. The layer above fills
// the header.
func (r *Run) Trace() *trace.Trace {
	tr := &trace.Trace{
		Header: trace.Header{Version: trace.FormatVersion, Seed: r.cfg.Seed, Strategy: r.strat.Name()},
		Tasks:  make([]trace.Task, len(r.tasks)),
		Events: r.rec.Events(),
		Msgs:   r.msgs.all(),
		Where:  make(map[uint64]string),
	}
	for i, t := range r.tasks {
		tr.Tasks[i] = trace.Task{ID: t.ID, Parent: t.Parent, Name: t.Name, Key: t.Key}
	}
	for i := range tr.Events {
		loc := tr.Events[i].Loc
		if _, ok := tr.Where[loc]; !ok && loc != 0 {
			tr.Where[loc] = Where(uintptr(loc))
		}
	}
	if f := r.failure; f != nil {
		tr.Header.Failure = &trace.Failure{
			Kind: string(f.Kind), Message: f.Message, Task: f.Task, Step: f.Step,
		}
		if f.PC != 0 {
			tr.Header.Failure.Loc = Where(f.PC)
		}
	}
	return tr
}

// light returns the iteration's trace without message contents or location
// texts, its locations as stable keys (LocKey), in buffers reused across
// iterations: what a strategy learns from at
// the end of every iteration (conflicts, step counts). Strategies must not
// keep it past End.
func (r *Run) light() *trace.Trace {
	lt := &r.lt
	lt.Header = trace.Header{Version: trace.FormatVersion, Seed: r.cfg.Seed}
	lt.Tasks = lt.Tasks[:0]
	for _, t := range r.tasks {
		lt.Tasks = append(lt.Tasks, trace.Task{ID: t.ID, Parent: t.Parent, Name: t.Name, Key: t.Key})
	}
	if cap(lt.Events) > 1<<16 && r.rec.Len() < 1<<12 {
		lt.Events = nil // do not keep a huge buffer after one long iteration
	}
	lt.Events = lt.Events[:0]
	for i := 0; i < r.rec.Len(); i++ {
		e := *r.rec.At(i)
		e.Loc = LocKey(uintptr(e.Loc)) // the same keys as the signatures of ops
		lt.Events = append(lt.Events, e)
	}
	return lt
}
