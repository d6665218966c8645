package programs

import (
	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// Spin-waiting code: correct code that polls, retries and spins until
// another goroutine acts, which ends under every fair schedule, so that a
// step-limit report on it is a false livelock; and a real livelock, which
// no schedule ends. morpheus's fairness tests run them (TestNoFalseLivelock,
// TestRealLivelock), and morpheus bench fairness at length.

// Spin is a test of spin-waiting code.
type Spin struct {
	Name string
	Test func(e *morpheus.Env)
}

// SpinCorrect lists the correct spin-waiting tests.
var SpinCorrect = []Spin{
	{"spin-lock", spinLock},
	{"flag-handshake", flagHandshake},
	{"lock-free-stack", lockFreeStack},
}

// spinLock: three goroutines take a spin lock (a CAS loop) to add to a
// counter.
func spinLock(e *morpheus.Env) {
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
}

// flagHandshake: a consumer polls a flag until the producer, which has
// other work first, sets it.
func flagHandshake(e *morpheus.Env) {
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
}

// lockFreeStack: a Treiber stack whose pushes and pops are CAS retry loops;
// the consumer spins until it has popped all the producers pushed.
func lockFreeStack(e *morpheus.Env) {
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
}

// SpinLivelock never ends: each of two goroutines waits for the other's flag.
func SpinLivelock(e *morpheus.Env) {
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

// SpinStrategies are the strategies the spin-waiting tests run under:
// every kind morpheus has, with and without conflict analysis where it
// applies.
var SpinStrategies = []string{"random", "pct:3", "pct:8", "pos", "pos*", "rapos", "pos+ca", "pos*+ca", "dfs"}
