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

// budget holds the moments after which no iteration starts. The
// Duration's is a plain deadline: an iteration starts while it has not
// passed. The Scaled budget's, set once the first iteration has ended, and
// the TimeLimit's are caps on the whole run: an iteration starts only if,
// taking as long as the run's iterations so far took on average, it ends
// by the earlier of them. So a run under a Scaled budget of factor k takes
// about k times its first iteration, not up to an iteration more (a slow
// test whose iteration takes a second ran four under a budget of three
// seconds). The TimeLimit is harder still: at it the iteration running is
// cut (cutOff). Times are BudgetNow's nanoseconds; 0: none.
type budget struct {
	start    time.Time
	limit    time.Duration // TimeLimit
	deadline atomic.Int64  // the Duration's, or the moment of a cut
	capAt    atomic.Int64  // the Scaled budget's and the TimeLimit's, the earlier
	scaled   atomic.Bool   // the first iteration set the caps
	spent    atomic.Bool   // an iteration did not start because of the budget
	cut      atomic.Bool   // the TimeLimit (or the HeapLimit under it) cut an iteration
	ran      atomic.Int64  // iterations timed: how many
	took     atomic.Int64  // and their total time (ns)
}

func (b *budget) init(c *Config) {
	if c.Duration <= 0 && c.Scaled.Factor <= 0 && c.TimeLimit <= 0 {
		return
	}
	b.start, b.limit = BudgetNow(), c.TimeLimit
	if c.Duration > 0 {
		b.deadline.Store(b.start.Add(c.Duration).UnixNano())
	}
}

// lowerMoment moves the moment in v (0: none) to at, unless it is earlier.
func lowerMoment(v *atomic.Int64, at int64) {
	for {
		old := v.Load()
		if old != 0 && old <= at || v.CompareAndSwap(old, at) {
			return
		}
	}
}

// cutOff ends the budget at once: the TimeLimit came during an iteration.
func (b *budget) cutOff() {
	b.cut.Store(true)
	lowerMoment(&b.deadline, BudgetNow().UnixNano()-1)
}

// timing reports whether iterations are timed: under a Scaled budget or a
// TimeLimit.
func (b *budget) timing(s Scaled) bool { return s.Factor > 0 || b.limit > 0 }

// ended records an iteration that took d; the first to end sets the caps.
func (b *budget) ended(s Scaled, d time.Duration) {
	if !b.timing(s) {
		return
	}
	b.took.Add(int64(d))
	b.ran.Add(1)
	if !b.scaled.CompareAndSwap(false, true) {
		return
	}
	if s.Factor > 0 {
		lowerMoment(&b.capAt, b.start.Add(s.limit(d)).UnixNano())
	}
	if b.limit > 0 {
		lowerMoment(&b.capAt, b.start.Add(b.limit).UnixNano())
	}
}

// over reports whether the budget is spent, and remembers that it was.
func (b *budget) over() bool {
	now := BudgetNow().UnixNano()
	if at := b.deadline.Load(); at != 0 && now > at {
		b.spent.Store(true)
		return true
	}
	if at := b.capAt.Load(); at != 0 {
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
