package csync_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// A goroutine left waiting on a channel nobody sends to once the test has
// returned is a leak: the report names it, its op, the channel and where the
// goroutine was started.
func TestLeakBlockedRecv(t *testing.T) {
	leaky := func(e *morpheus.Env) {
		ch := csync.Make[int](0)
		csync.Go(func() { ch.Recv() })
	}
	f := mustFail(t, explore(t, leaky, morpheus.Iterations(20)), "leak", "1 goroutine leaked")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`blocked forever \(no task can run and no timer is pending\):`),
		regexp.MustCompile(`\n  g1: blocked in chan-recv on chan#\d+ created at leak_test.go:\d+ at leak_test.go:\d+; started at leak_test.go:\d+`),
	} {
		if !want.MatchString(f.Message) {
			t.Errorf("message %q does not match %s", f.Message, want)
		}
	}
	if f.Task != "g1" || !strings.HasPrefix(f.Location, "leak_test.go:") {
		t.Errorf("failure in %q at %q, want g1 at leak_test.go", f.Task, f.Location)
	}
	// Like every failure, it replays from its saved trace.
	path := filepath.Join(t.TempDir(), "leak.trace")
	if err := morpheus.WriteTrace(path, f.Trace); err != nil {
		t.Fatal(err)
	}
	rep := mustFail(t, explore(t, leaky, morpheus.Replay(path)), "leak", "1 goroutine leaked")
	if rep.Message != f.Message || rep.Steps != f.Steps {
		t.Errorf("replay: %d steps, %q; want %d steps, %q", rep.Steps, rep.Message, f.Steps, f.Message)
	}
}

// Timers fire while goroutines wait: one that ends after a sleep, or whose
// receive a time-out ends, is no leak.
func TestLeakSleepThatEnds(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		done := csync.Make[int](1)
		csync.Go(func() {
			csync.Sleep(time.Second)
			done.Send(1)
		})
		csync.Go(func() {
			csync.Select(csync.Recv(csync.Make[int](0), nil), csync.Recv(csync.After(time.Minute), nil))
		})
	}, morpheus.Iterations(50)))
}

// A goroutine that runs forever on a ticker leaks: it is still waiting at
// the clock limit, or still running at the step limit.
func TestLeakTickerForever(t *testing.T) {
	forever := func(d time.Duration) func(*morpheus.Env) {
		return func(e *morpheus.Env) {
			tk := csync.NewTicker(d)
			csync.Go(func() {
				for range tk.C.Range() {
				}
			})
		}
	}
	mustFail(t, explore(t, forever(time.Second), morpheus.Iterations(3), morpheus.ClockLimit(time.Minute)),
		"leak", "still blocked at the clock limit 1m0s")
	mustFail(t, explore(t, forever(time.Millisecond), morpheus.Iterations(3), morpheus.MaxSteps(2000)),
		"leak", "still running after the step limit (2000 steps)")
}

// AllowLeaks lets a test leave workers parked.
func TestLeakAllowed(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		ch := csync.Make[int](0)
		csync.Go(func() { ch.Recv() })
	}, morpheus.Iterations(20), morpheus.AllowLeaks(true)))
}

// Actor processes are servers: one waiting in Receive at the end is no
// leak, and neither is a ticker nobody waits on.
func TestLeakNotProcessesOrTimers(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		e.Spawn("server", func(e *morpheus.Env) {
			for {
				e.Receive(nil)
			}
		})
		csync.NewTicker(time.Second)
	}, morpheus.Iterations(20)))
}

// Goroutines that end are no leak, whatever the order; the leaked ones are
// listed in the order they started.
func TestLeakSeveral(t *testing.T) {
	f := mustFail(t, explore(t, func(e *morpheus.Env) {
		var mu csync.Mutex
		mu.Lock()
		csync.Go(func() {})
		csync.Go(func() { mu.Lock() })
		csync.Go(func() { csync.Make[int](0).Send(1) })
	}, morpheus.Iterations(20)), "leak", "2 goroutines leaked")
	lines := strings.Split(f.Message, "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "  g2: blocked in lock on mutex#") || !strings.HasPrefix(lines[2], "  g3: blocked in chan-send on chan#") {
		t.Errorf("message:\n%s", f.Message)
	}
}
