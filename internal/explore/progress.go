package explore

import (
	"time"

	"github.com/morpheus-go/morpheus/internal/results"
)

// progress appends a Check's progress lines to a file (-morpheus.progress,
// MORPHEUS_PROGRESS), for the morpheus command's progress line. Lines are
// written every so many iterations, and when an iteration ends
// progressInterval or more after the last line; never on a timer, and the
// clock is read for the display only: reporting must not influence what
// iterations do. Errors are ignored: progress is a courtesy.
type progress struct {
	start time.Time // for the rate the display shows, never for a decision
	last  time.Time // when the last line was written
	path  string
	every int
	line  results.Progress
}

// progressInterval is the longest time between two progress lines of a run
// whose iterations end, so that a run with a slow or unlimited count (where
// every is 64) still shows it is alive.
const progressInterval = 2 * time.Second

func newProgress(c *Config) *progress {
	every := 64
	if c.Iterations > 0 {
		every = max(c.Iterations/200, 1)
	}
	now := time.Now()
	return &progress{start: now, last: now, path: c.Progress, every: every, line: results.Progress{
		Test: c.Name, Package: packagePath(), Shard: c.Shard.String(), Planned: c.Shard.share(c.Iterations), Heartbeat: c.Heartbeat,
	}}
}

// update writes a line every p.every iterations; x.mu is held.
func (p *progress) update(x *explorer) {
	if p == nil {
		return
	}
	now := time.Now()
	if x.done%p.every != 0 && now.Sub(p.last) < progressInterval {
		return
	}
	p.last = now
	p.line.Iterations, p.line.Failures, p.line.Steps = x.done, x.failures, x.steps
	p.line.PartialOrders = len(x.orders)
	p.line.ElapsedNS = int64(time.Since(p.start))
	_ = results.Append(p.path, &p.line)
}

// finish writes the run's last line.
func (p *progress) finish(res *Result) {
	if p == nil {
		return
	}
	p.line.Iterations, p.line.Failures, p.line.Steps = res.Iterations, res.Failures, res.Steps
	p.line.PartialOrders, p.line.Done, p.line.Interrupted = res.PartialOrders, true, res.Interrupted
	p.line.ElapsedNS = int64(res.Elapsed)
	if res.Failure != nil && p.line.Failures == 0 {
		p.line.Failures = 1
	}
	_ = results.Append(p.path, &p.line)
}
