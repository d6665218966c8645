package morpheus_test

import (
	"reflect"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// lockedCounter passes; its three goroutines take the lock in any order.
func lockedCounter(e *morpheus.Env) {
	var mu csync.Mutex
	var n csync.Int64
	var wg csync.WaitGroup
	for range 3 {
		wg.Go(func() {
			mu.Lock()
			n.Store(n.Load() + 1)
			mu.Unlock()
		})
	}
	wg.Wait()
	e.Assert(n.Load() == 3, "lost update")
}

// TestCoverageCount checks the partial-order count: the same whatever the
// number of workers, at most one per iteration, more than one for a test
// whose goroutines race for a lock, and the last point of the curve is the
// count.
func TestCoverageCount(t *testing.T) {
	var want *morpheus.Result
	for _, workers := range []int{1, 3} {
		res, err := morpheus.Explore(lockedCounter, morpheus.Iterations(300), morpheus.Seed(5), morpheus.Workers(workers),
			morpheus.Coverage(true), morpheus.Strategy("random"), morpheus.Shrink(0))
		if err != nil {
			t.Fatal(err)
		}
		if res.Failure != nil {
			t.Fatal(res.Failure)
		}
		limit := res.Iterations
		if res.PartialOrders < 2 || res.PartialOrders > limit {
			t.Fatalf("%d partial orders in %d iterations", res.PartialOrders, limit)
		}
		c := res.Coverage
		if len(c) == 0 || c[len(c)-1].PartialOrders != res.PartialOrders || c[len(c)-1].Iteration != limit {
			t.Fatalf("curve ends at %+v, want %d orders after %d iterations", c[len(c)-1], res.PartialOrders, limit)
		}
		for i := 1; i < len(c); i++ {
			if c[i].Iteration <= c[i-1].Iteration || c[i].PartialOrders < c[i-1].PartialOrders {
				t.Fatalf("curve not increasing at %d: %+v", i, c)
			}
		}
		if want == nil {
			want = res
		} else if res.PartialOrders != want.PartialOrders || !reflect.DeepEqual(res.Coverage, want.Coverage) {
			t.Fatalf("%d workers: %d partial orders, 1 worker: %d", workers, res.PartialOrders, want.PartialOrders)
		}
	}
	off, err := morpheus.Explore(lockedCounter, morpheus.Iterations(50), morpheus.Shrink(0))
	if err != nil || off.PartialOrders != 0 || off.Coverage != nil {
		t.Fatalf("counted without Coverage: %d, %v", off.PartialOrders, err)
	}
}
