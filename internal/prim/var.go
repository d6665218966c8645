package prim

import (
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/trace"
)

// Var is csync.Var's implementation (and the cell of csync.Int64 and
// csync.Int): a shared variable whose every access is an op located at the
// pc its caller gives. what names the caller's primitive ("Var.Load") for
// the panic of a call outside a task. The zero Var holds T's zero value,
// and a Var that outlives an iteration is zero again at the start of the
// next.
type Var[T any] struct {
	o ctl.Obj
	v T
}

// Load returns x's value: a read op.
func (x *Var[T]) Load(pc uintptr, what string) T {
	access(x, trace.KindLoad, true, pc, what)
	return x.v
}

// Store sets x's value to v: a write op.
func (x *Var[T]) Store(v T, pc uintptr, what string) {
	access(x, trace.KindStore, false, pc, what)
	x.v = v
}

// Swap sets x's value to v and returns the old value, in one op.
func (x *Var[T]) Swap(v T, pc uintptr, what string) T {
	access(x, trace.KindSwap, false, pc, what)
	old := x.v
	x.v = v
	return old
}

// CompareAndSwap sets x's value to new if it is old, in one op, and reports
// whether it did.
func CompareAndSwap[T comparable](x *Var[T], old, new T, pc uintptr, what string) bool {
	r := access(x, trace.KindCAS, false, pc, what)
	if x.v != old {
		r.Event().Flag |= trace.FlagRead
		return false
	}
	x.v = new
	r.Event().Val = 1
	return true
}

// Add adds delta to x's value and returns the new value, in one op.
func Add[T ~int | ~int64](x *Var[T], delta T, pc uintptr, what string) T {
	access(x, trace.KindAdd, false, pc, what)
	x.v += delta
	return x.v
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
