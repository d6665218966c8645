package csync

import (
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
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
type Var[T any] struct{ v prim.Var[T] }

// Load returns x's value.
//
//go:noinline
func (x *Var[T]) Load() T { return x.v.Load(goruntime.CallerPC(), "Var.Load") }

// Store sets x's value to v.
//
//go:noinline
func (x *Var[T]) Store(v T) { x.v.Store(v, goruntime.CallerPC(), "Var.Store") }

// Swap sets x's value to v and returns the old value, in one op.
//
//go:noinline
func (x *Var[T]) Swap(v T) T { return x.v.Swap(v, goruntime.CallerPC(), "Var.Swap") }

// CompareAndSwap sets x's value to new if it is old, in one op, and reports
// whether it did. (A function, since only comparable types have it.)
//
//go:noinline
func CompareAndSwap[T comparable](x *Var[T], old, new T) bool {
	return prim.CompareAndSwap(&x.v, old, new, goruntime.CallerPC(), "CompareAndSwap")
}
