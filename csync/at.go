package csync

import (
	"time"

	"github.com/morpheus-go/morpheus/csync/internal/ctl"

	"github.com/morpheus-go/morpheus/internal/core"
)

// The ...At variants below are the primitives with the op's location given
// by the caller instead of taken from the caller's frame. They exist for
// package rt, whose helpers stand in for Go's operators in rewritten code:
// an op must be located at the user's line, not at the helper's. Other code
// should call the plain primitives.

// GoAt is Go with the spawn located at pc.
func GoAt(pc uintptr, f func()) {
	t, r := ctl.Self("Go")
	if f == nil {
		panic("csync: Go of nil func value")
	}
	spawn(t, r, pc, f)
}

// MakeAt is Make with the creation site pc.
func MakeAt[T any](n int, pc uintptr) *Chan[T] {
	if n < 0 {
		panic(chanError("makechan: size out of range"))
	}
	c := &Chan[T]{size: n}
	if n > 0 {
		c.buf = make([]chanItem[T], n)
	}
	c.o.SetSite(pc)
	if t := core.CurrentTask(); t != nil {
		c.bind(t.Run(), pc)
	}
	return c
}

// SendAt is Send located at pc.
func (c *Chan[T]) SendAt(v T, pc uintptr) { c.send(v, pc) }

// RecvAt is RecvOK located at pc.
func (c *Chan[T]) RecvAt(pc uintptr) (T, bool) { return c.recv(pc, "Chan.Recv") }

// SelectAt is Select located at pc.
func SelectAt(pc uintptr, cases ...Case) { doSelect(cases, pc) }

// SleepAt is Sleep located at pc.
func SleepAt(d time.Duration, pc uintptr) { sleep(d, pc) }

// NewTimerAt is NewTimer located at pc.
func NewTimerAt(d time.Duration, pc uintptr) *Timer {
	tm := &Timer{C: timerChan(pc)}
	tm.set(d, pc, "NewTimer")
	return tm
}

// AfterFuncAt is AfterFunc located at pc.
func AfterFuncAt(d time.Duration, f func(), pc uintptr) *Timer {
	tm := &Timer{f: f}
	tm.set(d, pc, "AfterFunc")
	return tm
}

// LoadAt is Load located at pc.
func (x *Var[T]) LoadAt(pc uintptr) T { return load(x, pc, "Var.Load") }

// StoreAt is Store located at pc.
func (x *Var[T]) StoreAt(v T, pc uintptr) { store(x, v, pc, "Var.Store") }

// SwapAt is Swap located at pc.
func (x *Var[T]) SwapAt(v T, pc uintptr) T { return swap(x, v, pc, "Var.Swap") }
