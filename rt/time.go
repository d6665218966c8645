package rt

import (
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// The time functions run on the virtual clock inside morpheus's control and,
// outside it (package initialization, TestMain), on the outside clock,
// which is a minute behind every schedule's start and moves only as outside
// code waits (outside.go). Outside control they wait in real time.

// Sleep stands for time.Sleep.
//
//go:noinline
func Sleep(d time.Duration) {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		outsideSleep(d)
		return
	}
	prim.Sleep(d, pc)
}

// Now stands for time.Now.
//
//go:noinline
func Now() time.Time { return now(goruntime.CallerPC()) }

// Since stands for time.Since.
//
//go:noinline
func Since(t time.Time) time.Duration { return now(goruntime.CallerPC()).Sub(t) }

// Until stands for time.Until.
//
//go:noinline
func Until(t time.Time) time.Duration { return t.Sub(now(goruntime.CallerPC())) }

// now reads the clock for a caller at pc.
func now(pc uintptr) time.Time {
	if core.CurrentTask() == nil {
		return outsideNow()
	}
	return prim.Now(pc)
}

// Timer stands for time.Timer.
type Timer struct {
	C  <-chan time.Time
	t  *prim.Timer
	nt *outsideTimer // a timer made outside control
}

// NewTimer stands for time.NewTimer.
//
//go:noinline
func NewTimer(d time.Duration) *Timer { return newTimer(d, nil, goruntime.CallerPC()) }

// AfterFunc stands for time.AfterFunc: f runs in a new controlled goroutine.
//
//go:noinline
func AfterFunc(d time.Duration, f func()) *Timer { return newTimer(d, f, goruntime.CallerPC()) }

// After stands for time.After.
//
//go:noinline
func After(d time.Duration) <-chan time.Time { return newTimer(d, nil, goruntime.CallerPC()).C }

func newTimer(d time.Duration, f func(), pc uintptr) *Timer {
	if core.CurrentTask() == nil {
		nt := newOutsideTimer(d, f, 0)
		return &Timer{C: nt.c, nt: nt}
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
		return t.nt.stop()
	}
	return t.t.Stop(goruntime.CallerPC())
}

// Reset stands for time.Timer.Reset.
//
//go:noinline
func (t *Timer) Reset(d time.Duration) bool {
	if t.nt != nil {
		return t.nt.reset(d)
	}
	return t.t.Reset(d, goruntime.CallerPC())
}

// Ticker stands for time.Ticker.
type Ticker struct {
	C  <-chan time.Time
	t  *prim.Ticker
	nt *outsideTimer // a ticker made outside control
}

// NewTicker stands for time.NewTicker.
//
//go:noinline
func NewTicker(d time.Duration) *Ticker { return newTicker(d, goruntime.CallerPC()) }

// Tick stands for time.Tick.
//
//go:noinline
func Tick(d time.Duration) <-chan time.Time {
	if d <= 0 {
		return nil
	}
	return newTicker(d, goruntime.CallerPC()).C
}

func newTicker(d time.Duration, pc uintptr) *Ticker {
	if core.CurrentTask() == nil {
		if d <= 0 {
			panic("non-positive interval for NewTicker")
		}
		nt := newOutsideTimer(d, nil, d)
		return &Ticker{C: nt.c, nt: nt}
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
		t.nt.stop()
		return
	}
	t.t.Stop(goruntime.CallerPC())
}

// Reset stands for time.Ticker.Reset.
//
//go:noinline
func (t *Ticker) Reset(d time.Duration) {
	if t.nt != nil {
		if d <= 0 {
			panic("non-positive interval for Ticker.Reset")
		}
		t.nt.reset(d)
		return
	}
	t.t.Reset(d, goruntime.CallerPC())
}

// Nanotime stands for the runtime's monotonic clock, runtime.nanotime,
// which old code reaches by //go:linkname: nanoseconds on the clock Now
// reads (virtual under control).
//
//go:noinline
func Nanotime() int64 { return now(goruntime.CallerPC()).UnixNano() }
