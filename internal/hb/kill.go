package hb

import (
	"slices"

	"github.com/morpheus-go/morpheus/trace"
)

// killWatch finds what a kill conflicts with beyond its victim's mailbox: the
// victim's latest observable step, if the kill does not happen after it.
//
// A kill (KindKill, Obj = the victim's task) touches the victim's own
// resource, so it races with the victim's receives. But it also disables
// whatever the victim would do next: had it come before the victim's send to
// a third task or its disk write, that step would not have happened, and
// the third task or the disk would have seen something else. Such a step is
// observable when its resource is touched by some other task somewhere in the
// trace; a step on a resource only the victim touches (its private state)
// changes nothing anyone sees, and counting it would mark private updates as
// conflicting, which conflict analysis, keyed by {task, location}, would
// then never skip again.
type killWatch struct {
	on     bool             // the trace has a kill; otherwise race and after do nothing
	first  map[uint32]int32 // resource -> first task seen touching it
	shared map[uint32]bool  // resources touched by two or more tasks
	step   []int            // each task's latest observable step, -1 before any
	own    []uint32         // that step's entry for its own task
}

// reset prepares k for t with n tasks, keeping its buffers. A trace without a
// kill (most traces of Go-native code) costs one scan of its kinds.
func (k *killWatch) reset(t *trace.Trace, n int) {
	k.on = slices.ContainsFunc(t.Events, func(e trace.Event) bool { return e.Kind == trace.KindKill })
	if !k.on {
		return
	}
	if k.first == nil {
		k.first, k.shared = make(map[uint32]int32), make(map[uint32]bool)
	}
	clear(k.first)
	clear(k.shared)
	for i := range t.Events {
		e := &t.Events[i]
		if e.Res == 0 || e.Task < 0 || !e.IsStep() {
			continue
		}
		if f, ok := k.first[e.Res]; !ok {
			k.first[e.Res] = e.Task
		} else if f != e.Task {
			k.shared[e.Res] = true
		}
	}
	k.step, k.own = k.step[:0], k.own[:0]
	for range n {
		k.step, k.own = append(k.step, -1), append(k.own, 0)
	}
}

// race returns the step a kill e with clock vc conflicts with besides those
// on its own resource, or -1: the victim's latest observable step, if it does
// not happen before the kill.
func (k *killWatch) race(e *trace.Event, vc VC) int {
	v := e.Obj
	if !k.on || e.Kind != trace.KindKill || v < 0 || v == e.Task || int(v) >= len(k.step) || k.step[v] < 0 {
		return -1
	}
	if vc.At(v) >= k.own[v] {
		return -1
	}
	return k.step[v]
}

// after records step j (event e, clock vc) once it has been walked.
func (k *killWatch) after(j int, e *trace.Event, vc VC) {
	if k.on && e.Res != 0 && k.shared[e.Res] && int(e.Task) < len(k.step) {
		k.step[e.Task], k.own[e.Task] = j, vc.At(e.Task)
	}
}
