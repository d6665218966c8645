package morpheus

import (
	"time"

	"github.com/morpheus-go/morpheus/internal/results"
)

// progress appends a Check's progress lines to a file (-morpheus.progress,
// MORPHEUS_PROGRESS), for the morpheus command's progress line. Lines are
// written every so many iterations, never on a timer: reporting must not
// influence what iterations do. Errors are ignored: progress is a courtesy.
type progress struct {
	start time.Time // for the rate the display shows, never for a decision
	path  string
	every int
	line  results.Progress
}

func newProgress(c *config) *progress {
	every := 64
	if c.iterations > 0 {
		every = max(c.iterations/200, 1)
	}
	return &progress{start: time.Now(), path: c.progress, every: every, line: results.Progress{
		Test: c.name, Shard: c.shard.String(), Planned: c.iterations,
	}}
}

// update writes a line every p.every iterations; x.mu is held.
func (p *progress) update(x *explorer) {
	if p == nil || x.done%p.every != 0 {
		return
	}
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
	p.line.PartialOrders, p.line.Done = res.PartialOrders, true
	p.line.ElapsedNS = int64(res.Elapsed)
	if res.Failure != nil && p.line.Failures == 0 {
		p.line.Failures = 1
	}
	_ = results.Append(p.path, &p.line)
}
