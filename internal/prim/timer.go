package prim

import (
	"sync/atomic"
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/trace"
)

// Timer is csync.Timer's implementation: when it fires, it sends the
// virtual time on its channel, or starts its function in a new goroutine.
// Each firing is a runtime-owned task (a step of kind trace.KindTimerFire)
// that becomes enabled when the clock reaches the deadline. Setting a timer
// (Start, Reset) is a step of kind trace.KindSpawn whose Obj is the firing
// task, Stop a step of kind trace.KindCancel.
type Timer struct {
	c    *Chan[time.Time] // the channel a firing sends on, nil for a function's timer
	f    func()           // the function a firing starts, nil for a channel timer
	gen  atomic.Uint64    // the iteration task belongs to (atomic: read outside control)
	task *core.Task       // the pending firing, nil if none
}

// Start sets the timer, for the first time, to fire after d: to send the
// time on c, which it makes a timer's channel (length and capacity 0, as in
// Go 1.23), or, with c nil, to start f in a new goroutine. pc locates the
// op; what names the caller's primitive ("NewTimer") for the panic of a call
// outside a task.
func (tm *Timer) Start(d time.Duration, c *Chan[time.Time], f func(), pc uintptr, what string) {
	tm.c, tm.f = c, f
	if c != nil {
		timerChan(c, pc)
	}
	tm.set(d, pc, what)
}

// Stop prevents the timer from firing, located at pc, and reports whether
// it stopped it (false if it had fired or been stopped).
func (tm *Timer) Stop(pc uintptr) bool {
	t, r := ctl.Task()
	if t == nil {
		// A controlled timer belongs to its iteration: outside control,
		// it has fired or been stopped (see ctl.Obj.Outside).
		ctl.OutsideOf(tm.gen.Load(), "Timer.Stop", pc)
		return false
	}
	op := core.Op{Kind: trace.KindCancel, Obj: -1, PC: pc}
	if tm.active(r) {
		op.Obj = tm.task.ID
	}
	r.Do(t, op)
	return tm.cancel(r, pc)
}

// Reset makes the timer fire after d from now, located at pc, and reports
// whether it had been active.
func (tm *Timer) Reset(d time.Duration, pc uintptr) bool {
	t, r := ctl.Task()
	if t == nil {
		ctl.OutsideOf(tm.gen.Load(), "Timer.Reset", pc)
		return false
	}
	r.Do(t, core.Op{Kind: trace.KindSpawn, Obj: -1, PC: pc})
	was := tm.cancel(r, pc)
	tm.arm(t, r, d, pc)
	return was
}

// timerChan makes c a timer's channel created at pc: one slot, length and
// capacity reported as 0.
func timerChan(c *Chan[time.Time], pc uintptr) {
	c.size, c.buf, c.timer = 1, make([]chanItem[time.Time], 1), true
	c.o.SetSite(pc)
}

// set is the first setting of a timer.
func (tm *Timer) set(d time.Duration, pc uintptr, what string) {
	t, r := ctl.Self(what)
	if tm.c != nil {
		tm.c.bind(r, pc)
	}
	r.Do(t, core.Op{Kind: trace.KindSpawn, Obj: -1, PC: pc})
	tm.arm(t, r, d, pc)
}

// active reports whether a firing is pending in r's iteration.
func (tm *Timer) active(r *core.Run) bool {
	return tm.task != nil && tm.gen.Load() == r.Gen() && !tm.task.Done()
}

// arm schedules the firing d from now as the effect of the step that runs
// now, and records the firing task in it.
func (tm *Timer) arm(parent *core.Task, r *core.Run, d time.Duration, pc uintptr) {
	tm.gen.Store(r.Gen())
	tm.task = r.SpawnTimer(parent, r.TimerName(parent), trace.KindTimerFire,
		r.Now()+int64(max(d, 0)), pc, func(*core.Task) { tm.fire(r, pc) })
	r.Event().Obj = tm.task.ID
}

// cancel stops the pending firing and drains the channel; it reports whether
// a firing was pending.
func (tm *Timer) cancel(r *core.Run, pc uintptr) bool {
	was := tm.active(r)
	if was {
		r.Cancel(tm.task)
	}
	tm.task = nil
	if tm.c != nil {
		tm.c.bind(r, pc)
		tm.c.drain()
	}
	return was
}

func (tm *Timer) fire(r *core.Run, pc uintptr) {
	tm.task = nil
	if tm.f != nil {
		start(r.Current(), r, tm.f)
		return
	}
	sendTime(tm.c, r, pc)
}

// sendTime sends the time on a timer's channel from the firing task that
// runs now, dropping it if the channel is full (nobody received the last
// one), and records the send in the firing's step.
func sendTime(c *Chan[time.Time], r *core.Run, pc uintptr) {
	c.bind(r, pc)
	ev := r.Event()
	ev.Res, ev.Val = c.o.Res, trace.ValNone
	if id, ok := c.put(r.Current(), r, Wall(r)); ok {
		ev.Val = id
	}
}

// drain empties a timer channel's buffer.
func (c *Chan[T]) drain() {
	clear(c.buf)
	c.head, c.n = 0, 0
}
