package rt

import (
	"reflect"
	"runtime"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// Go stands for a go statement; the rewriter binds the call's function and
// arguments before, as the go statement evaluates them. Outside morpheus's
// control (package initialization, TestMain) it starts a plain goroutine,
// a daemon.
//
//go:noinline
func Go(f func()) {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		if id := realOwner(); id != 0 {
			go ownedBy(id, f) // a real test's (leftbehind.go)
			return
		}
		go f()
		return
	}
	prim.Go(pc, f)
}

// The goroutines Go starts outside control are daemons: a lock they take
// on an object a schedule uses is no alarm (ctl.Obj.OutsideLock).
func init() { ctl.DaemonStarter = runtime.FuncForPC(reflect.ValueOf(Go).Pointer()).Name() }

// Gosched stands for runtime.Gosched: a scheduling point.
//
//go:noinline
func Gosched() {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		runtime.Gosched()
		return
	}
	prim.Sleep(0, pc)
}

// inTest reports whether the caller is a task morpheus controls.
func inTest() bool { return core.CurrentTask() != nil }
