package explore

import (
	"sync/atomic"
	"time"
)

// BudgetNow is the clock of the Duration budget. Only how many iterations
// start depends on it, never what an iteration does; tests replace it to end
// a budget at a moment they choose.
var BudgetNow = time.Now

// Why a run stopped (Result.Stopped).
const (
	StopFailure     = "failure"          // an iteration failed
	StopExhausted   = "exhausted"        // a systematic strategy explored every schedule
	StopInterrupted = "interrupted"      // a SIGINT or SIGTERM
	StopTime        = "budget-time"      // the Duration or Scaled budget was spent
	StopIterations  = "budget-schedules" // the iterations asked for ran
)

// budget holds the moments after which no iteration starts: the
// Duration's (an iteration starts while it has not passed) and, once the
// first iteration has ended, the Scaled budget's, which is a cap on the
// whole run: an iteration starts only if, taking as long as the run's
// iterations so far took on average, it ends by then. So a run under a
// Scaled budget of factor k takes about k times its first iteration, not
// up to an iteration more (a slow test whose iteration takes a second ran
// four under a budget of three seconds). Times are BudgetNow's nanoseconds;
// 0: none.
type budget struct {
	start    time.Time
	deadline atomic.Int64 // the Duration's
	scaledAt atomic.Int64 // the Scaled budget's
	scaled   atomic.Bool  // the first iteration set the Scaled budget
	spent    atomic.Bool  // an iteration did not start because of either
	ran      atomic.Int64 // iterations timed (Scaled): how many
	took     atomic.Int64 // and their total time (ns)
}

func (b *budget) init(c *Config) {
	if c.Duration <= 0 && c.Scaled.Factor <= 0 {
		return
	}
	b.start = BudgetNow()
	if c.Duration > 0 {
		b.deadline.Store(b.start.Add(c.Duration).UnixNano())
	}
}

// timing reports whether iterations are timed: under a Scaled budget.
func (b *budget) timing(s Scaled) bool { return s.Factor > 0 }

// ended records an iteration that took d; the first to end sets the
// Scaled budget.
func (b *budget) ended(s Scaled, d time.Duration) {
	if s.Factor <= 0 {
		return
	}
	b.took.Add(int64(d))
	b.ran.Add(1)
	if b.scaled.CompareAndSwap(false, true) {
		b.scaledAt.Store(b.start.Add(s.limit(d)).UnixNano())
	}
}

// over reports whether the budget is spent, and remembers that it was.
func (b *budget) over() bool {
	if b.deadline.Load() == 0 && b.scaledAt.Load() == 0 {
		return false
	}
	now := BudgetNow().UnixNano()
	if at := b.deadline.Load(); at != 0 && now > at {
		b.spent.Store(true)
		return true
	}
	if at := b.scaledAt.Load(); at != 0 {
		var mean int64
		if n := b.ran.Load(); n > 0 {
			mean = b.took.Load() / n
		}
		if now+mean > at {
			b.spent.Store(true)
			return true
		}
	}
	return false
}
