// Package ctl holds what the controlled primitives (csync, csync/memnet and
// internal/prim) share: finding the task that calls them, binding objects
// that outlive an iteration to the iteration that uses them, queues of
// blocked tasks, marking a step that found its object taken, and the text
// deadlock reports give for a blocked op.
package ctl

import (
	"fmt"
	"sync/atomic"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/trace"
)

// Self returns the task that calls a primitive and its iteration. what names
// the primitive ("Chan.Send") for the panic that a call from outside
// morpheus's control gets: such a call cannot be scheduled, and blocking it
// on a real lock would hang the tool. Primitives that rewritten code reaches
// call Task instead, and work outside control (see Obj.Outside); Self is
// for csync's own channels and goroutines, which only morpheus.Check's
// tests call, and for the network (csync/memnet).
func Self(what string) (*core.Task, *core.Run) {
	t := core.CurrentTask()
	if t == nil {
		panic("csync: " + what + " called outside a task morpheus controls; start goroutines with csync.Go")
	}
	return t, t.Run()
}

// Obj is the identity of a synchronization object within one iteration: its
// resource (what the strategy and conflict analysis see), and where it was
// created. Objects are plain values that may outlive an iteration (a
// package-level mutex), so they bind lazily: the first op of each iteration
// gives them a fresh resource and tells their owner to reset its state.
type Obj struct {
	gen  atomic.Uint64 // the iteration bound to; atomic: code outside control reads it (Outside)
	Res  uint32
	Site uintptr // creation site (Make), or first use in the iteration
	made bool    // Site is the creation site: keep it across iterations
}

// SetSite records pc as the object's creation site.
func (o *Obj) SetSite(pc uintptr) { o.Site, o.made = pc, true }

// Bind attaches o to r's iteration. It returns true when o was bound to
// another iteration (or none): the caller must then reset the object's state
// to its zero value. pc is the op's location, o's site if it has none.
func (o *Obj) Bind(r *core.Run, pc uintptr) bool {
	if o.gen.Load() == r.Gen() {
		return false
	}
	o.gen.Store(r.Gen())
	o.Res = r.NewResource()
	if !o.made {
		o.Site = pc
	}
	return true
}

// Bound reports whether o is bound to r's iteration.
func (o *Obj) Bound(r *core.Run) bool { return o.gen.Load() == r.Gen() }

// Name returns "kind#N created at file:line" (or "first used at" for objects
// that have no creation site): N is the object's resource number, unique in
// the iteration and the same in every run of the same schedule.
func (o *Obj) Name(kind string) string {
	verb := "first used at"
	if o.made {
		verb = "created at"
	}
	return fmt.Sprintf("%s#%d %s %s", kind, o.Res, verb, core.Where(o.Site))
}

// Blocked reports whether t waits in a blocked op: it is alive, has a pending
// op, and nothing enabled that op yet. A task woken by one object (a select
// woken by one of its channels) is no longer blocked, so the others leave it
// alone until it runs.
func Blocked(t *core.Task) bool {
	op, ok := t.PendingOp()
	return ok && op.Blocked && !t.Done()
}

// String is an fmt.Stringer for a fixed text, for Op.On.
type String string

func (s String) String() string { return string(s) }

// NoEffect marks the step that runs now as one that found its object
// unavailable (a Lock whose mutex a newcomer took, a receive whose value
// another receiver took): it only read the object's state, and its task goes
// on to wait.
func NoEffect(r *core.Run) {
	ev := r.Event()
	ev.Val = trace.ValNone
	ev.Flag |= trace.FlagRead
}
