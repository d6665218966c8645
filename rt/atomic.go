package rt

import (
	"sync"
	"unsafe"
	"weak"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
	"github.com/morpheus-go/morpheus/trace"
)

// Atomic operations stay sync/atomic's; the rewriter puts a scheduling
// point before each: Atomic(Point(&x, AtomicAdd, "x"), atomic.AddInt64(&x, 1)). The
// point is a read or write op on a shadow object of the address, so that
// conflict analysis knows which atomics touch the same word. A write is a
// swap (a read and a write), so that for the data-race detector every
// atomic write acquires what earlier atomic writes of the word released, as
// the Go memory model's sequentially consistent atomics order them; a load
// acquires the last write.

// Token is what Point returns, for Atomic.
type Token struct{}

// AtomicOp is the sync/atomic operation of a Point, which the step's trace
// shows (trace.PointOp: "atomic-add" rather than the shadow's "swap").
type AtomicOp = trace.PointOp

// The operations of sync/atomic, for Point.
const (
	AtomicLoad  = trace.PointAtomicLoad
	AtomicStore = trace.PointAtomicStore
	AtomicSwap  = trace.PointAtomicSwap
	AtomicCAS   = trace.PointAtomicCAS
	AtomicAdd   = trace.PointAtomicAdd
	AtomicAnd   = trace.PointAtomicAnd
	AtomicOr    = trace.PointAtomicOr
)

// shadows maps the address of an atomic word (or of a sync.Map or
// sync.Pool) to its shadow, the variable whose ops stand for the word's. An
// entry holds the word's object only weakly (weakObject): keyed by the
// pointer itself, the table kept every object whose atomics a schedule
// touched alive for the rest of the process, and with it all they reach (a
// raft cluster per schedule, gigabytes over a test package). An entry whose
// object died, its address since reused, is replaced.
var shadows sync.Map // uintptr -> *shadow

type shadow struct {
	obj     weak.Pointer[byte]
	offHeap bool
	v       prim.Var[struct{}]
}

// live reports whether the entry's object is still the one at its address.
func (s *shadow) live() bool { return s.offHeap || s.obj.Value() != nil }

// shadowOf returns the shadow of the word at p.
func shadowOf(p unsafe.Pointer) *prim.Var[struct{}] {
	k := uintptr(p)
	var fresh *shadow
	for {
		e, ok := shadows.Load(k)
		if ok && e.(*shadow).live() {
			return &e.(*shadow).v
		}
		if fresh == nil {
			fresh = &shadow{}
			if isOffHeap(p) {
				fresh.offHeap = true // no weak pointer there (offheap.go)
			} else {
				fresh.obj = weakObject(p)
			}
		}
		if ok && shadows.CompareAndSwap(k, e, fresh) || !ok && storeNew(k, fresh) {
			return &fresh.v
		}
	}
}

// storeNew stores s at k unless an entry is there, and reports whether it did.
func storeNew(k uintptr, s *shadow) bool {
	_, loaded := shadows.LoadOrStore(k, s)
	return !loaded
}

// Point is the scheduling point of the atomic operation op on *p, the
// location the code names name ("c.hits").
//
//go:noinline
func Point[P any](p *P, op AtomicOp, name string) Token {
	point(unsafe.Pointer(p), op, name, goruntime.CallerPC())
	return Token{}
}

// point is Point's op on the word at p, made at pc: a read (a load) or a
// write (a swap) of its shadow, whose step keeps op in its Val.
func point(p unsafe.Pointer, op trace.PointOp, name string, pc uintptr) {
	if core.CurrentTask() == nil || p == nil {
		return
	}
	x := shadowOf(p)
	read := op == trace.PointAtomicLoad || op == trace.PointMapLoad || op == trace.PointMapRange
	if read {
		x.Load(pc, "Var.Load")
	} else {
		x.Swap(struct{}{}, pc, "Var.Swap")
	}
	t := core.CurrentTask()
	t.Run().Event().Val = int64(op)
	// For the data-race detector, the access is also an atomic access to
	// the address's plain-memory location: it races with plain accesses.
	t.Run().RaceAccess(t, uint64(location(t.Run(), p, name)), !read, core.RaceAtomic, pc)
}

// Atomic returns v: its argument list orders the point before the access.
func Atomic[T any](_ Token, v T) T { return v }

// mapPoint is the scheduling point of the sync.Map method op on m, located
// in the method that calls it.
//
//go:noinline
func mapPoint(m *sync.Map, op trace.PointOp) {
	point(unsafe.Pointer(m), op, "sync.Map", goruntime.CallerPC())
}

// poolPoint is the scheduling point of the Pool method op on p, located in
// the method that calls it.
//
//go:noinline
func poolPoint(p *Pool, op trace.PointOp) {
	point(unsafe.Pointer(p), op, "sync.Pool", goruntime.CallerPC())
}

// The operations of sync.Map's and sync.Pool's points (syncmap.go).
const (
	pointMapLoad          = trace.PointMapLoad
	pointMapStore         = trace.PointMapStore
	pointMapLoadOrStore   = trace.PointMapLoadOrStore
	pointMapLoadAndDelete = trace.PointMapLoadAndDelete
	pointMapDelete        = trace.PointMapDelete
	pointMapSwap          = trace.PointMapSwap
	pointMapCAS           = trace.PointMapCAS
	pointMapCAD           = trace.PointMapCAD
	pointMapRange         = trace.PointMapRange
	pointMapClear         = trace.PointMapClear
	pointPoolGet          = trace.PointPoolGet
	pointPoolPut          = trace.PointPoolPut
)
