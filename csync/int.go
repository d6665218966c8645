package csync

import (
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// Int64 is a shared int64 with the operations of sync/atomic.Int64, each an
// op (see Var). Add is one read-modify-write op: unlike Load then Store, it
// cannot lose an update.
type Int64 struct{ v prim.Var[int64] }

// Load returns the value.
//
//go:noinline
func (x *Int64) Load() int64 { return x.v.Load(goruntime.CallerPC(), "Int64.Load") }

// Store sets the value.
//
//go:noinline
func (x *Int64) Store(v int64) { x.v.Store(v, goruntime.CallerPC(), "Int64.Store") }

// Add adds delta and returns the new value.
//
//go:noinline
func (x *Int64) Add(delta int64) int64 {
	return prim.Add(&x.v, delta, goruntime.CallerPC(), "Int64.Add")
}

// Swap sets the value to v and returns the old one.
//
//go:noinline
func (x *Int64) Swap(v int64) int64 { return x.v.Swap(v, goruntime.CallerPC(), "Int64.Swap") }

// CompareAndSwap sets the value to new if it is old and reports whether it did.
//
//go:noinline
func (x *Int64) CompareAndSwap(old, new int64) bool {
	return prim.CompareAndSwap(&x.v, old, new, goruntime.CallerPC(), "Int64.CompareAndSwap")
}

// Int is Int64 for int values.
type Int struct{ v prim.Var[int] }

// Load returns the value.
//
//go:noinline
func (x *Int) Load() int { return x.v.Load(goruntime.CallerPC(), "Int.Load") }

// Store sets the value.
//
//go:noinline
func (x *Int) Store(v int) { x.v.Store(v, goruntime.CallerPC(), "Int.Store") }

// Add adds delta and returns the new value.
//
//go:noinline
func (x *Int) Add(delta int) int { return prim.Add(&x.v, delta, goruntime.CallerPC(), "Int.Add") }

// Swap sets the value to v and returns the old one.
//
//go:noinline
func (x *Int) Swap(v int) int { return x.v.Swap(v, goruntime.CallerPC(), "Int.Swap") }

// CompareAndSwap sets the value to new if it is old and reports whether it did.
//
//go:noinline
func (x *Int) CompareAndSwap(old, new int) bool {
	return prim.CompareAndSwap(&x.v, old, new, goruntime.CallerPC(), "Int.CompareAndSwap")
}
