package morpheus

import (
	"fmt"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/internal/interrupt"
	"github.com/morpheus-go/morpheus/internal/plural"
)

// interruptGrace is how long an interrupted exploration waits for its
// running iterations before it abandons them.
var interruptGrace = 2 * time.Second

// halt stops the exploration on an interrupt, as a spent time budget does:
// no iteration starts any more, and workers waiting for an epoch wake up.
func (x *explorer) halt() {
	x.halted.Store(true)
	if x.learn != nil {
		x.learn.wake()
	}
}

// await waits until every worker has finished or was abandoned. On an
// interrupt it halts the exploration, and abandons the iterations still
// running interruptGrace later: each ends at its next op, uncounted.
func (x *explorer) await(finished chan struct{}, states []*workerState) {
	stop := interrupt.Done()
	var grace <-chan time.Time
	for left := len(states); left > 0; {
		select {
		case <-finished:
			left--
		case <-stop:
			stop = nil
			x.halt()
			grace = time.After(interruptGrace)
		case <-grace:
			grace = nil
			for _, ws := range states {
				ws.w.Abandon()
				ws.once.Do(func() { finished <- struct{}{} })
			}
		}
	}
}

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
	if c.iterations > 0 {
		planned = fmt.Sprint(c.iterations)
	}
	msg := fmt.Sprintf("morpheus: interrupted after %s (of %s planned), %s, %d failing, in %v (strategy %s, seed %#x)",
		plural.N(res.Iterations, "iteration"), planned, plural.N(res.Steps, "step"), res.Failures, res.Elapsed.Round(time.Millisecond), res.Strategy, res.Seed)
	if res.Failure != nil {
		t.Logf("%s; the failure above was found before the interrupt (not shrunk)", msg)
		return
	}
	t.Errorf("%s; no failure found so far: the run is incomplete", msg)
}
