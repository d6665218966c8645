package morpheus

import (
	"fmt"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/internal/interrupt"
	"github.com/morpheus-go/morpheus/internal/plural"
)

// skipInterrupted skips a Check that starts after the test process was
// interrupted: the user asked it to stop.
func skipInterrupted(t testing.TB) {
	t.Helper()
	if interrupt.Interrupted() {
		t.Skip("morpheus: not run: the test process was interrupted")
	}
}

// reportInterrupted says what an interrupted Check did; without a failure
// it fails t, since the run is incomplete.
func reportInterrupted(t testing.TB, c *config, res *Result) {
	t.Helper()
	planned := "unlimited"
	if c.Iterations > 0 {
		planned = fmt.Sprint(c.Iterations)
	}
	msg := fmt.Sprintf("morpheus: interrupted after %s (of %s planned), %s in all, %d failing, in %v (strategy %s, seed %#x)",
		plural.N(res.Iterations, "iteration"), planned, plural.N(res.Steps, "step"), res.run.Failures, res.Elapsed.Round(time.Millisecond), res.Strategy, res.Seed)
	if res.Failure != nil {
		t.Logf("%s; the failure above was found before the interrupt (not shrunk)", msg)
		return
	}
	t.Errorf("%s; no failure found so far: the run is incomplete", msg)
}
