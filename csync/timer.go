package csync

import (
	"time"

	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// Timer is time.Timer on the virtual clock: when it fires, it sends the
// virtual time on C, or, made by AfterFunc, starts its function in a new
// goroutine. Each firing is a runtime-owned task (a step of kind
// trace.KindTimerFire) that becomes enabled when the clock reaches the
// deadline, so the strategy may still run other enabled ops before it.
//
// As in Go 1.23 and later, C reports length and capacity 0, and after Stop
// or Reset no value from before the call is received. Setting a timer
// (NewTimer, After, AfterFunc, Reset) is a step of kind trace.KindSpawn
// whose Obj is the firing task, Stop a step of kind trace.KindCancel.
type Timer struct {
	C *Chan[time.Time]

	t prim.Timer
}

// NewTimer returns a timer that sends the time on its channel after d.
//
//go:noinline
func NewTimer(d time.Duration) *Timer {
	tm := &Timer{C: new(Chan[time.Time])}
	tm.t.Start(d, &tm.C.c, nil, goruntime.CallerPC(), "NewTimer")
	return tm
}

// After returns the channel of a new timer that fires after d.
//
//go:noinline
func After(d time.Duration) *Chan[time.Time] {
	tm := &Timer{C: new(Chan[time.Time])}
	tm.t.Start(d, &tm.C.c, nil, goruntime.CallerPC(), "After")
	return tm.C
}

// AfterFunc returns a timer that, after d, calls f in a new goroutine (see
// Go). Its C is nil.
//
//go:noinline
func AfterFunc(d time.Duration, f func()) *Timer {
	tm := new(Timer)
	tm.t.Start(d, nil, f, goruntime.CallerPC(), "AfterFunc")
	return tm
}

// Stop prevents the timer from firing and reports whether it stopped it
// (false if it had fired or been stopped).
//
//go:noinline
func (tm *Timer) Stop() bool { return tm.t.Stop(goruntime.CallerPC()) }

// Reset makes the timer fire after d from now, and reports whether it had
// been active.
//
//go:noinline
func (tm *Timer) Reset(d time.Duration) bool { return tm.t.Reset(d, goruntime.CallerPC()) }
