package csync

import (
	"sync"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
	"github.com/morpheus-go/morpheus/trace"
)

// WaitGroup waits for a collection of goroutines to finish, as
// sync.WaitGroup: Add and Done change a counter, Wait blocks until it is
// zero, a negative counter panics with "sync: negative WaitGroup counter".
// The zero WaitGroup is ready to use.
//
// Add and Done are write ops on the group's resource and Wait a read op, so
// two Waits do not conflict. When the counter reaches zero every blocked
// Wait is released, even if a later Add raises it again before they run (as
// in Go, such reuse is the caller's race).
type WaitGroup struct {
	o   ctl.Obj
	n   int64
	q   ctl.Queue
	out sync.WaitGroup // the WaitGroup outside control (see ctl.Obj.Outside)
}

type wgOn WaitGroup

func (w *wgOn) String() string { return w.o.Name("waitgroup") }

func (wg *WaitGroup) bind(r *core.Run, pc uintptr) {
	if wg.o.Bind(r, pc) {
		wg.n = 0
		wg.q.Reset()
	}
}

// Add adds delta, which may be negative, to the counter.
//
//go:noinline
func (wg *WaitGroup) Add(delta int) { wg.add(int64(delta), goruntime.CallerPC()) }

// Done decrements the counter by one.
//
//go:noinline
func (wg *WaitGroup) Done() { wg.add(-1, goruntime.CallerPC()) }

// Go calls f in a new goroutine (see csync.Go) and adds it to the group: Add(1),
// then Done when f returns, as sync.WaitGroup.Go.
//
//go:noinline
func (wg *WaitGroup) Go(f func()) {
	pc := goruntime.CallerPC()
	t, r := ctl.Task()
	if t == nil {
		wg.o.Outside("WaitGroup.Go", pc)
		wg.out.Go(f)
		return
	}
	wg.add(1, pc)
	prim.Spawn(t, r, pc, func() {
		defer wg.add(-1, pc)
		f()
	})
}

// Wait blocks until the counter is zero.
//
//go:noinline
func (wg *WaitGroup) Wait() {
	pc := goruntime.CallerPC()
	t, r := ctl.Task()
	if t == nil {
		wg.o.Outside("WaitGroup.Wait", pc)
		wg.out.Wait()
		return
	}
	wg.bind(r, pc)
	op := core.Op{Kind: trace.KindWGWait, Res: wg.o.Res, Read: true, Obj: -1, PC: pc}
	if wg.n == 0 {
		r.Do(t, op)
		if wg.n == 0 {
			return
		}
		ctl.NoEffect(r) // an Add came first
	}
	if wg.q.Len() == 0 {
		// The first Wait to block writes the group, and an Add from zero
		// reads it (as under Go's race detector): an Add that no
		// synchronisation orders before or after such a Wait is a race.
		r.RaceAccess(t, wg.raceKey(), true, core.RaceWGWait, pc)
	}
	wg.q.Push(t)
	op.Blocked, op.On = true, (*wgOn)(wg)
	r.Do(t, op) // released when the counter reached zero
}

func (wg *WaitGroup) raceKey() uint64 { return uint64(wg.o.Res)<<32 | 0xffffffff }

func (wg *WaitGroup) add(delta int64, pc uintptr) {
	t, r := ctl.Task()
	if t == nil {
		wg.o.Outside("WaitGroup.Add", pc)
		wg.out.Add(int(delta))
		return
	}
	wg.bind(r, pc)
	r.Do(t, core.Op{Kind: trace.KindWGAdd, Res: wg.o.Res, Obj: -1, Val: delta, PC: pc})
	wg.n += delta
	if delta > 0 && wg.n == delta {
		r.RaceAccess(t, wg.raceKey(), false, core.RaceWGAdd, pc)
	}
	if wg.n < 0 {
		panic("sync: negative WaitGroup counter")
	}
	if wg.n == 0 {
		wg.q.WakeAll(r)
	}
}
