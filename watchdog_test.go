package morpheus_test

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
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

// A task that calls runtime.Goexit (t.FailNow on the real *testing.T) is
// reported at once, with the advice to use Env.Fatalf, and leaks nothing.
func TestGoexitInTask(t *testing.T) {
	g0 := runtime.NumGoroutine()
	res := explore(t, func(e *morpheus.Env) {
		e.NewNode("n1", nil).Spawn("bystander", func(e *morpheus.Env) { e.Receive(nil) })
		e.Yield()
		runtime.Goexit()
	}, morpheus.Iterations(20))
	f := mustFail(t, res, "panic", "runtime.Goexit in task main")
	if !strings.Contains(f.Message, "Env.Fatalf") || f.Trace == nil {
		t.Fatalf("%s", f.Report(false, ""))
	}
	deadline := time.Now().Add(time.Minute) // bounds a leak; no pace
	for runtime.NumGoroutine() > g0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > g0 {
		t.Fatalf("goroutines: %d, want %d", n, g0)
	}
}
