package csync_test

//lint:file-ignore SA2001 lock orders and try-locks are what these tests exercise

import (
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// A mutex makes a read-modify-write of a shared variable atomic: no update
// is lost in any schedule of any strategy.
func TestMutexExcludes(t *testing.T) {
	for _, s := range []string{"random", "pos*", "pct:3", "pos*+ca"} {
		mustPass(t, explore(t, func(e *morpheus.Env) {
			var mu csync.Mutex
			var n csync.Var[int]
			var wg csync.WaitGroup
			for range 3 {
				wg.Go(func() {
					for range 2 {
						mu.Lock()
						n.Store(n.Load() + 1)
						mu.Unlock()
					}
				})
			}
			wg.Wait()
			e.Assert(n.Load() == 6, "lost update: %d", n.Load())
		}, morpheus.Iterations(300), morpheus.Strategy(s)))
	}
}

// Without the lock the same program loses updates, and random walk finds it.
func TestLostUpdateFound(t *testing.T) {
	f := mustFail(t, explore(t, func(e *morpheus.Env) {
		var n csync.Var[int]
		var wg csync.WaitGroup
		for range 2 {
			wg.Go(func() { n.Store(n.Load() + 1) })
		}
		wg.Wait()
		e.Assert(n.Load() == 2, "lost update: %d", n.Load())
	}, morpheus.Iterations(1000), morpheus.Strategy("random")), "assertion", "lost update: 1")
	if !strings.Contains(f.Location, "mutex_test.go") {
		t.Errorf("location %q", f.Location)
	}
}

// Both orders of two critical sections happen, and a woken Lock may lose
// the mutex to a newcomer (Go's normal mode), then still gets it.
func TestMutexOrders(t *testing.T) {
	orders := map[string]int{}
	mustPass(t, explore(t, func(e *morpheus.Env) {
		var mu csync.Mutex
		var log []string // guarded by mu
		var wg csync.WaitGroup
		for _, name := range []string{"a", "b", "c"} {
			wg.Go(func() {
				mu.Lock()
				log = append(log, name)
				mu.Unlock()
			})
		}
		wg.Wait()
		orders[strings.Join(log, "")]++
	}, morpheus.Iterations(600), morpheus.Workers(1)))
	if len(orders) != 6 {
		t.Errorf("orders of three critical sections: %v, want all 6", orders)
	}
}

func TestMutexMisuse(t *testing.T) {
	mustFail(t, explore(t, func(e *morpheus.Env) {
		var mu csync.Mutex
		mu.Unlock()
	}, morpheus.Iterations(2)), "panic", "sync: unlock of unlocked mutex")
	mustPass(t, explore(t, func(e *morpheus.Env) {
		var mu csync.Mutex
		e.Assert(mu.TryLock(), "TryLock of a free mutex")
		e.Assert(!mu.TryLock(), "TryLock of a locked mutex")
		done := csync.Make[int](0)
		csync.Go(func() { mu.Unlock(); done.Send(1) }) // any task may unlock
		done.Recv()
		mu.Lock()
	}, morpheus.Iterations(50)))
	f := mustFail(t, explore(t, func(e *morpheus.Env) {
		var a, b csync.Mutex
		var wg csync.WaitGroup
		wg.Go(func() { a.Lock(); b.Lock(); b.Unlock(); a.Unlock() })
		wg.Go(func() { b.Lock(); a.Lock(); a.Unlock(); b.Unlock() })
		wg.Wait()
	}, morpheus.Iterations(500)), "deadlock", "blocked in lock on mutex#")
	if !strings.Contains(f.Message, "first used at mutex_test.go:") || !strings.Contains(f.Message, "main: blocked in wg-wait on waitgroup#") {
		t.Errorf("report:\n%s", f.Message)
	}
}

// A package-level mutex is reset for every iteration: a lock left held by one
// iteration does not leak into the next.
var pkgMu csync.Mutex

func TestMutexOutlivesIteration(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		pkgMu.Lock() // never unlocked: the next iteration must not block
	}, morpheus.Iterations(20), morpheus.Workers(1)))
}

// Readers share an RWMutex, writers exclude everyone; a writer that waits
// keeps new readers out.
func TestRWMutex(t *testing.T) {
	together := 0
	mustPass(t, explore(t, func(e *morpheus.Env) {
		var rw csync.RWMutex
		var readers, writers csync.Int
		var wg csync.WaitGroup
		for range 2 {
			wg.Go(func() {
				rw.RLock()
				if readers.Add(1) == 2 {
					together++
				}
				e.Assert(writers.Load() == 0, "reader with a writer")
				readers.Add(-1)
				rw.RUnlock()
			})
		}
		wg.Go(func() {
			rw.Lock()
			e.Assert(writers.Add(1) == 1 && readers.Load() == 0, "writer not alone")
			writers.Add(-1)
			rw.Unlock()
		})
		wg.Wait()
	}, morpheus.Iterations(500), morpheus.Workers(1)))
	if together == 0 {
		t.Error("two readers never held the lock together")
	}
	mustFail(t, explore(t, func(e *morpheus.Env) {
		var rw csync.RWMutex
		rw.RUnlock()
	}, morpheus.Iterations(2)), "panic", "sync: RUnlock of unlocked RWMutex")
	mustFail(t, explore(t, func(e *morpheus.Env) {
		var rw csync.RWMutex
		rw.RLock()
		rw.Unlock()
	}, morpheus.Iterations(2)), "panic", "sync: Unlock of unlocked RWMutex")
	// A recursive read lock deadlocks once a writer waits in between.
	mustFail(t, explore(t, func(e *morpheus.Env) {
		var rw csync.RWMutex
		rw.RLock()
		csync.Go(func() { rw.Lock(); rw.Unlock() })
		csync.Sleep(1) // let the writer queue
		rw.RLock()
	}, morpheus.Iterations(5)), "deadlock", "blocked in rlock on rwmutex#")
	mustPass(t, explore(t, func(e *morpheus.Env) {
		var rw csync.RWMutex
		//lint:ignore SA4000 each TryRLock takes a read lock: two calls, two locks
		e.Assert(rw.TryRLock() && rw.TryRLock() && !rw.TryLock(), "try read locks")
		rw.RUnlock()
		rw.RUnlock()
		e.Assert(rw.TryLock() && !rw.TryRLock(), "try write lock")
		rw.Unlock()
		l := rw.RLocker()
		l.Lock()
		l.Unlock()
	}, morpheus.Iterations(5)))
}
