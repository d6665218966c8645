package rt_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/internal/mtest"
	"github.com/morpheus-go/morpheus/rt"
)

// aloneAccesses counts the accesses of sortJoined's main after the join.
var aloneAccesses int

// sortJoined: workers make values behind pointers and join; main then sorts
// the pointers by their values alone, reaching every value through memory
// the workers wrote. Then it starts a goroutine that races with it, if
// race is set.
func sortJoined(race bool) func() {
	return func() {
		const workers, each = 4, 2500
		ptrs := make([]*int, workers*each)
		var wg csync.WaitGroup
		for w := range workers {
			wg.Add(1)
			rt.Go(func() {
				defer wg.Done()
				for i := w * each; i < (w+1)*each; i++ {
					p := new(int)
					*rt.Write(p, "*p") = (i * 7919) % len(ptrs)
					*rt.Write(&ptrs[i], "ptrs[i]") = p
				}
			})
		}
		wg.Wait()
		n := 0
		slices.SortFunc(ptrs, func(a, b *int) int {
			n += 2
			return *rt.Read(a, "*a") - *rt.Read(b, "*b")
		})
		for i := range ptrs {
			n += 2
			if *rt.Read(&ptrs[i], "ptrs[i]") == nil {
				panic("lost a pointer")
			}
		}
		aloneAccesses = n
		if race {
			x := ptrs[0]
			rt.Go(func() { *rt.Write(x, "*x") = -1 }) // g5
			_ = *rt.Read(x, "*x")
		}
	}
}

// A goroutine that computes alone after its workers joined takes a step
// every few thousand accesses, not one per access: every task before it is
// ordered before it, and no other is left to run or to race with.
func TestAloneAfterJoinTakesFewSteps(t *testing.T) {
	res, err := morpheus.Explore(func(*morpheus.Env) { sortJoined(false)() },
		morpheus.Iterations(3), morpheus.Workers(1), morpheus.Seed(5))
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil {
		t.Fatal(res.Failure.Report())
	}
	perRun := res.Steps / int64(res.Iterations)
	t.Logf("%d steps a schedule for %d accesses of main alone", perRun, aloneAccesses)
	if aloneAccesses < 100_000 || perRun > int64(aloneAccesses)/20 {
		t.Errorf("%d steps a schedule for %d accesses of main alone, want a step per thousands", perRun, aloneAccesses)
	}
}

// Runs with a stretch alone are deterministic: the same seed gives the same
// trace, and the trace replays to the same failure (the steps the stretch
// comes back to the scheduler at are the same).
func TestAloneDeterministicAndReplays(t *testing.T) {
	prog := sortJoined(true)
	run := func(opts ...morpheus.Option) *morpheus.Failure {
		t.Helper()
		res, err := morpheus.Explore(func(*morpheus.Env) { prog() },
			append([]morpheus.Option{morpheus.Iterations(20), morpheus.Workers(1), morpheus.Seed(9), morpheus.Shrink(0)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		if f := res.Failure; f == nil || f.Kind != "race" || !strings.Contains(f.Message, "g5 write") && !strings.Contains(f.Message, "g5's write") {
			t.Fatalf("want the race of g5's write, got %v", f)
		}
		return res.Failure
	}
	a, b := run(), run()
	if !bytes.Equal(mtest.Encode(t, a.Trace), mtest.Encode(t, b.Trace)) {
		t.Fatal("two runs of one seed gave different traces")
	}
	path := t.TempDir() + "/trace"
	if err := morpheus.WriteTrace(path, a.Trace); err != nil {
		t.Fatal(err)
	}
	if f := run(morpheus.Replay(path)); f.Message != a.Message {
		t.Fatalf("replay gave %q, want %q", f.Message, a.Message)
	}
}

// A goroutine that ended without a join (main slept meanwhile) is not
// ordered before main: main does not run alone, and its access after
// the sleep is checked against the goroutine's, however much main computed
// in between.
func TestAloneNotAfterAJoinlessEnd(t *testing.T) {
	f := explore(t, 50, func() {
		x := new(int)
		rt.Go(func() { *rt.Write(x, "x") = 1 })
		rt.Sleep(time.Millisecond)
		own := make([]int, 64)
		for i := range 10_000 {
			*rt.Write(&own[i%64], "own[i]") += i
		}
		_ = *rt.Read(x, "x")
	})
	if f == nil || f.Kind != "race" || !strings.Contains(f.Message, "data race on x") {
		t.Fatalf("want the race on x, got %v", f)
	}
}

// A loop alone that never ends still fails at the step limit's bounds, in
// steps: one every aloneRun accesses (its accesses count towards no bound:
// a long computation alone is no livelock).
func TestAloneLoopFailsStepLimit(t *testing.T) {
	res, err := morpheus.Explore(func(*morpheus.Env) {
		x := new(int)
		for *rt.Read(x, "x") >= 0 {
			*rt.Write(x, "x") = *rt.Read(x, "x") % 7
		}
	}, morpheus.Iterations(1), morpheus.Workers(1), morpheus.MaxSteps(20))
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Kind != "step-limit" || !strings.Contains(f.Message, "accesses of a task running alone") ||
		!strings.Contains(f.Message, "ran alone") {
		t.Fatalf("want a step-limit failure of main alone, got %v", f)
	}
	// The solo bound (a hundred times the limit) counts steps: a step
	// every aloneRun accesses.
	t.Log(f.Message)
	if f.Steps < 2_000 || !strings.Contains(f.Message, "plain-memory accesses") {
		t.Errorf("%d steps: want the solo bound of 2,000 steps, each after thousands of accesses alone", f.Steps)
	}
}
