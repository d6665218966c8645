package core

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

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

type taskState uint8

const (
	taskNew     taskState = iota // created, its start op not yet run
	taskRunning                  // started, not finished
	taskDone                     // finished, killed or unwound
)

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
	// Daemon marks a task that may outlive the test: still blocked when the
	// main task has returned, it is not a leak. The actor layer sets it for
	// its processes, which are servers waiting in Receive.
	Daemon bool

	run     *Run
	body    func()
	fire    func(*Task) // runtime-owned tasks: the action run when the op is picked
	onExit  func(t *Task, reason any)
	carrier *carrier
	op      Op
	opKey   uint64 // LocKey of op.PC, computed on first use
	hasOp   bool   // op is pending: waiting to be picked
	parked  bool   // pending op blocked without a deadline (see machine)
	timed   bool   // pending op blocked until a deadline the clock has not reached
	state   taskState
	killed  bool
	// selfKilled: the task was killed while it ran (by its own op), so no
	// killer waits for it and it must schedule the next task itself.
	selfKilled bool
	// chained: the task waits inside its resume of another task's carrier
	// (see the hand-off in sched.go); it can be resumed only by a yield
	// down the chain.
	chained bool
	// killer is the task (whose carrier ran) that killed this one while it
	// was chained; this one's end hands control back to it.
	killer  *Task
	exitRes uint32
	nchild  uint64
	pollAt  int // the step of the task's last Poll op (poll.go)
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
func (t *Task) PendingOp() (Op, bool) { return t.op, t.hasOp }

// main runs the task on its carrier: the body, then the exit op. Whatever
// happens, it returns normally so the carrier can take the next task.
func (t *Task) main() {
	r := t.run
	if r.next == t {
		r.next = nil // picked and now running (see await)
	}
	reason, ok := t.runBody()
	if ok {
		ok = t.exit(reason)
	}
	r.finish(t)
	if !ok && (!t.selfKilled || r.aborting) {
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
// exit signal (ok, with the reason), or by unwinding or a failure (not ok).
func (t *Task) runBody() (reason any, ok bool) {
	returned := false
	defer func() {
		if p := recover(); p != nil {
			reason, ok = t.recovered(p)
		} else if !returned {
			t.goexit()
		}
	}()
	t.body()
	returned = true
	return nil, true
}

// goexit records that the task called runtime.Goexit. Nothing can stop a
// Goexit: it ends the task's goroutine, then (through iter.Pull) the worker's,
// whose deferred calls tear the iteration down and report this failure.
func (t *Task) goexit() {
	r := t.run
	if !t.killed && !r.aborting {
		f := &Failure{Kind: Panic, Task: t.ID, PC: t.op.PC, Stack: string(debug.Stack()), Message: fmt.Sprintf(
			"runtime.Goexit in task %s: did the test call t.FailNow, t.Fatal or t.Skip on its *testing.T? Inside morpheus use Env.Fatalf", t.Name)}
		if pc, how, fn := testingExit(); pc != 0 {
			// The Goexit came from the testing package: name the line that
			// called it, not the task's last op (which, after the deferred
			// calls that ran during the Goexit, is often in a cleanup).
			f.PC = pc
			f.Message = fmt.Sprintf("t.%s (t.%s) in task %s, called by %s; its message is in the test's log",
				how, map[string]string{"FailNow": "Fatal, t.Fatalf", "SkipNow": "Skip, t.Skipf"}[how], t.Name, fn)
			if how == "FailNow" {
				f.Kind = Assertion
			}
		}
		r.fail(f)
	}
	r.finish(t)
	t.carrier = nil // its goroutine ends with the Goexit: never reuse it
}

// testingExit looks at the stack of a goroutine running the deferred calls of
// a runtime.Goexit: if the testing package called it (t.FailNow, t.SkipNow,
// and the Fatal and Skip methods that call them), it returns the PC of the
// first caller outside the testing package, which of the two it was, and the
// caller's function; pc is 0 otherwise.
func testingExit() (pc uintptr, how, fn string) {
	var pcs [128]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs[:])])
	seen := false
	for {
		f, more := frames.Next()
		switch {
		case !seen:
			seen = f.Function == "runtime.Goexit"
		case how == "":
			switch f.Function {
			case "testing.(*common).FailNow":
				how = "FailNow"
			case "testing.(*common).SkipNow":
				how = "SkipNow"
			default:
				return 0, "", ""
			}
		case !strings.HasPrefix(f.Function, "testing."):
			return f.PC + 1, how, f.Function
		}
		if !more {
			return 0, "", ""
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

// recovered classifies a panic value caught at the base of a task.
func (t *Task) recovered(p any) (reason any, ok bool) {
	switch v := p.(type) {
	case unwind:
		return nil, false
	case exitSignal:
		if t.killed || t.run.aborting {
			return nil, false
		}
		return v.reason, true
	default:
		r := t.run
		if !t.killed && !r.aborting {
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
