package csync

import (
	"sync"
	"sync/atomic"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/trace"
)

// Cond is a condition variable, as sync.Cond: Wait atomically unlocks L and
// suspends the caller until a Signal or Broadcast wakes it, then locks L
// again before returning. Waiters are woken in the order they started
// waiting; there are no spurious wake-ups, and, as in Go, no time-out. A
// signal with nobody waiting is lost.
//
// Wait is three steps: the unlock of L, in which the caller joins the
// waiters (a Signal before it, from a task that does not hold L, is lost, as
// in Go), the wake-up (a KindCondWait whose Val is the id of the signal that
// woke it, from which the happens-before walk orders the signal before it),
// and the lock of L.
type Cond struct {
	// L is held while observing or changing the condition.
	L Locker

	o   ctl.Obj
	seq uint32
	ws  []condWaiter
	out atomic.Pointer[sync.Cond] // the Cond outside control, on L (see ctl.Obj.Outside)
}

type condWaiter struct {
	t   *core.Task
	sig int64 // id of the signal that woke it, 0 while it waits
}

type condOn Cond

func (c *condOn) String() string { return c.o.Name("cond") }

// NewCond returns a Cond with Locker l.
func NewCond(l Locker) *Cond { return &Cond{L: l} }

func (c *Cond) bind(r *core.Run, pc uintptr) {
	if c.o.Bind(r, pc) {
		c.seq = 0
		clear(c.ws)
		c.ws = c.ws[:0]
	}
}

// Wait unlocks c.L, waits for a Signal or Broadcast, and locks c.L again.
//
//go:noinline
func (c *Cond) Wait() {
	pc := goruntime.CallerPC()
	t, r := ctl.Task()
	if t == nil {
		c.o.Outside("Cond.Wait", pc)
		c.outside().Wait()
		return
	}
	c.bind(r, pc)
	// The caller joins the waiters in the step that unlocks L, not before:
	// until that step the strategy may run others first, and a Signal
	// from a task that does not hold L finds nobody waiting and is lost,
	// as in Go. (Joining before the unlock's op was posted put it in the
	// caller's step before: a goroutine started to Wait joined as it
	// started, so such a signal could never be lost.)
	unlockAt(c.L, pc)
	c.ws = append(c.ws, condWaiter{t: t})
	r.Do(t, core.Op{Kind: trace.KindCondWait, Res: c.o.Res, Obj: -1, PC: pc,
		Blocked: c.signal(t) == 0, On: (*condOn)(c)})
	r.Event().Val = c.leave(t)
	lockAt(c.L, pc)
}

// Signal wakes the longest-waiting task, if any.
//
//go:noinline
func (c *Cond) Signal() { c.wake(false, goruntime.CallerPC()) }

// Broadcast wakes all waiting tasks.
//
//go:noinline
func (c *Cond) Broadcast() { c.wake(true, goruntime.CallerPC()) }

func (c *Cond) wake(all bool, pc uintptr) {
	what, kind := "Cond.Signal", trace.KindCondSignal
	if all {
		what, kind = "Cond.Broadcast", trace.KindCondBroadcast
	}
	t, r := ctl.Task()
	if t == nil {
		c.o.Outside(what, pc)
		if all {
			c.outside().Broadcast()
		} else {
			c.outside().Signal()
		}
		return
	}
	c.bind(r, pc)
	r.Do(t, core.Op{Kind: kind, Res: c.o.Res, Obj: -1, PC: pc})
	c.seq++
	id := int64(c.o.Res)<<32 | int64(c.seq)
	r.Event().Val = id
	for i := range c.ws {
		w := &c.ws[i]
		if w.sig != 0 || w.t.Done() {
			continue
		}
		w.sig = id
		r.Unblock(w.t)
		if !all {
			return
		}
	}
}

// outside returns the Cond outside control, a sync.Cond on L.
func (c *Cond) outside() *sync.Cond {
	if o := c.out.Load(); o != nil {
		return o
	}
	c.out.CompareAndSwap(nil, sync.NewCond(c.L))
	return c.out.Load()
}

// signal returns the id of the signal that woke t, 0 if none yet.
func (c *Cond) signal(t *core.Task) int64 {
	for i := range c.ws {
		if c.ws[i].t == t {
			return c.ws[i].sig
		}
	}
	return 0
}

// leave takes t out of the waiters and returns the id of its signal.
func (c *Cond) leave(t *core.Task) int64 {
	for i := range c.ws {
		if c.ws[i].t == t {
			sig := c.ws[i].sig
			copy(c.ws[i:], c.ws[i+1:])
			c.ws[len(c.ws)-1] = condWaiter{}
			c.ws = c.ws[:len(c.ws)-1]
			return sig
		}
	}
	return trace.ValNone
}
