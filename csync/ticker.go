package csync

import (
	"time"

	"github.com/morpheus-go/morpheus/csync/internal/ctl"
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/trace"
)

// Ticker is time.Ticker on the virtual clock: it sends the time on C every
// period, dropping ticks nobody received. Each tick is a runtime-owned task
// (a trace.KindTimerFire step) that arms the next one, whose task is the
// tick step's Obj. A ticker left running does not keep an iteration alive:
// the iteration ends when nothing is enabled at the current time.
type Ticker struct {
	C *Chan[time.Time]

	period time.Duration
	gen    uint64
	task   *core.Task
	pc     uintptr
	name   string // of the ticks' tasks
}

// NewTicker returns a ticker with period d; it panics if d ≤ 0.
//
//go:noinline
func NewTicker(d time.Duration) *Ticker { return NewTickerAt(d, core.CallerPC()) }

// NewTickerAt is NewTicker with the op located at pc (see package rt).
func NewTickerAt(d time.Duration, pc uintptr) *Ticker {
	if d <= 0 {
		panic("non-positive interval for NewTicker")
	}
	t, r := ctl.Self("NewTicker")
	tk := &Ticker{C: timerChan(pc), period: d, pc: pc, name: "ticker:" + t.Name}
	tk.C.bind(r, pc)
	r.Do(t, core.Op{Kind: trace.KindSpawn, Obj: -1, PC: pc})
	tk.arm(t, r)
	return tk
}

// Stop turns the ticker off: no tick is sent after it, and a tick not yet
// received is dropped.
//
//go:noinline
func (tk *Ticker) Stop() { tk.StopAt(core.CallerPC()) }

// StopAt is Stop with the op located at pc (see package rt).
func (tk *Ticker) StopAt(pc uintptr) {
	t, r := ctl.Self("Ticker.Stop")
	op := core.Op{Kind: trace.KindCancel, Obj: -1, PC: pc}
	if tk.active(r) {
		op.Obj = tk.task.ID
	}
	r.Do(t, op)
	tk.cancel(r)
}

// Reset stops the ticker and restarts it with period d; it panics if d ≤ 0.
//
//go:noinline
func (tk *Ticker) Reset(d time.Duration) { tk.ResetAt(d, core.CallerPC()) }

// ResetAt is Reset with the op located at pc (see package rt).
func (tk *Ticker) ResetAt(d time.Duration, pc uintptr) {
	if d <= 0 {
		panic("non-positive interval for Ticker.Reset")
	}
	t, r := ctl.Self("Ticker.Reset")
	r.Do(t, core.Op{Kind: trace.KindSpawn, Obj: -1, PC: pc})
	tk.cancel(r)
	tk.period = d
	tk.arm(t, r)
}

func (tk *Ticker) active(r *core.Run) bool {
	return tk.task != nil && tk.gen == r.Gen() && !tk.task.Done()
}

func (tk *Ticker) cancel(r *core.Run) {
	if tk.active(r) {
		r.Cancel(tk.task)
	}
	tk.task = nil
	tk.C.bind(r, tk.pc)
	tk.C.drain()
}

// arm schedules the next tick as the effect of the step that runs now.
func (tk *Ticker) arm(parent *core.Task, r *core.Run) {
	tk.gen = r.Gen()
	tk.task = r.SpawnTimer(parent, tk.name, trace.KindTimerFire,
		r.Now()+int64(tk.period), tk.pc, func() { tk.tick(r) })
	r.Event().Obj = tk.task.ID
}

func (tk *Ticker) tick(r *core.Run) {
	sendTime(tk.C, r, tk.pc)
	tk.arm(r.Current(), r)
}
