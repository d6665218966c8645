package csync_test

import (
	"strconv"
	"testing"

	"github.com/morpheus-go/morpheus"
)

// EarlyTimers(-1), the portfolio (morpheus test -earlytimers -1), finds
// what early timers find (a nanosecond AfterFunc that fires while its owner
// still runs) in a schedule of its own that fires early; the trace records
// that schedule's firings, and a replay given no option, or early timers
// off, follows it.
func TestEarlyTimersPortfolio(t *testing.T) {
	res, err := morpheus.Explore(busyWhileTimer, morpheus.Iterations(300), morpheus.Workers(1), morpheus.EarlyTimers(-1))
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Kind != "assertion" {
		t.Fatalf("with the portfolio the timer never fired early: %v", f)
	}
	if f.Iteration%2 == 0 {
		t.Errorf("iteration %d failed: the portfolio's even iterations fire no timer early", f.Iteration)
	}
	want := map[int]string{1: "2", 3: "24"}[f.Iteration%4]
	if got := f.Trace.Header.Options["earlytimers"]; got != want {
		t.Fatalf("iteration %d's trace records earlytimers=%q, want %s", f.Iteration, got, want)
	}
	path := t.TempDir() + "/trace"
	if err := morpheus.WriteTrace(path, f.Trace); err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]morpheus.Option{nil, {morpheus.EarlyTimers(0)}, {morpheus.EarlyTimers(-1)}} {
		again, err := morpheus.Explore(busyWhileTimer, append([]morpheus.Option{morpheus.Replay(path)}, extra...)...)
		if err != nil || again.Failure == nil || again.Failure.Message != f.Message || again.Diverged != "" {
			t.Fatalf("replay with %d more options: %v %v", len(extra), err, again.Failure)
		}
	}
}

// A schedule the portfolio runs without early timers records none, and its
// replay under the portfolio fires none either (the replayed iteration's
// index would give it some): the failure here needs no early timer.
func TestEarlyTimersPortfolioNoneRecorded(t *testing.T) {
	res, err := morpheus.Explore(func(e *morpheus.Env) { e.Assert(false, "fails at once") },
		morpheus.Iterations(10), morpheus.Workers(1), morpheus.EarlyTimers(-1))
	if err != nil || res.Failure == nil {
		t.Fatal(err, res.Failure)
	}
	if got, ok := res.Failure.Trace.Header.Options["earlytimers"]; ok {
		t.Fatalf("iteration %d's trace records earlytimers=%s, want none", res.Failure.Iteration, got)
	}
}

// The portfolio spares a test's own watchdog as EarlyTimers(2) does: its
// deadline is a second ahead, outside the early window, in every schedule.
func TestEarlyTimersPortfolioSpareWatchdog(t *testing.T) {
	res, err := morpheus.Explore(ownWatchdog, morpheus.Iterations(300), morpheus.Workers(1), morpheus.EarlyTimers(-1))
	if err != nil || res.Failure != nil {
		t.Fatalf("%v %v", err, res.Failure)
	}
	if res.Iterations != 300 {
		t.Fatalf("ran %s iterations, want 300", strconv.Itoa(res.Iterations))
	}
}
