package morpheus_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/trace"
)

// A task that blocks on a real channel is reported with its stack instead of
// hanging the run; once the channel is closed, its goroutines end. The
// watchdog's limit has room above any pause a loaded machine gives the
// tasks that do come back (main, and blocker before its receive): with a
// short one, either could be reported instead.
func TestUncontrolledBlocking(t *testing.T) {
	g0 := runtime.NumGoroutine()
	block := make(chan struct{})
	res := explore(t, func(e *morpheus.Env) {
		n := e.NewNode("n1", nil)
		n.Spawn("blocker", func(e *morpheus.Env) {
			e.Yield()
			<-block // not a morpheus channel: the scheduler cannot see it
		})
		e.Sleep(time.Second)
	}, morpheus.Iterations(10), morpheus.Watchdog(2*time.Second))
	f := mustFail(t, res, "uncontrolled-blocking", "task blocker@n1 did not come back")
	if !strings.Contains(f.Stack, "chan receive") || !strings.Contains(f.Stack, "watchdog_test.go") {
		t.Fatalf("stack does not show the blocked receive:\n%s", f.Stack)
	}
	if f.Trace == nil || f.Trace.Steps() != f.Steps-1 {
		t.Fatalf("trace of the steps before the block: %v", f.Trace)
	}
	close(block)
	deadline := time.Now().Add(time.Minute) // bounds a leak; no pace
	for runtime.NumGoroutine() > g0 {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("goroutines: %d, want %d\n%s", runtime.NumGoroutine(), g0, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A task that spins without ops is reported too. It is the only task, and it
// spins until the test ends: the short limit cannot pick another one.
func TestUncontrolledSpin(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	res := explore(t, func(e *morpheus.Env) {
		for {
			select {
			case <-stop:
				return
			//lint:ignore SA5004 the spin, outside morpheus's control, is what the watchdog must report
			default:
			}
		}
	}, morpheus.Iterations(1), morpheus.Workers(1), morpheus.Watchdog(200*time.Millisecond))
	mustFail(t, res, "uncontrolled-blocking", "task main did not come back")
}

// A main task that calls runtime.Goexit (t.FailNow on the real
// *testing.T) is reported at once, as go test fails a test that does, with
// the advice to use Env.Fatalf, and leaks nothing.
func TestGoexitInTask(t *testing.T) {
	g0 := runtime.NumGoroutine()
	res := explore(t, func(e *morpheus.Env) {
		e.NewNode("n1", nil).Spawn("bystander", func(e *morpheus.Env) { e.Receive(nil) })
		e.Yield()
		runtime.Goexit()
	}, morpheus.Iterations(20))
	f := mustFail(t, res, "panic", "runtime.Goexit in the main task")
	if !strings.Contains(f.Message, "Env.Fatalf") || f.Trace == nil {
		t.Fatalf("%s", f.Report())
	}
	deadline := time.Now().Add(time.Minute) // bounds a leak; no pace
	for runtime.NumGoroutine() > g0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > g0 {
		t.Fatalf("goroutines: %d, want %d", n, g0)
	}
}

// threeSends has processes a, b and c each send the main task its name,
// and returns the names in the order they arrived.
func threeSends(e *morpheus.Env) [3]string {
	n := e.NewNode("n1", nil)
	main := e.Self()
	for _, name := range []string{"a", "b", "c"} {
		n.Spawn(name, func(e *morpheus.Env) { e.Send(main, name) })
	}
	var got [3]string
	for i := range got {
		got[i] = morpheus.Recv[string](e)
	}
	return got
}

// A task that blocks outside morpheus only on some schedules, late in a run
// whose strategy has learned (conflict analysis's table): the trace
// reported is that of the iteration that blocked.
func TestUncontrolledBlockingLate(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	res := explore(t, func(e *morpheus.Env) {
		if got := threeSends(e); e.Iteration() >= 60 && got[0] == "c" {
			<-block
		}
	}, morpheus.Iterations(2000), morpheus.Workers(1), morpheus.Watchdog(2*time.Second), morpheus.Strategy("pos+ca"))
	f := mustFail(t, res, "uncontrolled-blocking", "task main did not come back")
	t.Logf("iteration %d, step %d", f.Iteration, f.Steps)
	for _, ev := range f.Trace.Events {
		if ev.Kind == trace.KindRecv && f.Trace.TaskName(ev.Task) == "main" {
			if got := f.Trace.TaskName(ev.Obj); got != "c@n1" {
				t.Fatalf("the trace's first receive took %s's message: not the iteration that blocked", got)
			}
			return
		}
	}
	t.Fatal("no receive in the trace")
}

// Under a systematic search an iteration follows from all those before it:
// one that blocks past the first is reported without a trace, and says why.
func TestUncontrolledBlockingSystematic(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	res := explore(t, func(e *morpheus.Env) {
		if threeSends(e)[1] == "c" { // not on the search's first schedule (a, b, c)
			<-block
		}
	}, morpheus.Iterations(200), morpheus.Watchdog(2*time.Second), morpheus.Strategy("dfs"))
	f := mustFail(t, res, "uncontrolled-blocking", "task main did not come back")
	if f.Iteration == 0 || f.Trace != nil || !strings.Contains(f.Message, "no trace: a systematic search's iteration") {
		t.Fatalf("iteration %d, trace %v, message %q: want a later iteration, no trace and why", f.Iteration, f.Trace != nil, f.Message)
	}
}

// A replay is watched as an exploration is: a replayed schedule whose task
// blocks outside control (here only in the replay, as code that reaches the
// real network might) is reported, at the line where it blocks, instead of
// hanging the replay and every later run that replays it first.
func TestReplayWatchdog(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	var replaying atomic.Bool
	test := func(e *morpheus.Env) {
		e.Yield()
		if replaying.Load() {
			<-block
		}
		e.Fatalf("fails")
	}
	res := explore(t, test, morpheus.Iterations(1), morpheus.Workers(1))
	f := mustFail(t, res, "assertion", "fails")
	path := filepath.Join(t.TempDir(), "trace")
	var b strings.Builder
	if err := trace.Encode(&b, f.Trace); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	replaying.Store(true)
	rep := exploreWithin(t, 2*time.Minute, test, morpheus.Replay(path), morpheus.Watchdog(time.Second))
	g := mustFail(t, rep, "uncontrolled-blocking", "task main did not come back")
	if !strings.HasPrefix(g.Location, "watchdog_test.go:") || !strings.Contains(g.Stack, "watchdog_test.go") {
		t.Errorf("replay located at %q; stack:\n%s", g.Location, g.Stack)
	}
}
