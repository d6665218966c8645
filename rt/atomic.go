package rt

import (
	"sync"
	"unsafe"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// Atomic operations stay sync/atomic's; the rewriter puts a scheduling
// point before each: Atomic(Point(&x, read), atomic.AddInt64(&x, 1)). The
// point is a read or write op on a shadow object of the address, so that
// conflict analysis knows which atomics touch the same word. A write is a
// swap (a read and a write), so that for the data-race detector every
// atomic write acquires what earlier atomic writes of the word released, as
// the Go memory model's sequentially consistent atomics order them; a load
// acquires the last write.

// Token is what Point returns, for Atomic.
type Token struct{}

var shadows sync.Map // unsafe.Pointer -> *prim.Var[struct{}]

// Point is the scheduling point of an atomic access to *p.
//
//go:noinline
func Point[P any](p *P, read bool) Token {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil || p == nil {
		return Token{}
	}
	v, _ := shadows.LoadOrStore(unsafe.Pointer(p), new(prim.Var[struct{}]))
	x := v.(*prim.Var[struct{}])
	if read {
		x.Load(pc, "Var.Load")
	} else {
		x.Swap(struct{}{}, pc, "Var.Swap")
	}
	// For the data-race detector, the access is also an atomic access to
	// the address's plain-memory location: it races with plain accesses.
	t := core.CurrentTask()
	t.Run().RaceAccess(t, uint64(location(t.Run(), unsafe.Pointer(p))), !read, core.RaceAtomic, pc)
	return Token{}
}

// Atomic returns v: its argument list orders the point before the access.
func Atomic[T any](_ Token, v T) T { return v }
