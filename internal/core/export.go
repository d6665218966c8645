package core

import "github.com/morpheus-go/morpheus/trace"

// Trace returns a self-contained copy of the iteration's trace: tasks, events,
// message contents and the text of every code location. The layer above fills
// the header.
func (r *Run) Trace() *trace.Trace {
	tr := &trace.Trace{
		Header: trace.Header{Version: trace.FormatVersion, Seed: r.cfg.Seed, Strategy: r.m.strategy().Name()},
		Tasks:  r.traceTasks(),
		Events: r.m.recorder().Events(),
		Msgs:   r.msgs.all(),
		Where:  make(map[uint64]string),
	}
	for i := range tr.Events {
		loc := tr.Events[i].Loc
		if _, ok := tr.Where[loc]; !ok && loc != 0 {
			tr.Where[loc] = Where(uintptr(loc))
		}
	}
	if f := r.m.failed(); f != nil {
		tr.Header.Failure = &trace.Failure{
			Kind: string(f.Kind), Message: f.Message, Task: f.Task, Step: f.Step,
		}
		if f.PC != 0 {
			tr.Header.Failure.Loc = Where(f.PC)
		}
	}
	return tr
}

// Schedule returns a trace of the iteration's steps that a replay (internal/explore's Replay)
// follows (tasks, kinds and choices; no locations, no message contents).
func (r *Run) Schedule() *trace.Trace {
	return &trace.Trace{
		Header: trace.Header{Version: trace.FormatVersion, Seed: r.cfg.Seed, Strategy: r.m.strategy().Name()},
		Tasks:  r.traceTasks(),
		Events: r.m.recorder().Schedule(),
	}
}

// traceTasks returns the iteration's tasks as a trace lists them.
func (r *Run) traceTasks() []trace.Task {
	tasks := r.m.all()
	out := make([]trace.Task, len(tasks))
	for i, t := range tasks {
		out[i] = trace.Task{ID: t.ID, Parent: t.Parent, Name: t.Name, Key: t.Key}
	}
	return out
}
