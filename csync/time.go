package csync

import (
	"time"

	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// Now returns the virtual time: every iteration starts at 2000-01-01
// 00:00:00 UTC (or morpheus.Epoch's instant), as morpheus.Env.Now. It moves only when no task can run, or
// every task that can run polls: then it moves towards the nearest deadline
// (a Sleep, a timer), so waiting costs no real time and a time-out fires only
// when everything else is stuck, polling or done. A task a deadline woke
// reads a time past it (a nanosecond per move of the clock). Reading it is
// not an op, unless a task reads it again and again without one: then every
// 64th read is a poll, so that a loop that spins on the clock sees it move.
//
//go:noinline
func Now() time.Time { return prim.Now(goruntime.CallerPC()) }

// Since returns the virtual time elapsed since t.
func Since(t time.Time) time.Duration { return Now().Sub(t) }

// Until returns the virtual time until t.
func Until(t time.Time) time.Duration { return t.Sub(Now()) }

// Sleep blocks the caller for d of virtual time (at least: it wakes when the
// clock has reached its deadline and the strategy picks it). A d ≤ 0 is
// still a scheduling point.
//
//go:noinline
func Sleep(d time.Duration) { prim.Sleep(d, goruntime.CallerPC()) }
