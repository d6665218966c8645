package morpheus_test

import (
	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// wrongLock: three goroutines add to a counter, two under one mutex and
// the third under another, so its read-modify-write can interleave with
// theirs and an increment is lost (fixed: one mutex for all).
func wrongLock(fixed bool) func(e *morpheus.Env) {
	return func(e *morpheus.Env) {
		var a, b csync.Mutex
		var n csync.Var[int]
		var wg csync.WaitGroup
		for i := range 3 {
			mu := &a
			if i == 2 && !fixed {
				mu = &b
			}
			wg.Go(func() {
				mu.Lock()
				v := n.Load()
				n.Store(v + 1)
				mu.Unlock()
			})
		}
		wg.Wait()
		e.Assert(n.Load() == 3, "count %d, want 3", n.Load())
	}
}

// handOff: a producer publishes a value and then a ready flag, in the
// wrong order unless fixed; the consumer that sees the flag reads the value.
func handOff(fixed bool) func(e *morpheus.Env) {
	return func(e *morpheus.Env) {
		var val, ready csync.Int
		done := csync.Make[bool](1)
		csync.Go(func() {
			if fixed {
				val.Store(5)
				ready.Store(1)
			} else {
				ready.Store(1)
				val.Store(5)
			}
		})
		csync.Go(func() {
			if ready.Load() == 1 {
				e.Assert(val.Load() == 5, "value %d after the flag", val.Load())
			}
			done.Send(true)
		})
		done.Recv()
	}
}
