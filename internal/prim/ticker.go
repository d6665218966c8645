package prim

import (
	"sync/atomic"
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/trace"
)

// Ticker is csync.Ticker's implementation: it sends the time on its channel
// every period, dropping ticks nobody received. Each tick is a
// runtime-owned task (a trace.KindTimerFire step) that arms the next one,
// whose task is the tick step's Obj.
type Ticker struct {
	c      *Chan[time.Time]
	period time.Duration
	gen    atomic.Uint64 // the iteration task belongs to (atomic: read outside control)
	task   *core.Task
	pc     uintptr
	name   string // of the ticks' tasks
}

// Start starts the ticker with period d, sending on c, which it makes a
// timer's channel; pc locates the op. It panics if d ≤ 0.
func (tk *Ticker) Start(d time.Duration, c *Chan[time.Time], pc uintptr) {
	if d <= 0 {
		panic("non-positive interval for NewTicker")
	}
	t, r := ctl.Self("NewTicker")
	timerChan(c, pc)
	tk.c, tk.period, tk.pc, tk.name = c, d, pc, "ticker:"+t.Name
	tk.c.bind(r, pc)
	r.Do(t, core.Op{Kind: trace.KindSpawn, Obj: -1, PC: pc})
	tk.arm(t, r)
}

// Stop turns the ticker off, located at pc: no tick is sent after it, and a
// tick not yet received is dropped.
func (tk *Ticker) Stop(pc uintptr) {
	t, r := ctl.Task()
	if t == nil {
		// A controlled ticker belongs to its iteration: outside control,
		// it is stopped (see ctl.Obj.Outside).
		ctl.OutsideOf(tk.gen.Load(), "Ticker.Stop", pc)
		return
	}
	op := core.Op{Kind: trace.KindCancel, Obj: -1, PC: pc}
	if tk.active(r) {
		op.Obj = tk.task.ID
	}
	r.Do(t, op)
	tk.cancel(r)
}

// Reset stops the ticker and restarts it with period d, located at pc; it
// panics if d ≤ 0.
func (tk *Ticker) Reset(d time.Duration, pc uintptr) {
	if d <= 0 {
		panic("non-positive interval for Ticker.Reset")
	}
	t, r := ctl.Task()
	if t == nil {
		ctl.OutsideOf(tk.gen.Load(), "Ticker.Reset", pc)
		return
	}
	r.Do(t, core.Op{Kind: trace.KindSpawn, Obj: -1, PC: pc})
	tk.cancel(r)
	tk.period = d
	tk.arm(t, r)
}

func (tk *Ticker) active(r *core.Run) bool {
	return tk.task != nil && tk.gen.Load() == r.Gen() && !tk.task.Done()
}

func (tk *Ticker) cancel(r *core.Run) {
	if tk.active(r) {
		r.Cancel(tk.task)
	}
	tk.task = nil
	tk.c.bind(r, tk.pc)
	tk.c.drain()
}

// arm schedules the next tick as the effect of the step that runs now.
func (tk *Ticker) arm(parent *core.Task, r *core.Run) {
	tk.gen.Store(r.Gen())
	tk.task = r.SpawnTimer(parent, tk.name, trace.KindTimerFire,
		r.Now()+int64(tk.period), tk.pc, func(*core.Task) { tk.tick(r) })
	r.Event().Obj = tk.task.ID
}

func (tk *Ticker) tick(r *core.Run) {
	sendTime(tk.c, r, tk.pc)
	tk.arm(r.Current(), r)
}
