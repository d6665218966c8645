package morpheus_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
)

func TestSafetyMonitor(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		total := 0
		e.AddMonitor("budget", morpheus.MonitorFunc(func(m *morpheus.Mon, ev any) {
			total += ev.(int)
			m.Assert(total <= 3, "spent %d of 3", total)
		}))
		n := e.NewNode("n1", nil)
		for range 2 {
			n.Spawn("spender", func(e *morpheus.Env) { e.Announce(2) })
		}
	}, morpheus.Iterations(10))
	f := mustFail(t, res, "assertion", "monitor budget: spent 4 of 3")
	if !strings.HasPrefix(f.Location, "spec_test.go:") {
		t.Fatalf("location %q", f.Location)
	}
}

// A hot monitor keeps the iteration going after the main task returned, so
// that progress owed by timers can still happen.
func TestHotMonitorKeepsRunning(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		e.AddMonitor("repair", morpheus.MonitorFunc(func(m *morpheus.Mon, ev any) {
			if ev == "broken" {
				m.Hot("repairing")
			} else {
				m.Cold("repaired")
			}
		}))
		e.Announce("broken")
		e.NewNode("n1", nil).Spawn("repairer", func(e *morpheus.Env) {
			e.Sleep(time.Hour)
			e.Announce("fixed")
		})
	}, morpheus.Iterations(50), morpheus.ClockLimit(2*time.Hour))
	mustPass(t, res)
}

func TestHotMonitorNoProgress(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		e.AddMonitor("repair", morpheus.MonitorFunc(func(m *morpheus.Mon, ev any) { m.Hot("repairing") }))
		e.Sleep(time.Second)
		e.Announce("broken")
	}, morpheus.Iterations(5))
	mustFail(t, res, "liveness", "no task can run and no timer is pending\n  monitor repair is hot in state \"repairing\" since 1s (step 2)")
}

func TestHotLimit(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		e.AddMonitor("repair", morpheus.MonitorFunc(func(m *morpheus.Mon, ev any) { m.Hot("repairing") }),
			morpheus.HotLimit(10*time.Second))
		e.Announce("broken")
		e.NewNode("n1", nil).Spawn("ticker", func(e *morpheus.Env) {
			for {
				e.Sleep(time.Second)
			}
		})
	}, morpheus.Iterations(5))
	f := mustFail(t, res, "liveness", `monitor repair is hot in state "repairing" since 0s (step 1): longer than its limit of 10s`)
	if f.Clock != 11*time.Second {
		t.Fatalf("failed at %v", f.Clock)
	}
}

// At the step limit a hot monitor turns a livelock into a liveness failure
// that says what progress was owed.
func TestHotAtStepLimit(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		e.AddMonitor("m", morpheus.MonitorFunc(func(m *morpheus.Mon, ev any) { m.Hot("owed") }))
		e.Announce(1)
		for {
			e.Yield()
		}
	}, morpheus.Iterations(2), morpheus.MaxSteps(300))
	mustFail(t, res, "liveness", "no progress in 300 steps:\n  monitor m is hot")
}

// checkPositive is a test helper: its failures point at its caller.
func checkPositive(e *morpheus.Env, v int) {
	e.Helper()
	e.Assert(v > 0, "%d is not positive", v)
}

func TestHelperLocation(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		checkPositive(e, 1)
		checkPositive(e, -1) // the reported line
	}, morpheus.Iterations(1))
	f := mustFail(t, res, "assertion", "-1 is not positive")
	src, err := os.ReadFile("spec_test.go")
	if err != nil {
		t.Fatal(err)
	}
	line := 1 + strings.Count(string(src[:strings.Index(string(src), "// the reported line")]), "\n")
	if want := fmt.Sprintf("spec_test.go:%d", line); f.Location != want {
		t.Fatalf("location %q, want %q", f.Location, want)
	}
}
