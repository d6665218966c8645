package rt_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/rt"
	"github.com/morpheus-go/morpheus/trace"
)

// initStart is what a package-level var start = time.Now() reads once
// rewritten: the clock outside control, at package initialization.
var initStart = rt.Now()

// A task that a deadline woke reads a time past the deadline, as on a real
// machine: after a Sleep, a timer's firing, a ticker's tick, a context's
// time-out.
func TestWakeAfterDeadline(t *testing.T) {
	const d = 10 * time.Millisecond
	if f := explore(t, 20, func() {
		start := rt.Now()
		rt.Sleep(d)
		if !rt.Now().After(start.Add(d)) {
			panic(fmt.Sprintf("woke at %v, not after %v", rt.Now(), start.Add(d)))
		}
		start = rt.Now()
		at := rt.Recv(rt.NewTimer(d).C)
		if !at.After(start.Add(d)) || rt.Now().Before(at) {
			panic(fmt.Sprintf("timer fired at %v, set at %v", at, start))
		}
		start = rt.Now()
		tk := rt.NewTicker(d)
		for i := 1; i <= 3; i++ {
			if at := rt.Recv(tk.C); !at.After(start.Add(time.Duration(i) * d)) {
				panic(fmt.Sprintf("tick %d at %v", i, at))
			}
		}
		tk.Stop()
		ctx, cancel := rt.WithTimeout(context.Background(), d)
		defer cancel()
		deadline, _ := ctx.Deadline()
		rt.Recv(ctx.Done())
		if !rt.Now().After(deadline) {
			panic(fmt.Sprintf("context done at %v, deadline %v", rt.Now(), deadline))
		}
	}); f != nil {
		t.Fatal(f.Report())
	}
}

// Timers that fall due at the same instant still do, whatever was read of
// the clock meanwhile: the strategy orders them, and both orders occur.
func TestTimersDueTogether(t *testing.T) {
	orders := map[string]bool{}
	if f := explore(t, 50, func() {
		var order []string
		done := rt.Make[chan string](2)
		rt.Go(func() { rt.Sleep(time.Millisecond); rt.Send(done, "a") })
		rt.Go(func() { rt.Now(); rt.Sleep(time.Millisecond); rt.Send(done, "b") })
		order = append(order, rt.Recv(done), rt.Recv(done))
		orders[strings.Join(order, "")] = true
	}); f != nil {
		t.Fatal(f.Report())
	}
	if !orders["ab"] || !orders["ba"] {
		t.Errorf("orders seen: %v", orders)
	}
}

// Code outside control (package initialization, here the test itself) and
// code inside read one clock: a time read before the schedules is before
// every schedule's, by a minute, and the same in every schedule.
func TestOutsideClock(t *testing.T) {
	outside := rt.Now()
	if !outside.After(initStart) {
		t.Fatalf("outside clock did not move: %v then %v", initStart, outside)
	}
	rt.Sleep(2 * time.Millisecond)
	if got := rt.Since(outside); got < 2*time.Millisecond || got > 3*time.Millisecond {
		t.Fatalf("an outside Sleep of 2ms moved the outside clock by %v", got)
	}
	tm := rt.NewTimer(time.Millisecond)
	if at := <-tm.C; !at.After(outside.Add(3 * time.Millisecond)) {
		t.Fatalf("outside timer fired at %v, set after %v", at, outside.Add(2*time.Millisecond))
	}
	// A context made outside control keeps its deadline on the real clock,
	// which the standard library (net/http, net.Dialer) compares it with.
	ctx, cancel := rt.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	if dl, _ := ctx.Deadline(); time.Until(dl) < 59*time.Minute || time.Until(dl) > time.Hour {
		t.Fatalf("outside context's deadline %v is not an hour ahead on the real clock", dl)
	}
	var since []time.Duration
	if f := explore(t, 5, func() {
		d := rt.Since(initStart)
		if d <= 0 || d > 2*time.Minute {
			panic(fmt.Sprintf("time.Since(start) = %v in a schedule", d))
		}
		since = append(since, d)
	}); f != nil {
		t.Fatal(f.Report())
	}
	for _, d := range since {
		if d != since[0] {
			t.Fatalf("schedules read different times since the start: %v", since)
		}
	}
}

// A program that waits for time by polling makes progress and ends: a
// select that takes its default, with or without work between polls (an
// atomic add: then time moves with steps), a spin on the clock, a load and
// a runtime.Gosched, each while another goroutine sleeps.
func TestPollingMovesTime(t *testing.T) {
	polls := map[string]func(){
		"select default": func() {
			stop := rt.Make[chan struct{}](0)
			rt.Go(func() { rt.Sleep(10 * time.Millisecond); rt.Close(stop) })
			for {
				c := rt.OnRecv(stop)
				if rt.Select(true, c) == 0 {
					return
				}
			}
		},
		"select default between rounds of work": func() {
			stop := rt.Make[chan struct{}](0)
			rt.Go(func() { rt.Sleep(10 * time.Millisecond); rt.Close(stop) })
			var rounds atomic.Int64
			for {
				if rt.Select(true, rt.OnRecv(stop)) == 0 {
					return
				}
				rt.Point(&rounds, rt.AtomicAdd, "rounds")
				rounds.Add(1)
			}
		},
		"spin on the clock": func() {
			done := rt.Make[chan struct{}](0)
			rt.Go(func() { rt.Sleep(time.Second); rt.Close(done) })
			t0 := rt.Now()
			for rt.Since(t0) < 2*time.Millisecond {
			}
			rt.Recv(done)
		},
		"load and Gosched": func() {
			var flag atomic.Bool
			rt.Go(func() {
				rt.Sleep(time.Minute)
				rt.Point(&flag, rt.AtomicStore, "flag")
				flag.Store(true)
			})
			for {
				rt.Point(&flag, rt.AtomicLoad, "flag")
				if flag.Load() {
					return
				}
				rt.Gosched()
			}
		},
	}
	for name, body := range polls {
		if f := explore(t, 3, body); f != nil {
			t.Errorf("%s: %s", name, f.Report())
		}
	}
}

// Polling that nothing ends, with no deadline pending and no read of the
// clock, leaves the clock still (no time could end it) and meets the step
// limit, as a loop of the poller alone at its line; the same seed gives the
// same trace. (With a deadline pending, or a clock read, polling moves the
// clock and ends at the clock limit: TestPollingForeverTimed.)
func TestPollingForever(t *testing.T) {
	var traces [][]byte
	for range 2 {
		res, err := morpheus.Explore(func(*morpheus.Env) {
			stop := rt.Make[chan struct{}](0)
			for {
				if rt.Select(true, rt.OnRecv(stop)) == 0 {
					return
				}
			}
		}, morpheus.Iterations(1), morpheus.Workers(1), morpheus.Seed(1),
			// A small limit, no shrinking: a million steps and the shrinker's
			// runs took minutes under -race on a busy machine.
			morpheus.MaxSteps(10_000), morpheus.Shrink(0))
		if err != nil {
			t.Fatal(err)
		}
		f := res.Failure
		if f == nil || f.Kind != "step-limit" || !strings.Contains(f.Message, "main ran alone") ||
			!strings.Contains(f.Message, "at clock_test.go:") {
			t.Fatalf("want a step-limit failure of main alone at its line, got %+v", f)
		}
		var b bytes.Buffer
		if err := trace.Encode(&b, f.Trace); err != nil {
			t.Fatal(err)
		}
		traces = append(traces, b.Bytes())
	}
	if !bytes.Equal(traces[0], traces[1]) {
		t.Error("the same seed gave two traces")
	}
}

// Two reads of the clock never return the same time, as a real clock's
// nanoseconds do not repeat, while the clock itself stands still: names made
// of time.Now() in a row (a test server's socket path, one per server) differ,
// so the second listen does not find the first one's address in use; the
// epoch is still the first read, and a sleep still ends on its deadline.
func TestReadsNeverRepeat(t *testing.T) {
	if f := explore(t, 20, func() {
		first := rt.Now()
		if !first.Equal(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)) {
			panic(fmt.Sprintf("first read %v, not the epoch", first))
		}
		var ls []interface{ Close() error }
		for range 2 {
			l, err := rt.Listen("unix", fmt.Sprintf("/tmp/testsock%d", rt.Now().UnixNano()))
			if err != nil {
				panic(err)
			}
			ls = append(ls, l)
		}
		for _, l := range ls {
			l.Close()
		}
		a, b := rt.Now(), rt.Now()
		if !b.After(a) {
			panic(fmt.Sprintf("second read %v, not after the first %v", b, a))
		}
		rt.Sleep(time.Millisecond)
		if c := rt.Now(); !c.After(b.Add(time.Millisecond)) {
			panic(fmt.Sprintf("read %v after a 1ms sleep from %v", c, b))
		}
	}); f != nil {
		t.Fatal(f.Report())
	}
}

// Polling on while a deadline is pending beyond the clock limit ends at the
// clock limit, quickly, naming the poller, not at the step limit.
func TestPollingForeverTimed(t *testing.T) {
	res, err := morpheus.Explore(func(*morpheus.Env) {
		stop := rt.Make[chan struct{}](0)
		rt.Go(func() { rt.Sleep(100 * 365 * 24 * time.Hour) })
		for {
			if rt.Select(true, rt.OnRecv(stop)) == 0 {
				return
			}
		}
	}, morpheus.Iterations(1), morpheus.Workers(1), morpheus.Seed(1), morpheus.AllowLeaks(true),
		morpheus.Shrink(0)) // the steps counted are the run's own, not a shrunk one's
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Kind != "clock-limit" || !strings.Contains(f.Message, "every task that can run is polling") ||
		!strings.Contains(f.Message, "main: polls in select at clock_test.go:") {
		t.Fatalf("want a clock-limit failure naming the poller, got %+v", f)
	}
	if f.Steps > 10_000 {
		t.Errorf("polling took %d steps to reach the clock limit", f.Steps)
	}
}

// A finite loop of polls with no deadline pending (TryGo on a semaphore of
// no room, a thousand times) ends as it would on a machine: the clock does
// not race to the clock limit while it runs.
func TestPollingFinite(t *testing.T) {
	res, err := morpheus.Explore(func(*morpheus.Env) {
		sem := rt.Make[chan struct{}](0)
		for range 5000 {
			if rt.Select(true, rt.OnSend(sem, struct{}{})) == 0 {
				panic("sent on a channel nobody receives from")
			}
		}
	}, morpheus.Iterations(3), morpheus.Workers(1), morpheus.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Failure; f != nil {
		t.Fatalf("a finite loop of polls failed: %s", f.Report())
	}
}
