package csync_test

import (
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// f runs once, and every Do returns only after it finished.
func TestOnce(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		var once csync.Once
		var runs, finished csync.Int
		var wg csync.WaitGroup
		for range 3 {
			wg.Go(func() {
				once.Do(func() {
					runs.Add(1)
					csync.Sleep(1) // others must wait for this
					finished.Store(1)
				})
				e.Assert(finished.Load() == 1, "Do returned before f finished")
			})
		}
		wg.Wait()
		e.Assert(runs.Load() == 1, "f ran %d times", runs.Load())
	}, morpheus.Iterations(300)))
	// A panicking f counts as done.
	mustPass(t, explore(t, func(e *morpheus.Env) {
		var once csync.Once
		func() {
			defer func() { recover() }()
			once.Do(func() { panic("boom") })
		}()
		ran := false
		once.Do(func() { ran = true })
		e.Assert(!ran, "f ran again after a panic")
	}, morpheus.Iterations(3)))
	// Do inside Do deadlocks, as in Go.
	mustFail(t, explore(t, func(e *morpheus.Env) {
		var once csync.Once
		once.Do(func() { once.Do(func() {}) })
	}, morpheus.Iterations(2)), "deadlock", "blocked in once on once#")
}
