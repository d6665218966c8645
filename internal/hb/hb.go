package hb

import (
	"slices"

	"github.com/morpheus-go/morpheus/trace"
)

// Happens-before and conflicts (Morpheus §2.3).
//
// Two step events are ordered by happens-before (HB) when one could not have
// run after the other in any schedule of the same program:
//
//   - program order: the steps of one task, in trace order;
//   - spawn: a KindSpawn event with Obj = c happens before the first step of
//     task c;
//   - messages: a message-sending step (KindSend, or KindTimer, whose firing
//     sends message Val on behalf of the task that set the timer) happens
//     before the KindRecv step with the same Val that is not FlagTimeout; a
//     message the network holds in flight passes through its KindDeliver
//     step (send → deliver → receive);
//   - and the transitive closure of these.
//
// Steps on one resource are deliberately not ordered by their trace order:
// two steps of different tasks on the same nonzero resource, at least one of
// them not a read (FlagRead), whose clocks are concurrent, are a conflict (a
// race): another schedule could have run them the other way round. That is
// what conflict analysis learns from. A kill also conflicts with its
// victim's latest observable step if they are concurrent (see killWatch).
//
// The Go-native primitives (package csync) add the edges of the Go memory
// model: channel values and closes, locks, shared variables, WaitGroup,
// Cond, timers and the in-memory network (hb_sync.go). Clocks and ConflictPairs
// walk with all of them (syncWalker).
//
// A timer task that is not created by a KindSpawn event has no incoming edge:
// its firing is concurrent with everything its setter did.

// VC is a vector clock over the tasks of one trace: entry t counts the steps of
// task t that happen before the event the clock belongs to, that event
// included. Entries past the end of the slice are zero.
type VC []uint32

// At returns entry t of v.
func (v VC) At(t int32) uint32 {
	if t < 0 || int(t) >= len(v) {
		return 0
	}
	return v[t]
}

// LessEq reports whether v ≤ w entry by entry: for the clocks of two distinct
// events, whether the event of v happens before the event of w.
func (v VC) LessEq(w VC) bool {
	for i, x := range v {
		if x > w.At(int32(i)) {
			return false
		}
	}
	return true
}

// Concurrent reports whether neither of v and w is ≤ the other: the events
// they belong to are not ordered by happens-before.
func (v VC) Concurrent(w VC) bool { return !v.LessEq(w) && !w.LessEq(v) }

// Join sets *v to the entry-wise maximum of *v and w, growing *v as needed.
func (v *VC) Join(w VC) {
	if len(w) == 0 { // nothing to join: an empty clock is none
		return
	}
	if len(w) > len(*v) {
		*v = append(*v, make(VC, len(w)-len(*v))...)
	}
	joinInto((*v)[:len(w)], w) // in vector instructions where there are some
}

// grow makes v at least n entries long, reusing its memory.
func (v *VC) grow(n int) {
	if l := len(*v); l < n {
		if cap(*v) >= n {
			*v = (*v)[:n]
			clear((*v)[l:])
		} else {
			*v = append(*v, make(VC, n-l)...)
		}
	}
}

// Clone returns a copy of v.
func (v VC) Clone() VC { return slices.Clone(v) }

// Clocks calls fn for every step event of t in trace order, with its index in
// t.Events and its vector clock. fn must not keep vc after it returns (Clone
// it). Events of the runtime itself (Task < 0) and non-step events such as
// clock jumps have no clock and are skipped.
//
// Memory is proportional to the number of tasks squared plus the number of
// messages in flight; time to the number of events times the width of the
// clocks that are joined (spawns and receives).
func Clocks(t *trace.Trace, fn func(i int, vc VC)) {
	var w syncWalker
	w.init(t)
	for i := range t.Events {
		if vc := w.step(t, i); vc != nil {
			fn(i, vc)
		}
	}
}

// ConflictPairs calls fn(i, j), i < j, for every pair of step events of t that
// conflict: they touch the same nonzero resource, at least one of them is not
// a read, they belong to different tasks, and their vector clocks are
// concurrent. Calls come in increasing j, and for one j in increasing i.
//
// Each event is compared only with earlier events on its own resource, and for
// each other task only with those of its events that do not already happen
// before it, so the cost is about the number of events times the number of
// tasks touching their resources, plus the number of conflicts reported.
func ConflictPairs(t *trace.Trace, fn func(i, j int)) {
	walkConflicts(t, func(j int, _ VC, earlier []int) bool {
		for _, i := range earlier {
			fn(i, j)
		}
		return true
	})
}

// walkConflicts walks the step events of t in order, with the synchronisation
// edges of the Go memory model, and calls fn with each step's index, its
// clock (valid only during the call) and, in increasing order, the earlier
// steps it conflicts with. It stops when fn returns false.
func walkConflicts(t *trace.Trace, fn func(j int, vc VC, earlier []int) bool) {
	var w syncWalker
	w.init(t)
	r := hbRaces{res: make(map[uint32]int32)}
	var k killWatch
	k.reset(t, len(w.clock))
	var found []int
	for j := range t.Events {
		vc := w.step(t, j)
		if vc == nil {
			continue
		}
		found = found[:0]
		e := &t.Events[j]
		if e.Res != 0 {
			found = r.access(found, j, e, w.raceClock(vc))
		}
		if i := k.race(e, vc); i >= 0 && !slices.Contains(found, i) {
			found = append(found, i)
		}
		slices.Sort(found)
		k.after(j, e, vc)
		if !fn(j, vc, found) {
			return
		}
	}
}

// hbWalker computes vector clocks event by event.
type hbWalker struct {
	clock []VC      // the current clock of each task
	msgs  msgClocks // the clock of each message sent and not yet received
	spare []VC      // clocks of received messages, for reuse
}

func (w *hbWalker) init(t *trace.Trace) {
	n := len(t.Tasks)
	for i := range t.Events {
		if e := &t.Events[i]; int(e.Task) >= n {
			n = int(e.Task) + 1
		}
	}
	w.clock = make([]VC, n)
}

// grow makes room for the clocks of n tasks.
func (w *hbWalker) grow(n int) {
	if n > cap(w.clock) {
		w.clock = append(w.clock[:cap(w.clock)], make([]VC, n-cap(w.clock))...)
	}
	w.clock = w.clock[:n]
}

// advance advances the clocks past event e, the next of the walk, and
// returns the clock of e's task, now e's clock, for the caller to add the
// edges of its own kinds to (syncWalker); nil if e is not a step of a task.
func (w *hbWalker) advance(e *trace.Event) *VC {
	if !e.IsStep() || e.Task < 0 {
		return nil
	}
	if n := max(e.Task, e.Obj) + 1; int(n) > len(w.clock) {
		w.grow(int(n)) // a walk that did not see the whole trace first (Races)
	}
	c := &w.clock[e.Task]
	if (e.Kind == trace.KindRecv && e.Flag&trace.FlagTimeout == 0) || (e.Kind == trace.KindDeliver && e.Val >= 0) {
		if m, ok := w.msgs.take(e.Val); ok {
			c.Join(m)
			w.spare = append(w.spare, m[:0])
		}
	}
	c.grow(int(e.Task) + 1)
	(*c)[e.Task]++
	switch e.Kind {
	case trace.KindSpawn:
		// The child's first step follows the spawn; a child that already ran
		// (a malformed trace) gets no edge.
		if o := e.Obj; o >= 0 && int(o) < len(w.clock) && o != e.Task && w.clock[o].At(o) == 0 {
			if len(w.clock[o]) == 0 { // the common case: a copy, with room for the child's entry
				w.clock[o].grow(max(len(*c), int(o)+1))
				copy(w.clock[o], *c)
			} else {
				w.clock[o].Join(*c)
			}
		}
	case trace.KindSend, trace.KindTimer, trace.KindDeliver:
		if e.Flag&trace.FlagDropped == 0 && e.Val >= 0 {
			var m VC
			if n := len(w.spare); n > 0 {
				m, w.spare = w.spare[n-1], w.spare[:n-1]
			}
			m = append(m[:0], *c...) // a copy of the sender's clock
			w.msgs.put(e.Val, m)
		}
	}
	return c
}

// hbRaces keeps, per resource and task, the accesses seen so far.
type hbRaces struct {
	res   map[uint32]int32 // resource -> index in byRes
	byRes [][]hbTaskAccesses
}

// hbTaskAccesses are one task's accesses to one resource, in trace order.
type hbTaskAccesses struct {
	task   int32
	all    []hbAccess
	writes []hbAccess
}

// hbAccess is an access: the event's index and its task's own clock entry,
// which is all that is needed to decide whether it happens before a later
// event of another task (FastTrack's epochs).
type hbAccess struct {
	i   int
	clk uint32
}

// access records event j (with clock vc) and appends to found the earlier
// events it conflicts with.
func (r *hbRaces) access(found []int, j int, e *trace.Event, vc VC) []int {
	k, ok := r.res[e.Res]
	if !ok {
		k = int32(len(r.byRes))
		r.res[e.Res] = k
		r.byRes = append(r.byRes, nil)
	}
	read := e.Flag&trace.FlagRead != 0
	var mine *hbTaskAccesses
	for x := range r.byRes[k] {
		ta := &r.byRes[k][x]
		if ta.task == e.Task {
			mine = ta
			continue
		}
		// A read races only with writes; a write with every access. Scan from
		// the latest: once one happens before j, all earlier ones do.
		list := ta.all
		if read {
			list = ta.writes
		}
		seen := vc.At(ta.task)
		for y := len(list) - 1; y >= 0 && list[y].clk > seen; y-- {
			found = append(found, list[y].i)
		}
	}
	if mine == nil {
		r.byRes[k] = append(r.byRes[k], hbTaskAccesses{task: e.Task})
		mine = &r.byRes[k][len(r.byRes[k])-1]
	}
	a := hbAccess{i: j, clk: vc[e.Task]}
	mine.all = append(mine.all, a)
	if !read {
		mine.writes = append(mine.writes, a)
	}
	return found
}
