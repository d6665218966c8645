package core

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/trace"
)

// Op describes the pending op of a task.
type Op struct {
	Kind trace.Kind
	Res  uint32 // resource touched (see Run.NewResource); 0 = none
	Read bool   // the op only reads Res
	// Quiet marks an op that changes nothing another task waits for, as a
	// Read op: a lock taken or released. Poll marks a poll: a select that
	// takes its default, a yield (runtime.Gosched), a read of the clock
	// (Quiet or Read too). While every task that can run polls, and no op
	// but quiet ones ran, time moves (poll.go).
	Quiet bool
	Poll  bool
	Obj   int32 // other task involved (recorded in the trace), or -1
	Val   int64 // kind-specific value recorded in the trace
	// Blocked ops are not enabled until Run.Unblock, or until the clock
	// reaches Deadline when HasDeadline is set.
	Blocked     bool
	HasDeadline bool
	Deadline    int64 // virtual time in ns
	PC          uintptr
	// On names what a blocked op waits on, for deadlock reports ("chan#2
	// created at store.go:41"); nil if the op's kind says enough.
	On fmt.Stringer
}

// taskState is where a task is, as the machine and the hand-off see it:
// whether it has a pending op and in which of the machine's sets, whether
// it runs, unwinds or is over (the package doc has the transitions). One
// field, so that no impossible combination can be written down.
type taskState uint8

const (
	// taskNew: created; its start op is pending and enabled (in the
	// machine's pending set), and it has not run yet.
	taskNew taskState = iota
	// taskEnabled: its op is pending and enabled (in the pending set).
	taskEnabled
	// taskParked: its op is pending, blocked without a deadline: only
	// unblock enables it.
	taskParked
	// taskTimed: its op is pending, blocked until a deadline the clock has
	// not reached (in the machine's timed set).
	taskTimed
	// taskRunning: no op pending; it runs, or was picked and runs next.
	taskRunning
	// taskDone: finished, killed and unwound, or a timer fired or
	// cancelled: nothing pending, ever again.
	taskDone
	// taskKilled: killed by another task (or the teardown); no op pending
	// any more, its stack unwinds (its deferred calls run, its ops panic).
	taskKilled
	// taskSelfKilled: killed while it ran (by its own op): as taskKilled,
	// but no killer waits for it, so its end schedules the next task.
	taskSelfKilled
)

// pending reports whether t has an op waiting to be picked.
func (t *Task) pending() bool { return t.state < taskRunning }

// killed reports whether t was killed and unwinds.
func (t *Task) killed() bool { return t.state >= taskKilled }

// Task is one controlled thread of control in an iteration, or a runtime-owned
// action (a timer) that the scheduler runs directly.
type Task struct {
	ID     int32
	Parent int32
	Name   string
	Key    uint64 // identity stable across iterations
	// Ext is the per-task state of the layer above (an actor's process, the
	// message a timer delivers).
	Ext any
	// SpawnPC is where the task was started: the PC of its parent's op that
	// created it (a go statement's spawn, an AfterFunc timer's firing); 0
	// for the main task.
	SpawnPC uintptr
	// Subtest names the subtest (t.Run, which a rewritten test runs inline)
	// that ran when the task, or the task that started it, was started; ""
	// for the test itself. A task inherits its parent's; rt sets the main
	// task's while a subtest runs. A leak report names it.
	Subtest string
	// Daemon marks a task that may outlive the test: still blocked when the
	// main task has returned, it is not a leak. The actor layer sets it for
	// its processes, which are servers waiting in Receive.
	Daemon bool

	run     *Run
	body    func()
	fire    func(*Task) // runtime-owned tasks: the action run when the op is picked
	onExit  func(t *Task, reason any)
	carrier *carrier
	// op is the task's pending op, or its last one (state says which).
	op    Op
	opKey uint64 // LocKey of op.PC, computed on first use
	state taskState
	// killer is the task (whose carrier ran) that killed this one while it
	// was chained; this one's end hands control back to it.
	killer *Task
	// endReason and endOK are how the body ended (runBody), for the end
	// of a task whose body called runtime.Goexit (carrier.goexit).
	endReason any
	endOK     bool
	exitRes   uint32
	nchild    uint64
	pollAt    int // the step of the task's last Poll op (poll.go)
	timedAt   int // the step at which the task's op began to wait for its deadline (early.go)
	// wokeAt and wokeBefore are the steps of the task's last two wake-ups
	// by another task (unblock): a parked or timed op made enabled before
	// its deadline (steplimit.go tells goroutines that keep each other busy
	// by them).
	wokeAt, wokeBefore int
	// reads counts the task's reads of the clock since step readAt (see
	// Run.ReadClock).
	reads  int
	readAt int
	// goid is the goroutine id of the task's carrier, set when the task
	// gets it and never changed after: the watchdog reads it from a task
	// the worker published (and did not come back from).
	goid int64
}

// Done reports whether the task has finished.
func (t *Task) Done() bool { return t.state == taskDone }

// PendingOp returns the task's last op and whether it still waits to be picked.
func (t *Task) PendingOp() (Op, bool) { return t.op, t.pending() }

// main runs the task on its carrier: the body, then the exit op. Whatever
// happens, it returns normally so the carrier can take the next task, but
// for a runtime.Goexit, which nothing stops: the task's end then happens in
// its carrier's last deferred call (carrier.goexit).
func (t *Task) main() {
	r := t.run
	if r.next == t {
		r.next = nil // picked and now running (see await)
	}
	t.end(t.runBody())
}

// end runs what follows the task's body: its exit op if the body ended
// normally (returned, an exit signal, a legal runtime.Goexit), its end,
// and the hand-off to the next task.
func (t *Task) end(reason any, ok bool) {
	r := t.run
	if ok {
		ok = t.exit(reason)
	}
	self := t.state == taskSelfKilled
	r.m.finish(t)
	if !ok && (!self || r.m.over()) {
		// Killed by another task (which resumed us to unwind and waits, or,
		// if we were chained, waits to be resumed: see Kill), or the
		// iteration is over: hand control back without scheduling.
		if t.killer != nil {
			r.next = t.killer
		}
		return
	}
	r.next = r.pick()
}

// runBody runs the user's body and classifies how it ended: normally or by an
// exit signal or a legal runtime.Goexit (ok, with the reason), or by
// unwinding or a failure (not ok). The outcome is also kept in the task:
// a Goexit goes on past this call, to the carrier's base.
func (t *Task) runBody() (reason any, ok bool) {
	returned := false
	defer func() {
		if p := recover(); p != nil {
			reason, ok = t.recovered(p)
		} else if !returned {
			reason, ok = t.goexit()
		}
		t.endReason, t.endOK = reason, ok
	}()
	t.body()
	returned = true
	return nil, true
}

// goexit classifies a runtime.Goexit of the task's body, whose deferred
// calls have run. As in Go, a goroutine that calls it ends, and the rest
// goes on: it is no failure. The test's main task ending so fails as under
// go test ("test executed panic(nil) or runtime.Goexit"), and so does a
// t.FailNow on the test's *testing.T reached through code morpheus does not
// rewrite (the testing package marked the test failed); a t.SkipNow ends
// the schedule, which the test reports skipped.
func (t *Task) goexit() (reason any, ok bool) {
	r := t.run
	if t.killed() || r.m.over() {
		return nil, false // unwinding anyway: a deferred call called Goexit
	}
	pc, how, fn := goexitCaller()
	if how == "" && t != r.m.mainTask() {
		return nil, true
	}
	f := &Failure{Kind: Panic, Task: t.ID, PC: pc, Stack: string(debug.Stack())}
	switch how {
	case "":
		f.Message = fmt.Sprintf("runtime.Goexit in the main task, called by %s: the test's body ended there, which go test fails (\"test executed panic(nil) or runtime.Goexit\"); inside morpheus.Check use Env.Fatalf", fn)
	case "FailNow":
		f.Kind = Assertion
		f.Message = fmt.Sprintf("t.FailNow (t.Fatal, t.Fatalf) in task %s, called by %s; its message is in the test's log", t.Name, fn)
	default:
		f.Message = fmt.Sprintf("t.SkipNow (t.Skip, t.Skipf) in task %s, called by %s; its message is in the test's log", t.Name, fn)
	}
	if pc == 0 {
		f.PC = t.op.PC
	}
	r.fail(f)
	return nil, false
}

// goexitCaller looks at the stack of a goroutine running the deferred calls
// of a runtime.Goexit: it returns the PC of the first caller outside the
// testing package and that caller's function, and, if the testing package
// called Goexit (t.FailNow, t.SkipNow, and the Fatal and Skip methods that
// call them), which of the two it was. pc is 0 if the stack does not show
// the Goexit.
func goexitCaller() (pc uintptr, how, fn string) {
	var pcs [128]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs[:])])
	seen := false
	for {
		f, more := frames.Next()
		switch {
		case !seen:
			seen = f.Function == goruntime.Goexit
		case how == "" && f.Function == goruntime.FailNow:
			how = "FailNow"
		case how == "" && f.Function == goruntime.SkipNow:
			how = "SkipNow"
		case how == "" || !strings.HasPrefix(f.Function, "testing."):
			return f.PC + 1, how, f.Function
		}
		if !more {
			return 0, how, ""
		}
	}
}

// exit runs the task's exit op and the layer's exit hook.
func (t *Task) exit(reason any) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			_, ok = t.recovered(p)
			ok = false
		}
	}()
	r := t.run
	r.Do(t, Op{Kind: trace.KindExit, Obj: -1, Res: t.exitRes})
	if t.onExit != nil {
		t.onExit(t, reason)
	}
	return true
}

// Unwinding reports whether t's stack is being unwound because t was killed
// or its iteration aborted (its deferred calls run, but not in a run that
// goes on).
func (t *Task) Unwinding() bool { return t.killed() || t.run.m.over() }

// recovered classifies a panic value caught at the base of a task.
func (t *Task) recovered(p any) (reason any, ok bool) {
	switch v := p.(type) {
	case unwind:
		return nil, false
	case exitSignal:
		if t.killed() || t.run.m.over() {
			return nil, false
		}
		return v.reason, true
	default:
		r := t.run
		if !t.killed() && !r.m.over() {
			r.fail(t.panicFailure(p))
		}
		return nil, false
	}
}

// locKey returns the stable location key of the pending op.
func (t *Task) locKey() uint64 {
	if t.opKey == 0 {
		t.opKey = LocKey(t.op.PC)
	}
	return t.opKey
}
