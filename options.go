package morpheus

import (
	"fmt"
	"reflect"
	"runtime"
	"time"

	"github.com/morpheus-go/morpheus/internal/explore"
	"github.com/morpheus-go/morpheus/strategy"
)

// Option configures Check and Explore.
//
// Settings come, from weakest to strongest, from the defaults, the options
// passed in code, the MORPHEUS_* environment variables, and the -morpheus.*
// flags of the test binary: a command line always has the last word.
type Option func(*config)

// config is what Check and Explore run with: the driver's settings, and
// what only Check reads. It is the driver's own type, so that the runtime
// (package rt) and the benchmarks make options of settings the API does not
// export (internal/explore's CountHits, KeepResult).
type config = explore.Config

// Defaults.
const (
	DefaultIterations = 1000
	DefaultStrategy   = "pos+ca"
	DefaultWatchdog   = 5 * time.Second
)

func defaultConfig() *config {
	return &config{
		Iterations: DefaultIterations,
		Strategy:   DefaultStrategy,
		Workers:    runtime.GOMAXPROCS(0),
		Watchdog:   DefaultWatchdog,
		Shrink:     DefaultShrink,
		ShrinkTime: DefaultShrinkTime,
	}
}

// Iterations sets how many iterations to run (default 1000); 0 means
// unlimited: the run goes on until a failure, a Duration budget, or an
// interrupt (^C, see Explore). With Duration as well, the run stops at
// whichever limit comes first.
func Iterations(n int) Option { return func(c *config) { c.Iterations = n } }

// Duration sets a wall-clock budget; iterations start until it is spent.
// Only how many iterations run depends on it, never what an iteration does.
func Duration(d time.Duration) Option { return func(c *config) { c.Duration = d } }

// ScaledDuration sets a wall-clock budget scaled by the run's own first
// iteration: the run takes at most max(floor, factor × the first
// iteration's time), an iteration starting only if, as long as the mean of
// those before, it ends within that; so a test whose iteration is slow gets
// fewer of them. With Duration or Iterations as well, the run stops at whichever
// limit comes first. Only how many iterations run depends on it, never what
// an iteration does. morpheus test gives each rewritten test such a budget
// by default (rt.DefaultBudget).
func ScaledDuration(floor time.Duration, factor float64) Option {
	return func(c *config) { c.Scaled = explore.Scaled{Floor: floor, Factor: factor} }
}

// TimeLimit bounds the run's wall-clock time, iterations included: at d the
// iteration running is cut (it ends at its next op, its goroutines
// unwound) and counts neither as passed nor as failed, no other iteration
// starts, and the result says Stopped "budget-cut". Once the first
// iteration has ended, one that would likely run past d (taking as long as
// the first) does not start. Under a TimeLimit, iterations are also cut
// once the process's heap has grown by 2 GiB since the run began (a
// schedule of endless timer heartbeats keeps every step; it would take the
// machine's memory before the limit); meanwhile Go's soft memory limit
// (debug.SetMemoryLimit) is the memory in use when the run began plus
// 2.5 GiB, so the collector keeps the process near the heap it holds rather
// than let the heap double, and is restored after the run (a lower one, as
// GOMEMLIMIT sets, stays). For tests whose single iteration can
// take minutes: they end within d with the iterations that completed. Only how
// many iterations run and whether the last completes depend on it, never
// what an iteration does; a cut iteration reports no failure.
func TimeLimit(d time.Duration) Option { return func(c *config) { c.TimeLimit = d } }

// Strategy selects the exploration strategy: by name, as on the command line
// ("random", "pos", "pct:3", "pos+ca", ...; see package strategy), or with a
// function that returns a new instance of a strategy of your own. Each
// worker calls it once and runs its iterations with its own instance, so the
// instances must share nothing mutable; a strategy.Learner learns across
// iterations in the same deterministic epochs as conflict analysis. Wrap
// yours with strategy.WithCA to add conflict analysis. The -morpheus.strategy
// flag and MORPHEUS_STRATEGY still override it by name.
func Strategy[S ~string | func() strategy.Strategy](s S) Option {
	switch v := any(s).(type) {
	case func() strategy.Strategy:
		return func(c *config) { c.Strategy, c.NewStrategy = "", v }
	default:
		name := reflect.ValueOf(s).String() // S is a string type
		return func(c *config) { c.Strategy, c.NewStrategy = name, nil }
	}
}

// Seed sets the base seed. Iteration i runs with a seed derived from the base
// seed and i alone, so results do not depend on the number of workers. The
// default base seed is derived from the test's name: plain go test runs are
// reproducible. Set the flag -morpheus.seed=random for a fresh one.
func Seed(s uint64) Option { return func(c *config) { c.Seed = s } }

// Workers sets how many iterations run in parallel (default GOMAXPROCS).
func Workers(n int) Option { return func(c *config) { c.Workers = n } }

// MaxSteps sets the step limit of an iteration (default 100,000). The
// strategy schedules the first tenth of it; a fair random walk the rest,
// and an iteration that needs more runs on, on the walk, to ten times the
// limit, where it fails with a step-limit failure that says whether tasks
// kept each other busy (a livelock) or one ran alone (a loop that does not
// end); a task that ran alone there without polling (a long computation),
// tasks that each stored there without polling or waking each other back
// and forth (a computation side by side), or tasks that keep coming to rest
// on timers, run on to a hundred times the limit first. See Fairness in the package
// documentation.
func MaxSteps(n int) Option { return func(c *config) { c.MaxSteps = n } }

// ClockLimit sets the virtual time limit of an iteration (default 10
// minutes): timers beyond it never fire, and an iteration whose main task
// still waits then fails as stuck (clock-limit).
func ClockLimit(d time.Duration) Option { return func(c *config) { c.ClockLimit = d } }

// Watchdog sets the wall-clock time a task may run without coming back to the
// scheduler (default 5 s) before it is reported as blocked on something
// morpheus does not control.
func Watchdog(d time.Duration) Option { return func(c *config) { c.Watchdog = d } }

// Replay runs the single iteration recorded in a trace file, strictly: a run
// that leaves the recorded schedule fails, with a stale-trace failure that
// names the file and where the run leaves it when the trace was recorded on
// different code (the test follows a schedule it has just run), with a
// nondeterminism failure when the test leaves even that.
func Replay(path string) Option { return func(c *config) { c.Replay = path } }

// Verbose sets how much Check logs: 0 only failures, 1 a summary line per
// run, 2 also the whole trace of a failure.
func Verbose(level int) Option { return func(c *config) { c.Verbose = level } }

// CATable names a file that keeps conflict analysis's table across runs:
// strategies with "+ca" start from what it holds, and what they learn is
// merged into it at the end (also across shards and machines that share it).
func CATable(path string) Option { return func(c *config) { c.CATable = path } }

// Name sets the test name recorded in traces (Check uses the test's name).
func Name(name string) Option { return func(c *config) { c.Name = name } }

// Shrink sets how many candidate schedules shrinking may run to simplify a
// reported failure (default 200; 0 turns shrinking off). A candidate counts
// as one per 2,500 steps it ran (ShrinkStepUnit), so a long failing run
// gets fewer candidates, each as long. Explore and Check
// shrink the failure they report; a replay (Replay) and a benchmark's count
// of hits shrink only when this option (or -morpheus.shrink) asks. See ShrinkStats.
func Shrink(candidates int) Option {
	return func(c *config) { c.Shrink, c.ShrinkSet = candidates, true }
}

// ShrinkTime sets the wall-clock budget of shrinking one failure (default
// 10 s). Shrinking is deterministic unless this budget ends it early, which
// Failure.Shrink.TimedOut reports.
func ShrinkTime(d time.Duration) Option { return func(c *config) { c.ShrinkTime = d } }

// Coverage turns counting distinct partial orders (Result.PartialOrders, the
// coverage curve) on or off. By default it is on when a result or progress
// file is written (-morpheus.results, -morpheus.progress: morpheus test does),
// and off otherwise: it costs a happens-before pass over every iteration's
// trace, about as much again as running a small test (BENCHMARKS.md).
func Coverage(on bool) Option {
	return func(c *config) {
		c.Coverage = -1
		if on {
			c.Coverage = 1
		}
	}
}

// AllowLeaks turns leak detection off (it is on by default). With it on, a
// goroutine started with csync.Go (or a go statement of a rewritten test)
// that is still blocked when the test function has returned and nothing can
// run any more fails the iteration with a leak failure, which names each such
// goroutine, what it waits on and where it was started. Timers fire first:
// a goroutine that would end after a sleep or a time-out is no leak, one
// still waiting at the clock limit (or running at the step limit) is. Actor
// processes are servers and never leak. Allow leaks in a test that knowingly
// leaves workers parked, and say why.
func AllowLeaks(allow bool) Option { return func(c *config) { c.AllowLeaks = allow } }

// AllowRaces turns the data-race check off (it is on by default). Plain
// memory accesses of rewritten code (package rt, morpheus test) are ops of
// the scheduler; with the check on, two accesses of different goroutines to
// one location, at least one a write, that no synchronisation of morpheus
// orders (channels, locks, WaitGroup, Once, Cond, atomics, goroutine starts,
// context cancellation, timers) fail the iteration with a race failure
// naming both accesses, whichever came first in the schedule. With
// AllowRaces the accesses stay scheduling points: a test that races on
// purpose still has its interleavings explored, and fails only on what its
// own checks see.
func AllowRaces(allow bool) Option { return func(c *config) { c.AllowRaces = allow } }

// EarlyTimers lets the strategy fire the nearest timer, sleep or time-out up
// to k times per iteration while other tasks can still run (default 0). The
// virtual clock moves only when nothing can run, so without it a timer never
// fires while work is pending, as if computation took no time, and bugs that
// need a slow goroutine (an AfterFunc that takes a lock its owner still
// wants, a Sleep that ends before the goroutines it waits for) never show.
// Each early firing moves the clock to that deadline and is a step of the
// trace; only the nearest deadline is offered, so timers keep their order,
// and only if it is at most a millisecond ahead of the clock: a slow machine
// delays a goroutine by that much, and a deadline further ahead is a
// time-out the program means (a test's own one-second watchdog), which an
// early firing would turn into a failure of the test's own making. It is
// offered once the steps run since its timer was set (and since the clock
// last moved) would take the time left at a microsecond a step: a goroutine
// is delayed by other work, not by nothing.
// A negative k mixes: iterations by index fire early never, up to twice or
// up to 24 times (the portfolio; a failure's trace records its iteration's
// firings, which its replay applies). Rewritten tests (morpheus test) use
// rt.DefaultEarlyTimers.
func EarlyTimers(k int) Option { return func(c *config) { c.Early = k } }

// Epoch sets the instant every iteration's virtual clock starts at (default
// 2000-01-01 00:00:00 UTC, where a testing/synctest bubble's starts). Code
// that works out dates from the clock (a cron schedule, an expiry at the
// end of the month) may behave differently near the default, at the first
// second of a year; Epoch moves the start elsewhere. It is recorded in the
// traces of failures, whose replays start there whatever the replay is
// given. The zero time is the default.
func Epoch(t time.Time) Option { return func(c *config) { c.Epoch = t } }

// ParseEpoch reads an epoch as the -epoch flags give it: an RFC 3339 time,
// such as 2030-06-01T12:00:00Z or 2030-06-01T14:00:00+02:00.
func ParseEpoch(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is no RFC 3339 time (want one such as 2030-06-01T12:00:00Z)", s)
	}
	return t, nil
}
