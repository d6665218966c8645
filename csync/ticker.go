package csync

import (
	"time"

	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// Ticker is time.Ticker on the virtual clock: it sends the time on C every
// period, dropping ticks nobody received. Each tick is a runtime-owned task
// (a trace.KindTimerFire step) that arms the next one, whose task is the
// tick step's Obj. A ticker left running does not keep an iteration alive:
// the iteration ends when nothing is enabled at the current time.
type Ticker struct {
	C *Chan[time.Time]

	t prim.Ticker
}

// NewTicker returns a ticker with period d; it panics if d ≤ 0.
//
//go:noinline
func NewTicker(d time.Duration) *Ticker {
	tk := &Ticker{C: new(Chan[time.Time])}
	tk.t.Start(d, &tk.C.c, goruntime.CallerPC())
	return tk
}

// Stop turns the ticker off: no tick is sent after it, and a tick not yet
// received is dropped.
//
//go:noinline
func (tk *Ticker) Stop() { tk.t.Stop(goruntime.CallerPC()) }

// Reset stops the ticker and restarts it with period d; it panics if d ≤ 0.
//
//go:noinline
func (tk *Ticker) Reset(d time.Duration) { tk.t.Reset(d, goruntime.CallerPC()) }
