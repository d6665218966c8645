package rt

import (
	"context"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// ContextAfterFunc stands for context.AfterFunc. Go's starts f in a
// goroutine of its own once ctx is done, outside control. Under control,
// on a context whose Done channel is controlled (one rewritten code made),
// a goroutine of the schedule waits for ctx to be done, or for stop, and
// then runs f: the callback is controlled, and its waiting, which may last
// past the test (a context nobody cancels), is no leak. On a context that
// is never done (Done is nil) f never runs. On another context (made by
// code that is not rewritten), and outside control, it is Go's.
//
//go:noinline
func ContextAfterFunc(ctx context.Context, f func()) (stop func() bool) {
	pc := goruntime.CallerPC()
	t := core.CurrentTask()
	if t == nil {
		return context.AfterFunc(ctx, f)
	}
	done := ctx.Done()
	if done == nil {
		stopped := false
		return func() bool {
			was := stopped
			stopped = true
			return !was
		}
	}
	dc, ok := lookup[struct{}](chanKey(done))
	if !ok {
		return context.AfterFunc(ctx, f)
	}
	stopN := make(chan struct{})
	sc := prim.Make[struct{}](0, pc)
	register(stopN, sc)
	claimed := false // by f's goroutine or by stop: one task runs at a time
	waiter := prim.Spawn(t, t.Run(), pc, func() {
		chosen := -1
		prim.Select([]prim.Case{
			prim.RecvCase(dc, func(struct{}, bool) { chosen = 0 }),
			prim.RecvCase(sc, func(struct{}, bool) { chosen = 1 }),
		}, pc)
		if chosen != 0 || claimed {
			return
		}
		claimed = true
		core.CurrentTask().Daemon = false // f's goroutine may leak as any other
		f()
	})
	waiter.Daemon = true
	return func() bool {
		spc := goruntime.CallerPC() // a func value's call is not inlined
		if claimed {
			return false
		}
		claimed = true
		if core.CurrentTask() == nil {
			sc.Outside("close", spc)
			close(stopN)
		} else {
			sc.Close(spc)
		}
		return true
	}
}
