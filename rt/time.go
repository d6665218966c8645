package rt

import (
	"time"

	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// The time functions run on the virtual clock inside morpheus's control and
// on the real one outside it (package initialization, TestMain).

// Sleep stands for time.Sleep.
//
//go:noinline
func Sleep(d time.Duration) {
	pc := core.CallerPC()
	if core.CurrentTask() == nil {
		time.Sleep(d)
		return
	}
	prim.Sleep(d, pc)
}

// Now stands for time.Now.
func Now() time.Time {
	if core.CurrentTask() == nil {
		return time.Now()
	}
	return csync.Now()
}

// Since stands for time.Since.
func Since(t time.Time) time.Duration { return Now().Sub(t) }

// Until stands for time.Until.
func Until(t time.Time) time.Duration { return t.Sub(Now()) }

// Timer stands for time.Timer.
type Timer struct {
	C  <-chan time.Time
	t  *prim.Timer
	nt *time.Timer
}

// NewTimer stands for time.NewTimer.
//
//go:noinline
func NewTimer(d time.Duration) *Timer { return newTimer(d, nil, core.CallerPC()) }

// AfterFunc stands for time.AfterFunc: f runs in a new controlled goroutine.
//
//go:noinline
func AfterFunc(d time.Duration, f func()) *Timer { return newTimer(d, f, core.CallerPC()) }

// After stands for time.After.
//
//go:noinline
func After(d time.Duration) <-chan time.Time { return newTimer(d, nil, core.CallerPC()).C }

func newTimer(d time.Duration, f func(), pc uintptr) *Timer {
	if core.CurrentTask() == nil {
		if f != nil {
			return &Timer{nt: time.AfterFunc(d, f)}
		}
		nt := time.NewTimer(d)
		return &Timer{C: nt.C, nt: nt}
	}
	if f != nil {
		tm := new(prim.Timer)
		tm.Start(d, nil, f, pc, "AfterFunc")
		return &Timer{t: tm}
	}
	tm, c := new(prim.Timer), new(prim.Chan[time.Time])
	tm.Start(d, c, nil, pc, "NewTimer")
	nc := make(chan time.Time, 1)
	register(nc, c)
	return &Timer{C: nc, t: tm}
}

// Stop stands for time.Timer.Stop.
//
//go:noinline
func (t *Timer) Stop() bool {
	if t.nt != nil {
		return t.nt.Stop()
	}
	return t.t.Stop(core.CallerPC())
}

// Reset stands for time.Timer.Reset.
//
//go:noinline
func (t *Timer) Reset(d time.Duration) bool {
	if t.nt != nil {
		return t.nt.Reset(d)
	}
	return t.t.Reset(d, core.CallerPC())
}

// Ticker stands for time.Ticker.
type Ticker struct {
	C  <-chan time.Time
	t  *prim.Ticker
	nt *time.Ticker
}

// NewTicker stands for time.NewTicker.
//
//go:noinline
func NewTicker(d time.Duration) *Ticker { return newTicker(d, core.CallerPC()) }

// Tick stands for time.Tick.
//
//go:noinline
func Tick(d time.Duration) <-chan time.Time {
	if d <= 0 {
		return nil
	}
	return newTicker(d, core.CallerPC()).C
}

func newTicker(d time.Duration, pc uintptr) *Ticker {
	if core.CurrentTask() == nil {
		nt := time.NewTicker(d)
		return &Ticker{C: nt.C, nt: nt}
	}
	tk, c := new(prim.Ticker), new(prim.Chan[time.Time])
	tk.Start(d, c, pc)
	nc := make(chan time.Time, 1)
	register(nc, c)
	return &Ticker{C: nc, t: tk}
}

// Stop stands for time.Ticker.Stop.
//
//go:noinline
func (t *Ticker) Stop() {
	if t.nt != nil {
		t.nt.Stop()
		return
	}
	t.t.Stop(core.CallerPC())
}

// Reset stands for time.Ticker.Reset.
//
//go:noinline
func (t *Ticker) Reset(d time.Duration) {
	if t.nt != nil {
		t.nt.Reset(d)
		return
	}
	t.t.Reset(d, core.CallerPC())
}
