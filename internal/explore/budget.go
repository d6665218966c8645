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

// budget is the moment, in BudgetNow's nanoseconds, after which no
// iteration starts: the Duration's and, once the first iteration has
// ended, the Scaled budget's, whichever comes first (0: none).
type budget struct {
	start    time.Time
	deadline atomic.Int64
	scaled   atomic.Bool // the first iteration set the Scaled budget
	spent    atomic.Bool // an iteration did not start because of it
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

// timing reports whether the next iteration's time is wanted: the Scaled
// budget's, until the first iteration has set it.
func (b *budget) timing(s Scaled) bool { return s.Factor > 0 && !b.scaled.Load() }

// first sets the Scaled budget from the first iteration to end, which took d.
func (b *budget) first(s Scaled, d time.Duration) {
	if s.Factor <= 0 || !b.scaled.CompareAndSwap(false, true) {
		return
	}
	at := b.start.Add(s.limit(d)).UnixNano()
	for {
		old := b.deadline.Load()
		if old != 0 && old <= at || b.deadline.CompareAndSwap(old, at) {
			return
		}
	}
}

// over reports whether the budget is spent, and remembers that it was.
func (b *budget) over() bool {
	at := b.deadline.Load()
	if at == 0 || BudgetNow().UnixNano() <= at {
		return false
	}
	b.spent.Store(true)
	return true
}
