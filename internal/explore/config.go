package explore

import (
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/strategy"
)

// Config is what an exploration runs with. Package morpheus fills it from
// its options, the MORPHEUS_* variables and the -morpheus.* flags, and
// documents each setting (morpheus.Option).
type Config struct {
	Name        string
	Iterations  int // 0: unlimited
	Duration    time.Duration
	Scaled      Scaled                   // a Duration budget scaled by the first iteration
	TimeLimit   time.Duration            // the run's wall-clock bound: the iteration running then is cut (0: none)
	Strategy    string                   // the strategy's name
	NewStrategy func() strategy.Strategy // a user's strategy, or nil: parse Strategy
	Seed        uint64                   // 0: derived from Name
	Workers     int
	MaxSteps    int
	ClockLimit  time.Duration
	Watchdog    time.Duration
	Replay      string                          // a trace file to replay instead of exploring
	CATable     string                          // conflict table file, read before and merged into after
	Hit         func(kind, message string) bool // count hits and keep going
	Shrink      int                             // candidate runs to shrink a failure with; 0 off
	ShrinkTime  time.Duration                   // wall-clock budget of shrinking
	ShrinkSet   bool                            // Shrink was given explicitly
	Shard       Shard                           // the part of the iterations this process runs
	Results     string                          // file that each run appends its result to
	Progress    string                          // file that each run appends progress lines to
	Heartbeat   bool                            // the progress lines are a rewritten test's (results.Progress.Heartbeat)
	Coverage    int                             // count partial orders: 1 on, -1 off, 0 with a results or progress file
	AllowLeaks  bool
	AllowRaces  bool
	Early       int       // early timer firings per iteration; negative: the portfolio (early.go)
	Epoch       time.Time // where the virtual clock starts (zero: core.DefaultEpoch)
	Verbose     int       // how much morpheus.Check logs: 0 failures, 1 summaries, 2 whole traces
}

// counting reports whether the run counts distinct partial orders.
func (c *Config) counting() bool {
	if c.Coverage != 0 {
		return c.Coverage > 0
	}
	return c.Results != "" || c.Progress != ""
}

// core returns the core configuration of one iteration.
func (c *Config) core(s strategy.Strategy, seed uint64, maxSteps int, clockLimit int64) core.Config {
	return core.Config{
		Strategy: s, Seed: seed, MaxSteps: maxSteps, ClockLimit: clockLimit,
		AllowLeaks: c.AllowLeaks, AllowRaces: c.AllowRaces, EarlyTimers: max(c.Early, 0),
		Epoch: c.Epoch,
	}
}

// Scaled is a wall-clock budget scaled by the run's own first iteration:
// the run is capped at max(Floor, Factor × the time the first iteration
// took), and an iteration starts only if, taking the mean time of the
// iterations so far, it ends within the cap (budget.over). A zero Factor
// is none. Only how many iterations run depends on it, never what an
// iteration does.
type Scaled struct {
	Floor  time.Duration
	Factor float64
}

// limit is the budget once the first iteration took first.
func (s Scaled) limit(first time.Duration) time.Duration {
	return max(s.Floor, time.Duration(s.Factor*float64(first)))
}
