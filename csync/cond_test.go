package csync_test

import (
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// A queue guarded by a mutex with a condition variable: consumers wait
// while it is empty; every item is consumed once.
func TestCondQueue(t *testing.T) {
	for _, s := range []string{"random", "pos*"} {
		mustPass(t, explore(t, func(e *morpheus.Env) {
			var mu csync.Mutex
			cond := csync.NewCond(&mu)
			var queue []int // guarded by mu
			got := csync.Make[int](4)
			for range 2 {
				csync.Go(func() {
					for range 2 {
						mu.Lock()
						for len(queue) == 0 {
							cond.Wait()
						}
						v := queue[0]
						queue = queue[1:]
						mu.Unlock()
						got.Send(v)
					}
				})
			}
			for i := range 4 {
				mu.Lock()
				queue = append(queue, i)
				cond.Signal()
				mu.Unlock()
			}
			sum := 0
			for range 4 {
				sum += got.Recv()
			}
			e.Assert(sum == 6, "sum %d", sum)
		}, morpheus.Iterations(300), morpheus.Strategy(s)))
	}
}

// Broadcast wakes every waiter; a signal with nobody waiting is lost, so a
// waiter that checks no condition waits forever.
func TestCondBroadcastAndLostSignal(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		var mu csync.Mutex
		cond := csync.NewCond(&mu)
		ready := false
		var wg csync.WaitGroup
		for range 3 {
			wg.Go(func() {
				mu.Lock()
				for !ready {
					cond.Wait()
				}
				mu.Unlock()
			})
		}
		mu.Lock()
		ready = true
		cond.Broadcast()
		mu.Unlock()
		wg.Wait()
	}, morpheus.Iterations(300)))
	mustFail(t, explore(t, func(e *morpheus.Env) {
		var mu csync.Mutex
		cond := csync.NewCond(&mu)
		csync.Go(func() { mu.Lock(); cond.Signal(); mu.Unlock() })
		mu.Lock()
		cond.Wait() // the signal may come first: lost
		mu.Unlock()
	}, morpheus.Iterations(300)), "deadlock", "main: blocked in cond-wait on cond#")
}

// A waiter joins the waiters in the step that unlocks L, not before: a
// goroutine started to Wait on a lock its starter holds may not have begun
// when the starter signals (Go allows a Signal without L), and that signal
// is lost. The waiter's start runs at once (it touches nothing), so a waiter
// that joined before its unlock's step could never miss it.
func TestCondSignalBeforeWaiterJoins(t *testing.T) {
	for _, s := range []string{"", "random"} {
		opts := []morpheus.Option{morpheus.Iterations(300)}
		if s != "" {
			opts = append(opts, morpheus.Strategy(s))
		}
		mustFail(t, explore(t, func(e *morpheus.Env) {
			var mu csync.Mutex
			cond := csync.NewCond(&mu)
			woke := csync.Make[struct{}](0)
			mu.Lock()
			csync.Go(func() {
				cond.Wait() // unlocks the starter's lock
				mu.Unlock()
				woke.Close()
			})
			cond.Signal() // the waiter may not wait yet: lost
			woke.Recv()
		}, opts...), "deadlock", "blocked in cond-wait on cond#")
	}
}
