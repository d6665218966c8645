package morpheus_test

import (
	"fmt"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// Correct code that spin-waits: each ends under every fair schedule, so a
// step-limit report on it would be a false livelock.
var spinWaiters = map[string]func(e *morpheus.Env){
	// Three goroutines take a spin lock (a CAS loop) to add to a counter.
	"spin lock": func(e *morpheus.Env) {
		var lock, n csync.Int
		var wg csync.WaitGroup
		for range 3 {
			wg.Go(func() {
				for !lock.CompareAndSwap(0, 1) {
				}
				n.Store(n.Load() + 1)
				lock.Store(0)
			})
		}
		wg.Wait()
		e.Assert(n.Load() == 3, "count %d", n.Load())
	},
	// A consumer polls a flag until the producer, which has other work
	// first, sets it.
	"flag handshake": func(e *morpheus.Env) {
		var data, flag csync.Int
		var wg csync.WaitGroup
		wg.Go(func() {
			for flag.Load() == 0 {
			}
			e.Assert(data.Load() == 42, "data %d", data.Load())
		})
		wg.Go(func() {
			for i := range 5 {
				data.Store(i)
			}
			data.Store(42)
			flag.Store(1)
		})
		wg.Wait()
	},
	// A Treiber stack: pushes and pops are CAS retry loops, and the
	// consumer spins until it has popped what the producers pushed.
	"lock-free stack": func(e *morpheus.Env) {
		var top csync.Int // index+1 of the top node, 0 when empty
		next := make([]csync.Int, 5)
		var wg csync.WaitGroup
		for p := range 2 {
			wg.Go(func() {
				for k := range 2 {
					node := 1 + 2*p + k
					for {
						old := top.Load()
						next[node].Store(old)
						if top.CompareAndSwap(old, node) {
							break
						}
					}
				}
			})
		}
		popped := 0
		wg.Go(func() {
			for popped < 4 {
				old := top.Load()
				if old == 0 {
					continue // spin until a producer pushes
				}
				if top.CompareAndSwap(old, next[old].Load()) {
					popped++
				}
			}
		})
		wg.Wait()
		e.Assert(popped == 4, "popped %d", popped)
	},
}

// livelock never ends: each goroutine waits for the other's flag.
func livelock(e *morpheus.Env) {
	var a, b csync.Int
	var wg csync.WaitGroup
	wg.Go(func() {
		for b.Load() == 0 {
		}
		a.Store(1)
	})
	wg.Go(func() {
		for a.Load() == 0 {
		}
		b.Store(1)
	})
	wg.Wait()
}

var fairnessStrategies = []string{"random", "pct:3", "pct:8", "pos", "pos*", "rapos", "pos+ca", "dfs"}

// TestNoFalseLivelock: under every strategy, spin-waiting code that ends
// under fair schedules is never reported at the step limit: a strategy
// may starve a task only for a bounded number of steps.
func TestNoFalseLivelock(t *testing.T) {
	for name, test := range spinWaiters {
		for _, s := range fairnessStrategies {
			t.Run(fmt.Sprintf("%s/%s", name, s), func(t *testing.T) {
				res := explore(t, test, morpheus.Strategy(s), morpheus.Seed(3), morpheus.Iterations(300))
				mustPass(t, res)
			})
		}
	}
}

// TestRealLivelock: a livelock is still reported, under every strategy.
func TestRealLivelock(t *testing.T) {
	for _, s := range fairnessStrategies {
		res := explore(t, livelock, morpheus.Strategy(s), morpheus.Seed(3), morpheus.Iterations(5),
			morpheus.MaxSteps(20_000))
		mustFail(t, res, "step-limit", "no end after 20000 steps")
	}
}
