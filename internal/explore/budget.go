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
	StopCut         = "budget-cut"       // the TimeLimit came during an iteration, which was cut
)

// budget is the moment, in BudgetNow's nanoseconds, after which no
// iteration starts: the Duration's and, once the first iteration has
// ended, the Scaled budget's, whichever comes first (0: none). The
// TimeLimit is harder: at it the iteration running is cut (cutOff), and
// once the first iteration has ended, none starts that, taking as long as
// it, would run past the limit.
type budget struct {
	start    time.Time
	limit    time.Duration // TimeLimit
	deadline atomic.Int64
	scaled   atomic.Bool // the first iteration set the Scaled budget
	spent    atomic.Bool // an iteration did not start because of it
	cut      atomic.Bool // the TimeLimit cut an iteration
}

func (b *budget) init(c *Config) {
	if c.Duration <= 0 && c.Scaled.Factor <= 0 && c.TimeLimit <= 0 {
		return
	}
	b.start, b.limit = BudgetNow(), c.TimeLimit
	if c.Duration > 0 {
		b.deadline.Store(b.start.Add(c.Duration).UnixNano())
	}
	if c.TimeLimit > 0 {
		b.lower(b.start.Add(c.TimeLimit).UnixNano())
	}
}

// lower moves the deadline to at, unless it is earlier.
func (b *budget) lower(at int64) {
	for {
		old := b.deadline.Load()
		if old != 0 && old <= at || b.deadline.CompareAndSwap(old, at) {
			return
		}
	}
}

// cutOff ends the budget at once: the TimeLimit came during an iteration.
func (b *budget) cutOff() {
	b.cut.Store(true)
	b.lower(BudgetNow().UnixNano() - 1)
}

// timing reports whether the next iteration's time is wanted: the Scaled
// budget's or the TimeLimit's, until the first iteration has set it.
func (b *budget) timing(s Scaled) bool { return (s.Factor > 0 || b.limit > 0) && !b.scaled.Load() }

// first sets the Scaled budget from the first iteration to end, which took
// d, and keeps iterations that would likely run past the TimeLimit from
// starting.
func (b *budget) first(s Scaled, d time.Duration) {
	if (s.Factor <= 0 && b.limit <= 0) || !b.scaled.CompareAndSwap(false, true) {
		return
	}
	if s.Factor > 0 {
		b.lower(b.start.Add(s.limit(d)).UnixNano())
	}
	if b.limit > 0 {
		b.lower(b.start.Add(b.limit - d).UnixNano())
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
