package csync

import (
	"github.com/morpheus-go/morpheus/csync/internal/ctl"
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/trace"
)

// Var is a shared variable whose every access is an op: a Load is a read op,
// a Store a write op, so the strategy interleaves tasks at each access, and
// conflict analysis and POS* know that two loads commute. Accesses are
// sequentially consistent (like sync/atomic): use Var for the state whose
// interleavings a test must explore, such as the shared memory of a
// lock-free algorithm, and plain Go variables for task-local state.
//
// The zero Var holds T's zero value, and a Var that outlives an iteration (a
// package-level one) is zero again at the start of the next.
type Var[T any] struct {
	o ctl.Obj
	v T
}

// Load returns x's value.
//
//go:noinline
func (x *Var[T]) Load() T { return load(x, core.CallerPC(), "Var.Load") }

// Store sets x's value to v.
//
//go:noinline
func (x *Var[T]) Store(v T) { store(x, v, core.CallerPC(), "Var.Store") }

// Swap sets x's value to v and returns the old value, in one op.
//
//go:noinline
func (x *Var[T]) Swap(v T) T { return swap(x, v, core.CallerPC(), "Var.Swap") }

// CompareAndSwap sets x's value to new if it is old, in one op, and reports
// whether it did. (A function, since only comparable types have it.)
//
//go:noinline
func CompareAndSwap[T comparable](x *Var[T], old, new T) bool {
	return cas(x, old, new, core.CallerPC(), "CompareAndSwap")
}

func (x *Var[T]) bind(r *core.Run, pc uintptr) {
	if x.o.Bind(r, pc) {
		var zero T
		x.v = zero
	}
}

func access[T any](x *Var[T], kind trace.Kind, read bool, pc uintptr, what string) *core.Run {
	t, r := ctl.Self(what)
	x.bind(r, pc)
	r.Do(t, core.Op{Kind: kind, Res: x.o.Res, Read: read, Obj: -1, PC: pc})
	return r
}

func load[T any](x *Var[T], pc uintptr, what string) T {
	access(x, trace.KindLoad, true, pc, what)
	return x.v
}

func store[T any](x *Var[T], v T, pc uintptr, what string) {
	access(x, trace.KindStore, false, pc, what)
	x.v = v
}

func swap[T any](x *Var[T], v T, pc uintptr, what string) T {
	access(x, trace.KindSwap, false, pc, what)
	old := x.v
	x.v = v
	return old
}

func cas[T comparable](x *Var[T], old, new T, pc uintptr, what string) bool {
	r := access(x, trace.KindCAS, false, pc, what)
	if x.v != old {
		r.Event().Flag |= trace.FlagRead
		return false
	}
	x.v = new
	r.Event().Val = 1
	return true
}

func add[T ~int | ~int64](x *Var[T], delta T, pc uintptr, what string) T {
	access(x, trace.KindAdd, false, pc, what)
	x.v += delta
	return x.v
}
