package rt

import (
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/internal/interrupt"
)

// RealTest runs a test that reaches the real network (net/http's servers
// and clients, httptest, net/rpc, crypto/tls, or a net function whose
// concrete result the rewriter cannot replace) as go test runs it: once,
// in the first test process only, on the real network and real time, with
// no schedule under control; why names what it reaches, at its line, and
// the test's log says so once. Its network is all real: rewritten dials
// and listens outside a schedule use the real network too. Its result is
// reported as a test's (Result.Real), its failure with the test's own
// output.
func RealTest(t *testing.T, why string, body func(t *testing.T)) {
	t.Helper()
	testBegins()
	if interrupt.Interrupted() {
		report(t, &Result{Test: t.Name(), Interrupted: true, Stopped: StopInterrupted})
		t.Skip("morpheus: not run: the test process was interrupted")
	}
	if h, err := historyPlan(); err == nil && h != nil {
		historyReal(t, h, why, body)
		return
	}
	if k, _, _ := processShard(); k != 0 {
		// The record says what the test is, so that the driver knows it
		// has every process's word on it; the first process runs it.
		report(t, &Result{Test: t.Name(), Real: why})
		t.Skip("morpheus: runs on the real network, in the first test process only")
	}
	t.Logf("morpheus: runs once on the real network and real time, not under control: %s", why)
	out := Result{Test: t.Name(), Schedules: 1, Real: why}
	start := time.Now()
	defer func() {
		out.Nanos = int64(time.Since(start))
		switch {
		case t.Failed():
			out.Kind = "real"
			out.Failure = "morpheus: " + t.Name() + " failed on the real network, not under control (" + why + "); its output:"
		case t.Skipped():
			out.Skipped = true
		}
		ranReal(t.Name(), why)
		report(t, &out)
	}()
	runReal(t, body)
}

// runReal runs body, a test that reaches the real network, on the real
// network and real time.
func runReal(t *testing.T, body func(t *testing.T)) {
	t.Helper()
	// The goroutines it starts are its own until it is over, its cleanups
	// done (this one, registered first, runs last): then they are left
	// behind (leftbehind.go).
	t.Cleanup(beginReal())
	realClock.Add(1) // time.Now is the machine's while it runs (outside.go)
	defer realClock.Add(-1)
	body(t)
}
