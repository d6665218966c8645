package csync

import (
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// epoch is the virtual clock's zero (see Now).
var epoch = ctl.Epoch

// Now returns the virtual time: every iteration starts at 2000-01-01
// 00:00:00 UTC, as morpheus.Env.Now. It moves only when no task can run: then it
// jumps to the nearest deadline (a Sleep, a timer), so waiting costs no real
// time and a time-out fires only when everything else is stuck or done.
// Reading it is not an op.
func Now() time.Time {
	_, r := ctl.Self("Now")
	return epoch.Add(time.Duration(r.Now()))
}

// Since returns the virtual time elapsed since t.
func Since(t time.Time) time.Duration { return Now().Sub(t) }

// Until returns the virtual time until t.
func Until(t time.Time) time.Duration { return t.Sub(Now()) }

// Sleep blocks the caller for d of virtual time (at least: it wakes when the
// clock has reached its deadline and the strategy picks it). A d ≤ 0 is
// still a scheduling point.
//
//go:noinline
func Sleep(d time.Duration) { prim.Sleep(d, core.CallerPC()) }
