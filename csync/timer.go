package csync

import (
	"time"

	"github.com/morpheus-go/morpheus/csync/internal/ctl"
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/trace"
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

	f    func()     // AfterFunc's function, nil for a channel timer
	gen  uint64     // the iteration task belongs to
	task *core.Task // the pending firing, nil if none
}

// NewTimer returns a timer that sends the time on its channel after d.
//
//go:noinline
func NewTimer(d time.Duration) *Timer {
	pc := core.CallerPC()
	tm := &Timer{C: timerChan(pc)}
	tm.set(d, pc, "NewTimer")
	return tm
}

// After returns the channel of a new timer that fires after d.
//
//go:noinline
func After(d time.Duration) *Chan[time.Time] {
	pc := core.CallerPC()
	tm := &Timer{C: timerChan(pc)}
	tm.set(d, pc, "After")
	return tm.C
}

// AfterFunc returns a timer that, after d, calls f in a new goroutine (see
// Go). Its C is nil.
//
//go:noinline
func AfterFunc(d time.Duration, f func()) *Timer {
	tm := &Timer{f: f}
	tm.set(d, core.CallerPC(), "AfterFunc")
	return tm
}

// Stop prevents the timer from firing and reports whether it stopped it
// (false if it had fired or been stopped).
//
//go:noinline
func (tm *Timer) Stop() bool { return tm.StopAt(core.CallerPC()) }

// StopAt is Stop with the op located at pc (see package rt).
func (tm *Timer) StopAt(pc uintptr) bool {
	t, r := ctl.Self("Timer.Stop")
	op := core.Op{Kind: trace.KindCancel, Obj: -1, PC: pc}
	if tm.active(r) {
		op.Obj = tm.task.ID
	}
	r.Do(t, op)
	return tm.cancel(r, pc)
}

// Reset makes the timer fire after d from now, and reports whether it had
// been active.
//
//go:noinline
func (tm *Timer) Reset(d time.Duration) bool { return tm.ResetAt(d, core.CallerPC()) }

// ResetAt is Reset with the op located at pc (see package rt).
func (tm *Timer) ResetAt(d time.Duration, pc uintptr) bool {
	t, r := ctl.Self("Timer.Reset")
	r.Do(t, core.Op{Kind: trace.KindSpawn, Obj: -1, PC: pc})
	was := tm.cancel(r, pc)
	tm.arm(t, r, d, pc)
	return was
}

func timerChan(pc uintptr) *Chan[time.Time] {
	c := &Chan[time.Time]{size: 1, buf: make([]chanItem[time.Time], 1), timer: true}
	c.o.SetSite(pc)
	return c
}

// set is the first setting of a timer.
func (tm *Timer) set(d time.Duration, pc uintptr, what string) {
	t, r := ctl.Self(what)
	if tm.C != nil {
		tm.C.bind(r, pc)
	}
	r.Do(t, core.Op{Kind: trace.KindSpawn, Obj: -1, PC: pc})
	tm.arm(t, r, d, pc)
}

// active reports whether a firing is pending in r's iteration.
func (tm *Timer) active(r *core.Run) bool {
	return tm.task != nil && tm.gen == r.Gen() && !tm.task.Done()
}

// arm schedules the firing d from now as the effect of the step that runs
// now, and records the firing task in it.
func (tm *Timer) arm(parent *core.Task, r *core.Run, d time.Duration, pc uintptr) {
	tm.gen = r.Gen()
	tm.task = r.SpawnTimer(parent, "timer:"+parent.Name, trace.KindTimerFire,
		r.Now()+int64(max(d, 0)), pc, func() { tm.fire(r, pc) })
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
	if tm.C != nil {
		tm.C.bind(r, pc)
		tm.C.drain()
	}
	return was
}

func (tm *Timer) fire(r *core.Run, pc uintptr) {
	tm.task = nil
	if tm.f != nil {
		start(r.Current(), r, tm.f)
		return
	}
	sendTime(tm.C, r, pc)
}

// sendTime sends the time on a timer's channel from the firing task that
// runs now, dropping it if the channel is full (nobody received the last
// one), and records the send in the firing's step.
func sendTime(c *Chan[time.Time], r *core.Run, pc uintptr) {
	c.bind(r, pc)
	ev := r.Event()
	ev.Res, ev.Val = c.o.Res, trace.ValNone
	if id, ok := c.put(r.Current(), r, epoch.Add(time.Duration(r.Now()))); ok {
		ev.Val = id
	}
}

// drain empties a timer channel's buffer.
func (c *Chan[T]) drain() {
	clear(c.buf)
	c.head, c.n = 0, 0
}
