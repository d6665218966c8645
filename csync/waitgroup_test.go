package csync_test

import (
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

func TestWaitGroup(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		var wg csync.WaitGroup
		var done csync.Int
		wg.Add(3)
		for range 3 {
			csync.Go(func() {
				defer wg.Done()
				done.Add(1)
			})
		}
		wg.Go(func() { done.Add(1) })
		wg.Wait()
		e.Assert(done.Load() == 4, "Wait returned after %d of 4", done.Load())
		wg.Wait() // at zero: returns at once
	}, morpheus.Iterations(300)))
	mustFail(t, explore(t, func(e *morpheus.Env) {
		var wg csync.WaitGroup
		wg.Add(1)
		wg.Done()
		wg.Done()
	}, morpheus.Iterations(2)), "panic", "sync: negative WaitGroup counter")
	// Add inside the goroutine is the classic race: Wait may return first.
	mustFail(t, explore(t, func(e *morpheus.Env) {
		var wg csync.WaitGroup
		var done csync.Var[bool]
		csync.Go(func() {
			wg.Add(1)
			done.Store(true)
			wg.Done()
		})
		wg.Wait()
		e.Assert(done.Load(), "Wait returned before the work")
	}, morpheus.Iterations(200)), "assertion", "Wait returned before the work")
}
