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

// A Once that outlives the iteration (a package-level one) stays done once
// its f returned, as across go test -count runs, so f's registration in
// state that also outlives the iteration is not made twice; one whose
// iteration ended inside f (a deadlock there) runs f again.
func TestOnceOutlivesIteration(t *testing.T) {
	var once csync.Once
	registered := 0
	mustPass(t, explore(t, func(e *morpheus.Env) {
		once.Do(func() { registered++ })
		e.Assert(registered == 1, "f registered %d times", registered)
	}, morpheus.Iterations(5)))

	var stuck csync.Once
	mustFail(t, explore(t, func(e *morpheus.Env) {
		stuck.Do(func() {
			var ch csync.Chan[int]
			ch.Recv() // the iteration ends here, inside f
		})
	}, morpheus.Iterations(1), morpheus.Shrink(0)), "deadlock", "")
	ran := false
	mustPass(t, explore(t, func(e *morpheus.Env) {
		stuck.Do(func() { ran = true })
	}, morpheus.Iterations(1)))
	if !ran {
		t.Error("f did not run again after an iteration that ended inside it")
	}
}
