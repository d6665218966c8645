package ctl

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// Outside control. Code that no task runs calls the controlled primitives
// too: package initialization and TestMain before m.Run, a finalizer
// registered there, a goroutine the standard library starts (a net/http
// handler, a context.AfterFunc callback). Nothing schedules such a call,
// so it cannot be an op. Instead, an object has a world of its own outside
// control, beside the iterations it binds to one after the other: the
// primitives keep its state there in Go's own types (the native channel, a
// sync.Mutex), and a call from outside control works on that state as Go
// would, blocking for real. An iteration sees of it only what belongs to
// the object rather than to goroutines, and only when it first binds the
// object: a channel's close and the values in its native buffer, a Once's
// done, a lock the main goroutine holds (package initialization, TestMain:
// ByMain) (each primitive says); other locks and counters start fresh,
// since their holders outside control are plain goroutines no iteration
// could wait for. What an iteration finds is then fixed when it binds the object, and
// initialization, the same in every process, leaves the same state for a
// replay's fresh process.
//
// An object that a running iteration is bound to is that iteration's: a
// call on it from outside control is a bug of the test's isolation (or of
// morpheus's reach), which no schedule decides. The call raises an alarm
// (core.Alarm): the iteration fails at its next step, reporting the call,
// its line and its stack, and the call goes on in the outside world. But a
// goroutine that a test run outside control started and left behind when it
// ended is that test's, of no schedule: it ends there instead (LeftBehind).

// Outside is called by a primitive called from outside control (Self's
// caller found no task), on o, located at pc: if an iteration that runs now
// is bound to o, it fails that iteration with a report of the call.
func (o *Obj) Outside(what string, pc uintptr) { OutsideOf(o.gen.Load(), what, pc) }

// OutsideLock is Outside for a lock's Lock, Unlock and their kin: called
// by a daemon (a goroutine that rewritten code started outside control,
// in a package's init or TestMain: glog's flush daemon, which takes the
// logging lock the test's logging takes), it is no alarm. The daemon runs
// beside every schedule, so no schedule can be isolated from it, and a
// lock hands no value over: the call goes on, on the lock's state outside
// control, and excludes only other code outside control (the schedule's
// code does not wait for it, nor it for the schedule's). Any other code
// outside control raises the alarm.
func (o *Obj) OutsideLock(what string, pc uintptr) {
	if gen := o.gen.Load(); gen == 0 || !core.Live(gen) || InDaemon() {
		return
	}
	o.Outside(what, pc)
}

// LeftBehind, set by rt, ends the calling goroutine (runtime.Goexit) if a
// test that ran outside control (on the real network) started it and is
// over: such a goroutine is that test's, left behind, and a schedule that
// runs now is no place for it (rt/leftbehind.go).
var LeftBehind = func() {}

// DaemonStarter is the function whose go statement starts the goroutines
// that rewritten code starts outside control (rt.Go), set as rt starts.
var DaemonStarter string

// InDaemon reports whether the calling goroutine was started by
// DaemonStarter: by rewritten code outside control. A goroutine keeps no
// mark a primitive could read, but its stack ends in the line that names
// its creator; read only on the way to an alarm.
func InDaemon() bool {
	if DaemonStarter == "" {
		return false
	}
	buf := make([]byte, 8<<10)
	for {
		n := runtime.Stack(buf, false)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	i := bytes.LastIndex(buf, []byte("\ncreated by "))
	return i >= 0 && bytes.HasPrefix(buf[i+len("\ncreated by "):], []byte(DaemonStarter+" "))
}

// OutsideOf is Outside for an object bound to iteration gen (0: none).
func OutsideOf(gen uint64, what string, pc uintptr) {
	if gen == 0 || !core.Live(gen) {
		return
	}
	LeftBehind()
	core.Alarm(gen, &core.Failure{Kind: core.Uncontrolled, Task: -1, PC: pc, Stack: string(debug.Stack()),
		Message: fmt.Sprintf("%s at %s called outside control (by a goroutine morpheus does not run: a finalizer, a "+
			"goroutine the standard library started, code of TestMain or init) on an object this schedule uses: "+
			"the call went on outside the schedule, on the object's state outside control", what, core.Where(pc))})
}

// Task returns the task that calls a primitive and its iteration, or nils
// outside control, where the primitive does what Outside describes.
func Task() (*core.Task, *core.Run) {
	t := core.CurrentTask()
	if t == nil {
		return nil, nil
	}
	return t, t.Run()
}

// mainGoid is the id of the program's main goroutine, the first the
// runtime makes: it runs package initialization and main, and so, in a test
// binary, TestMain and m.Run.
const mainGoid = 1

// ByMain reports whether the calling goroutine is the program's main one:
// code outside control that runs before the schedules and waits in m.Run
// while they run (package initialization, TestMain), as opposed to the
// goroutines started outside control (daemons), which run beside them. A
// lock main holds when an iteration binds it is held for that iteration
// (csync's Mutex and RWMutex): nothing but the iteration itself can
// release it while it runs.
func ByMain() bool { return goruntime.Goid() == mainGoid }
