package prim

import (
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
)

// Now returns the time the calling task reads (core.Run.ReadWall): the
// epoch (core.Run.Epoch) plus the virtual clock, a little past every deadline the clock moved
// to, and past the time of the read before.
// Reading it is not an op, unless the task reads it again and again without
// one (core.Run.ReadClock): then the read is a poll, at pc.
func Now(pc uintptr) time.Time {
	t, r := ctl.Self("Now")
	if r.ReadClock(t) {
		Yield(pc)
	}
	return r.Epoch().Add(time.Duration(r.ReadWall()))
}

// Peek returns the time the calling task would read, without reading it
// (Now would return a later one if it repeated the last read): for a
// duration morpheus itself works out from a time the task read, such as a
// context's time-out from its deadline.
func Peek() time.Time {
	_, r := ctl.Self("Now")
	return Wall(r)
}

// Wall returns the time tasks of r read now.
func Wall(r *core.Run) time.Time { return r.Epoch().Add(time.Duration(r.Wall())) }

// Yield is a poll of the running task at pc: a scheduling point that
// changes nothing (runtime.Gosched).
func Yield(pc uintptr) { Sleep(0, pc) }
