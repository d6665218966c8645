package rt_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/rt"
	"github.com/morpheus-go/morpheus/trace"
)

// A race names its location by the expression of the location's first
// access in the schedule, as the rewriter passes it, not by its number; and
// the trace shows the ops the code wrote: an atomic Add, not the swap that
// stands for it, and a WaitGroup's Done, not its wg-add of -1.
func TestRaceNamesExpression(t *testing.T) {
	type counter struct {
		n    int
		hits int64
	}
	f := explore(t, 200, func() {
		c := &counter{}
		var wg csync.WaitGroup
		wg.Add(1)
		rt.Go(func() {
			defer wg.Done()
			rt.Atomic(rt.Point(&c.hits, rt.AtomicAdd, "c.hits"), atomic.AddInt64(&c.hits, 1))
			*rt.Write(&c.n, "c.n")++
		})
		wg.Wait()
		_ = *rt.Read(&c.hits, "c.hits") // ordered by Wait after Done
		*rt.Write(&c.n, "c.n") = 2      // ordered too
		rt.Go(func() { *rt.Write(&c.n, "c.n") = 3 })
		_ = *rt.Read(&c.n, "c.n")
	})
	if f == nil || f.Kind != "race" {
		t.Fatalf("want a race failure, got %v", f)
	}
	if !strings.HasPrefix(f.Message, "data race on c.n: ") {
		t.Errorf("the race does not name its location c.n: %s", f.Message)
	}
	var b strings.Builder
	if err := trace.Render(&b, f.Trace, 0, -1); err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{" atomic-add ", " wg-done ", " wg-add ", " wg-wait "} {
		if !strings.Contains(b.String(), op) {
			t.Errorf("the trace does not show %q:\n%s", op, b.String())
		}
	}
	if strings.Contains(b.String(), " swap ") {
		t.Errorf("the trace shows the atomic Add as a swap:\n%s", b.String())
	}
}

// An atomic access racing with a plain one names the location too.
func TestRaceNamesAtomicLocation(t *testing.T) {
	f := explore(t, 200, func() {
		var n int64
		rt.Go(func() { rt.Atomic(rt.Point(&n, rt.AtomicAdd, "n"), atomic.AddInt64(&n, 1)) })
		_ = *rt.Read(&n, "n")
	})
	if f == nil || f.Kind != "race" || !strings.HasPrefix(f.Message, "data race on n: ") {
		t.Fatalf("want a race on n, got %v", f)
	}
}
