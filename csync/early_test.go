package csync_test

//lint:file-ignore SA2001 a lock and unlock is a step of the main task

import (
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// busyWhileTimer stops a 1ns AfterFunc after some ops of its own: without
// early timers the timer cannot fire while main can run, so Stop always
// wins; with them, some schedules fire it first.
func busyWhileTimer(e *morpheus.Env) {
	var mu csync.Mutex
	tm := csync.AfterFunc(time.Nanosecond, func() {})
	for range 3 {
		mu.Lock()
		mu.Unlock()
	}
	e.Assert(tm.Stop(), "the timer fired while main was still running")
}

func TestEarlyTimers(t *testing.T) {
	res, err := morpheus.Explore(busyWhileTimer, morpheus.Iterations(300), morpheus.Workers(1))
	if err != nil || res.Failure != nil {
		t.Fatalf("without early timers the timer fired: %v %v", err, res.Failure)
	}
	res, err = morpheus.Explore(busyWhileTimer, morpheus.Iterations(300), morpheus.Workers(1), morpheus.EarlyTimers(1))
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Kind != "assertion" {
		t.Fatalf("with EarlyTimers(1) the timer never fired early: %v", f)
	}
	// The failure replays: the early firing is in the trace.
	path := t.TempDir() + "/trace"
	if err := morpheus.WriteTrace(path, f.Trace); err != nil {
		t.Fatal(err)
	}
	again, err := morpheus.Explore(busyWhileTimer, morpheus.Replay(path), morpheus.EarlyTimers(1))
	if err != nil || again.Failure == nil || again.Failure.Message != f.Message {
		t.Fatalf("replay: %v %v", err, again.Failure)
	}
}

// Early firings keep the timers' order and are bounded per iteration.
func TestEarlyTimersKeepOrder(t *testing.T) {
	res, err := morpheus.Explore(func(e *morpheus.Env) {
		var order []int
		var mu csync.Mutex
		csync.AfterFunc(2*time.Millisecond, func() { order = append(order, 2) })
		csync.AfterFunc(time.Millisecond, func() { order = append(order, 1) })
		for range 5 {
			mu.Lock()
			mu.Unlock()
		}
		csync.Sleep(time.Second)
		e.Assert(len(order) == 2 && order[0] == 1, "timers fired in the order %v", order)
	}, morpheus.Iterations(300), morpheus.Workers(1), morpheus.EarlyTimers(2), morpheus.Strategy("random"))
	if err != nil || res.Failure != nil {
		t.Fatalf("%v %v", err, res.Failure)
	}
}

// ownWatchdog bounds its own run, as tests do: its work, in a goroutine,
// starts a nanosecond AfterFunc that wants the lock the work holds, and
// main waits for the work or for a watchdog of one second.
func ownWatchdog(e *morpheus.Env) {
	done := csync.Make[struct{}](0)
	csync.Go(func() {
		var mu csync.Mutex
		for range 10 {
			mu.Lock()
			tm := csync.AfterFunc(time.Nanosecond, func() {
				mu.Lock()
				mu.Unlock()
			})
			mu.Unlock()
			tm.Stop()
		}
		done.Close()
	})
	timedOut := false
	csync.Select(
		csync.Recv(done, nil),
		csync.Recv(csync.After(time.Second), func(time.Time, bool) { timedOut = true }),
	)
	e.Assert(!timedOut, "the test's own watchdog fired while its work could run")
}

// Early timers fire only deadlines near the clock (a millisecond): the
// work's nanosecond timers fire early, the test's watchdog, a second ahead,
// never does while the work can still run.
func TestEarlyTimersSpareWatchdog(t *testing.T) {
	res, err := morpheus.Explore(ownWatchdog, morpheus.Iterations(300), morpheus.Workers(1), morpheus.EarlyTimers(2))
	if err != nil || res.Failure != nil {
		t.Fatalf("%v %v", err, res.Failure)
	}
}

// sleepToWorkOff sleeps a millisecond "to let the goroutines work off", as
// tests do, then checks that they did: three goroutines of a few steps.
func sleepToWorkOff(e *morpheus.Env) {
	var mu csync.Mutex
	n := 0
	for range 3 {
		csync.Go(func() {
			mu.Lock()
			n++
			mu.Unlock()
		})
	}
	csync.Sleep(time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	e.Assert(n == 3, "the sleep ended after %d of 3 goroutines", n)
}

// An early firing needs other work to have filled the wait: a millisecond
// sleep does not end early while the few steps of the goroutines it waits
// for have not run (a goroutine that can run is not delayed a millisecond
// by nothing), with early timers in every schedule or the portfolio's.
func TestEarlyTimersNeedWork(t *testing.T) {
	for _, k := range []int{24, -1} {
		res, err := morpheus.Explore(sleepToWorkOff, morpheus.Iterations(300), morpheus.Workers(1), morpheus.EarlyTimers(k))
		if err != nil || res.Failure != nil {
			t.Fatalf("EarlyTimers(%d): %v %v", k, err, res.Failure)
		}
	}
}
