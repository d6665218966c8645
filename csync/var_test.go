package csync_test

import (
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

func TestVarOps(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		var v csync.Var[string]
		e.Assert(v.Load() == "", "zero value")
		v.Store("a")
		e.Assert(v.Swap("b") == "a" && v.Load() == "b", "swap")
		e.Assert(!csync.CompareAndSwap(&v, "a", "c") && csync.CompareAndSwap(&v, "b", "c") && v.Load() == "c", "cas")
		var n csync.Int64
		e.Assert(n.Add(5) == 5 && n.Add(-2) == 3, "add")
		e.Assert(n.CompareAndSwap(3, 9) && !n.CompareAndSwap(3, 1) && n.Swap(4) == 9 && n.Load() == 4, "int64")
		n.Store(0)
		var m csync.Int
		m.Store(2)
		e.Assert(m.Add(1) == 3 && m.Swap(0) == 3 && m.CompareAndSwap(0, 1) && m.Load() == 1, "int")
	}, morpheus.Iterations(3)))
}

// Add is one op: concurrent increments never lose an update, while the
// Load-then-Store version does, and random walk finds that quickly.
func TestAddIsAtomic(t *testing.T) {
	prog := func(atomic bool) func(*morpheus.Env) {
		return func(e *morpheus.Env) {
			var n csync.Int
			var wg csync.WaitGroup
			for range 3 {
				wg.Go(func() {
					if atomic {
						n.Add(1)
					} else {
						n.Store(n.Load() + 1)
					}
				})
			}
			wg.Wait()
			e.Assert(n.Load() == 3, "lost update: %d", n.Load())
		}
	}
	mustPass(t, explore(t, prog(true), morpheus.Iterations(500)))
	hits := count(t, prog(false), 1000, func(kind, msg string) bool { return kind == "assertion" }, morpheus.Strategy("random"))
	if hits < 100 {
		t.Errorf("random walk lost an update in only %d of 1000 iterations", hits)
	}
}

// A package-level Var is zero again in every iteration.
var pkgVar csync.Var[int]

func TestVarOutlivesIteration(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		e.Assert(pkgVar.Load() == 0, "value leaked from an earlier iteration: %d", pkgVar.Load())
		pkgVar.Store(42)
	}, morpheus.Iterations(10), morpheus.Workers(1)))
}
