package morpheus_test

import (
	"bytes"
	"sync/atomic"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
)

// exploreWithin is Explore that fails t, instead of hanging the test binary,
// if the exploration has not returned after limit: far beyond what the
// tests below need on a busy machine.
func exploreWithin(t *testing.T, limit time.Duration, test func(*morpheus.Env), opts ...morpheus.Option) *morpheus.Result {
	t.Helper()
	done := make(chan *morpheus.Result, 1)
	go func() { done <- explore(t, test, opts...) }()
	select {
	case res := <-done:
		return res
	case <-time.After(limit):
		t.Fatalf("the exploration did not stop within %v", limit)
		return nil
	}
}

// With unlimited iterations, Duration is what stops the run: it stops once
// the budget is spent, and reports the iterations that ran, each one that
// started and no more. Under conflict analysis, workers wait for the epoch
// before theirs to finish; those past the last iteration that starts are
// woken, not left waiting for it (many workers, short iterations: some are
// waiting when the budget ends).
func TestDurationStopsUnlimited(t *testing.T) {
	for _, s := range []string{"pos", "pos+ca"} {
		t.Run(s, func(t *testing.T) {
			var ran atomic.Int64
			test := func(e *morpheus.Env) {
				ran.Add(1)
				e.Sleep(time.Millisecond)
			}
			// 500 ms is a budget no exploration of this test spends before
			// its first iteration, however busy the machine.
			res := exploreWithin(t, 2*time.Minute, test, morpheus.Strategy(s), morpheus.Iterations(0),
				morpheus.Duration(500*time.Millisecond), morpheus.Workers(8))
			if res.Failure != nil {
				t.Fatal(res.Failure.Report())
			}
			if res.Iterations < 1 || int64(res.Iterations) != ran.Load() {
				t.Fatalf("reported %d iterations, the test ran %d times", res.Iterations, ran.Load())
			}
			if res.Elapsed < 250*time.Millisecond { // the budget starts a little before Elapsed
				t.Fatalf("stopped after %v, long before the 500ms budget was spent", res.Elapsed)
			}
			t.Logf("%d iterations in %v", res.Iterations, res.Elapsed)
		})
	}
}

// A budget far longer than the work cuts nothing short, and changes nothing
// an iteration does: the same iterations run, and the same failure is found
// with a byte-identical trace.
func TestDurationLongerThanWork(t *testing.T) {
	long := morpheus.Duration(time.Hour)
	res := exploreWithin(t, 10*time.Minute, buggyOrFixed(true), morpheus.Iterations(300), long)
	if res.Failure != nil || res.Iterations != 300 {
		t.Fatalf("%d iterations, failure %v; want 300 and none", res.Iterations, res.Failure)
	}
	opts := []morpheus.Option{morpheus.Seed(7), morpheus.Iterations(500), morpheus.Shrink(0)}
	want := mustFail(t, explore(t, racyCounter, opts...), "assertion", "lost update")
	got := mustFail(t, exploreWithin(t, 10*time.Minute, racyCounter, append(opts, long)...), "assertion", "lost update")
	if got.Iteration != want.Iteration || !bytes.Equal(encode(t, got.Trace), encode(t, want.Trace)) {
		t.Fatalf("with Duration: iteration %d, without: %d; traces equal: %v",
			got.Iteration, want.Iteration, bytes.Equal(encode(t, got.Trace), encode(t, want.Trace)))
	}
}

// The budget ends while a worker holds an iteration of the first epoch
// (conflict analysis's first 16 iterations) that it will not run, and the
// other workers, holding iterations of the second epoch, wait for the first
// to finish: they are woken and stop, not left waiting for it. The budget's
// clock is the test's: it reports the budget spent to the worker whose
// check it holds until the others ran the rest of the first epoch.
func TestDurationWakesEpochWaiters(t *testing.T) {
	start := time.Now()
	var calls atomic.Int64
	held, release := make(chan struct{}), make(chan struct{})
	restore := morpheus.SetBudgetClock(func() time.Time {
		// Call 1 sets the deadline; every later one is a worker's check
		// before an iteration, after it took the iteration's number: the
		// third check's number is below 6, in the first epoch.
		if calls.Add(1) == 4 {
			close(held)
			<-release
			return start.Add(time.Hour)
		}
		return start
	})
	defer restore()
	var ran atomic.Int64
	test := func(e *morpheus.Env) { ran.Add(1) }
	done := make(chan *morpheus.Result, 1)
	go func() {
		done <- explore(t, test, morpheus.Strategy("pos+ca"), morpheus.Iterations(0),
			morpheus.Duration(time.Minute), morpheus.Workers(4))
	}()
	<-held
	limit := time.Now().Add(2 * time.Minute)
	for ran.Load() < 15 && time.Now().Before(limit) {
		time.Sleep(time.Millisecond)
	}
	if n := ran.Load(); n != 15 {
		close(release)
		t.Fatalf("%d iterations ran while one of the first 16 was held; want the other 15", n)
	}
	// The other workers now take iterations of the second epoch and wait
	// (if one has not begun to wait when the budget ends, it sees the stop
	// first: the test passes either way, without exercising the wake-up).
	time.Sleep(50 * time.Millisecond)
	close(release)
	select {
	case res := <-done:
		if res.Failure != nil || res.Iterations != 15 || ran.Load() != 15 {
			t.Fatalf("%d iterations reported, %d ran, failure %v; want 15, 15, none", res.Iterations, ran.Load(), res.Failure)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("workers waiting for the first epoch were not woken when the budget ended")
	}
}

// A budget scaled by the first iteration caps the whole run: on a clock
// where every iteration takes 100 ms, factor 3 runs three (a fourth would
// end at 400 ms, past the 300 ms cap; it used to start, at 300 ms, and
// end a whole iteration late), a floor of 1 s ten; Iterations below either
// stops it first. Result.Stopped says which. On a clock where the first
// iteration takes 100 ms and the others 250 ms, the cap of 300 ms holds
// one more (ending at 350 ms: the mean so far, 100 ms, said 200 ms), and
// then the mean says no.
func TestScaledDuration(t *testing.T) {
	var now atomic.Int64
	restore := morpheus.SetBudgetClock(func() time.Time { return time.Unix(0, now.Load()) })
	defer restore()
	test := func(e *morpheus.Env) { now.Add(int64(100 * time.Millisecond)) }
	for _, c := range []struct {
		floor   time.Duration
		iters   int
		want    int
		stopped string
	}{
		{0, 0, 3, "budget-time"},
		{time.Second, 100, 10, "budget-time"},
		{time.Second, 5, 5, "budget-schedules"},
	} {
		now.Store(0)
		res := explore(t, test, morpheus.Iterations(c.iters), morpheus.Workers(1), morpheus.ScaledDuration(c.floor, 3))
		if res.Iterations != c.want || res.Stopped != c.stopped {
			t.Errorf("floor %v, %d iterations: ran %d, stopped %q; want %d, %q", c.floor, c.iters, res.Iterations, res.Stopped, c.want, c.stopped)
		}
	}
	now.Store(0)
	var n atomic.Int64
	uneven := func(e *morpheus.Env) {
		if n.Add(1) == 1 {
			now.Add(int64(100 * time.Millisecond))
		} else {
			now.Add(int64(250 * time.Millisecond))
		}
	}
	if res := explore(t, uneven, morpheus.Iterations(0), morpheus.Workers(1), morpheus.ScaledDuration(0, 3)); res.Iterations != 2 || res.Stopped != "budget-time" {
		t.Errorf("uneven iterations: ran %d, stopped %q; want 2, budget-time", res.Iterations, res.Stopped)
	}
	res := explore(t, racyCounter, morpheus.Seed(7), morpheus.Iterations(500), morpheus.Shrink(0), morpheus.ScaledDuration(time.Hour, 3))
	if res.Failure == nil || res.Stopped != "failure" {
		t.Errorf("failure %v, stopped %q; want a failure", res.Failure, res.Stopped)
	}
}
