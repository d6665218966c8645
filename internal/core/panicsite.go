package core

import (
	"fmt"
	"path"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// Where a panic is located.
//
// Go raises the panics of its primitives (a send on a closed channel, a
// negative WaitGroup counter) inside its runtime, and a report names the
// user's line, the frame below the runtime. morpheus's primitives raise the
// same panics with the same values, but inside morpheus's own packages, so
// the first frame below the runtime is morpheus's (chan_queue.go:148). The
// location of a panic is therefore the first frame, walking out from the
// panic, that is neither the runtime's nor morpheus's: for a panic raised by
// a primitive, the user's line that called it (the line of its op); for a
// panic in user code (a nil dereference, an index out of range), that line
// itself. A panic iter.Pull's next raises again (its sequence's) is located
// at the call of next. The panic value, and whether user code may recover it, are Go's:
// only the location the report shows changes.

// modulePath is morpheus's module path, derived so that a fork still works.
var modulePath = strings.TrimSuffix(reflect.TypeFor[Task]().PkgPath(), "/internal/core")

// moduleDir is the directory of morpheus's source as the binary's file
// names spell it (a path, or the module path under -trimpath).
var moduleDir = func() string {
	_, file, _, _ := runtime.Caller(0)
	return path.Dir(path.Dir(path.Dir(file)))
}()

// ownFrame reports whether a frame is inside morpheus's runtime: the
// packages whose code stands in for Go's runtime under control (the root
// package, csync and its subpackages, their implementation internal/prim and
// internal/ctl, rt, internal/core). It goes by the
// frame's file, which an inlined function keeps (its name becomes its
// caller's: rt.OnceFunc's closure inlined into a test is "TestX.OnceFunc.3").
// Test files of those packages are user code (csync's own tests call its
// primitives as users do).
func ownFrame(f runtime.Frame) bool {
	if f.File == "" {
		return ownPackage(funcPackage(f.Function))
	}
	if strings.HasSuffix(f.File, "_test.go") {
		return false
	}
	dir := path.Dir(f.File)
	rel, ok := strings.CutPrefix(dir, moduleDir)
	if !ok || rel != "" && rel[0] != '/' {
		return false
	}
	return ownPackage(modulePath + rel)
}

func ownPackage(pkg string) bool {
	return pkg == modulePath || pkg == modulePath+"/rt" || pkg == modulePath+"/internal/core" ||
		pkg == modulePath+"/csync" || strings.HasPrefix(pkg, modulePath+"/csync/") ||
		pkg == modulePath+"/internal/prim" || pkg == modulePath+"/internal/ctl"
}

// taskBase holds the functions at the base of a task's stack, which call its
// body or action: a walk that reaches one found no user frame.
var taskBase = map[string]bool{
	modulePath + "/internal/core.(*Task).runBody": true,
	modulePath + "/internal/core.(*Task).exit":    true,
	modulePath + "/internal/core.(*Run).runFire":  true,
}

// funcPackage returns the import path of a function named as runtime.Frame
// names it ("a/b/c.(*T[...]).M.func1" is in "a/b/c").
func funcPackage(fn string) string {
	slash := strings.LastIndexByte(fn, '/') + 1
	if dot := strings.IndexByte(fn[slash:], '.'); dot >= 0 {
		return fn[:slash+dot]
	}
	return fn
}

// panicSite locates the panic being recovered, called (through the task's
// deferred function) while the panicking stack is still there: it returns
// the PC of the user's frame (as a return address, for Where) and, when the
// panic was raised inside morpheus, a line that says so for the top of the
// stack ("" when the innermost frame is the user's). pc is 0 if no frame
// qualifies (a panic raised by morpheus with no user code below it): the
// caller then falls back to the location of the task's last op.
func panicSite() (pc uintptr, note string) {
	var pcs [128]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs[:])])
	inPanic := false
	inner := "" // the innermost frame of morpheus's, if the panic is raised there
	for {
		f, more := frames.Next()
		switch {
		case !inPanic:
			inPanic = f.Function == goruntime.Gopanic
		case strings.HasPrefix(f.Function, "runtime."):
		case funcPackage(f.Function) == "iter":
			// iter.Pull's next raises its sequence's panic again in its
			// caller: the user's line is the call of next.
		case taskBase[f.Function]:
			return 0, "" // morpheus's own code all the way down
		case ownFrame(f):
			if inner == "" {
				inner = f.Function
			}
		default:
			pc = f.PC + 1 // Where maps a return address to its call; f.PC is exact
			if inner != "" {
				note = fmt.Sprintf("panic at %s (%s), raised inside morpheus by %s as Go raises it inside its runtime; the stack follows\n",
					Where(pc), f.Function, inner)
			}
			return pc, note
		}
		if !more {
			return 0, ""
		}
	}
}

// panicFailure is the failure of task t for the panic value p, called from
// the deferred function that recovered p (at the base of the task, or of a
// runtime-owned task's action): located at the user's line (see panicSite),
// or at t's last op if no user frame is on the stack.
func (t *Task) panicFailure(p any) *Failure {
	pc, note := panicSite()
	if pc == 0 {
		pc = t.op.PC
	}
	return &Failure{Kind: Panic, Message: fmt.Sprint(p), Task: t.ID, PC: pc, Stack: note + string(debug.Stack())}
}
