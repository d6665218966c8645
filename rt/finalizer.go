package rt

import (
	"reflect"
	"runtime"
	"unsafe"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// Finalizers and cleanups. Go runs them on a goroutine of its runtime, when
// the garbage collector finds their object unreachable, if ever: outside
// control, at a time no schedule decides. A finalizer (SetFinalizer) or a
// cleanup (AddCleanup) registered in a schedule of Test is instead kept by
// the schedule and run at its end, once the test's body and its cleanups
// have returned (when the test's objects are garbage), in the order they
// were registered, on one goroutine of the schedule, as Go runs them on
// one: a finalizer that stops a cache's janitor goroutine stops it under
// control. Registered outside a schedule (package initialization,
// TestMain), they are Go's. Registered in a morpheus.Check's iteration,
// which no Test ends, they never run: Go does not promise that they do.

// pendingFinal is a finalizer or a cleanup registered in a schedule.
type pendingFinal struct {
	obj    unsafe.Pointer // the object, for SetFinalizer(obj, nil)
	handle runtime.Cleanup
	run    func()
	pc     uintptr
}

// SetFinalizer stands for runtime.SetFinalizer.
//
//go:noinline
func SetFinalizer(obj any, finalizer any) {
	pc := goruntime.CallerPC()
	t := core.CurrentTask()
	if t == nil || obj == nil {
		runtime.SetFinalizer(obj, finalizer)
		return
	}
	// The runtime checks the arguments, and panics as Go does.
	runtime.SetFinalizer(obj, finalizer)
	runtime.SetFinalizer(obj, nil)
	s := state(t.Run())
	p := reflect.ValueOf(obj).UnsafePointer()
	i := s.finalizerOf(p)
	if finalizer == nil || reflect.ValueOf(finalizer).IsNil() {
		if i >= 0 {
			s.finals = append(s.finals[:i], s.finals[i+1:]...)
		}
		return
	}
	if i >= 0 {
		panic("runtime.SetFinalizer: finalizer already set")
	}
	f := reflect.ValueOf(finalizer)
	arg := reflect.ValueOf(obj)
	if pt := f.Type().In(0); !arg.Type().AssignableTo(pt) {
		arg = arg.Convert(pt)
	}
	s.finals = append(s.finals, pendingFinal{obj: p, pc: pc, run: func() { f.Call([]reflect.Value{arg}) }})
}

func (s *runState) finalizerOf(p unsafe.Pointer) int {
	for i, f := range s.finals {
		if f.obj == p {
			return i
		}
	}
	return -1
}

// AddCleanup stands for runtime.AddCleanup. In a schedule, the handle it
// returns is the runtime's, of a cleanup that does nothing: StopCleanup
// stops the schedule's.
//
//go:noinline
func AddCleanup[T, S any](ptr *T, cleanup func(S), arg S) runtime.Cleanup {
	pc := goruntime.CallerPC()
	t := core.CurrentTask()
	if t == nil {
		return runtime.AddCleanup(ptr, cleanup, arg)
	}
	h := runtime.AddCleanup(ptr, func(struct{}) {}, struct{}{}) // the runtime's checks; a handle
	s := state(t.Run())
	s.finals = append(s.finals, pendingFinal{handle: h, pc: pc, run: func() { cleanup(arg) }})
	return h
}

// StopCleanup stands for c.Stop() of a runtime.Cleanup.
func StopCleanup(c runtime.Cleanup) {
	c.Stop()
	t := core.CurrentTask()
	if t == nil || c == (runtime.Cleanup{}) {
		return
	}
	s := state(t.Run())
	for i, f := range s.finals {
		if f.obj == nil && f.handle == c {
			s.finals = append(s.finals[:i], s.finals[i+1:]...)
			return
		}
	}
}

// runFinalizers starts, in a goroutine of the schedule, the finalizers and
// cleanups registered in it so far; the caller is the schedule's main
// task, whose test is over.
func runFinalizers(t *core.Task) {
	s := state(t.Run())
	fs := s.finals
	s.finals = nil
	if len(fs) == 0 {
		return
	}
	prim.Go(fs[0].pc, func() {
		for _, f := range fs {
			f.run()
		}
	})
}
