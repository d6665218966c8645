package explore

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/internal/interrupt"
	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// Result is the outcome of an exploration or a replay. Package morpheus
// documents its fields (morpheus.Result), and converts it.
type Result struct {
	Test       string
	Strategy   string
	Seed       uint64
	Iterations int
	Steps      int64
	Elapsed    time.Duration
	Failure    *Failure
	Exhausted  bool
	Diverged   string
	Failures   int
	Hits       int
	CA         *strategy.CAStats
	// PartialOrders and Coverage count distinct partial orders below the
	// reported failure (see coverage).
	PartialOrders int
	Coverage      []CoveragePoint
	Shard         string
	Interrupted   bool
	Stopped       string // why no more iterations ran: StopFailure, StopTime, …

	Orders map[uint64]int  // partial order -> lowest iteration that ran it
	Table  *strategy.Table // what conflict analysis learned, nil without +ca
	Limit  int             // iterations below this count in the coverage
	Stale  []string        // Check's corpus entries recorded on different code
}

// Run explores prog as c says (or replays c.Replay) and shrinks the failure
// it reports, as c says.
func Run(c *Config, prog Program) (*Result, error) {
	if err := NameStrategy(c); err != nil {
		return nil, err
	}
	if c.Replay != "" {
		if tr, err := ReadTrace(c.Replay); err == nil {
			c = withOptions(c, tr) // shrinking runs with the trace's settings too
		}
	}
	res, err := exploreOrReplay(c, prog)
	if err == nil && res.Failure != nil && !res.Interrupted && c.Shrink > 0 && (c.ShrinkSet || c.Replay == "" && c.Hit == nil) {
		res.Failure = shrinkFailure(c, prog, res.Failure)
	}
	return res, err
}

// SeedFor derives iteration i's seed from the base seed.
func SeedFor(base uint64, i int) uint64 { return core.Mix(base ^ core.Mix(uint64(i)+1)) }

// BaseSeed returns the configured base seed, or one derived from the name.
func BaseSeed(c *Config) uint64 {
	if c.Seed != 0 {
		return c.Seed
	}
	return core.NameKey("morpheus-seed", c.Name)
}

// NameStrategy names a user's strategy (Config.NewStrategy) after what it
// says its name is, for results, traces and reports.
func NameStrategy(c *Config) error {
	if c.NewStrategy == nil || c.Strategy != "" {
		return nil // a built-in strategy, or named already (Check names it first)
	}
	s, err := NewStrategy(c)
	if err != nil {
		return err
	}
	c.Strategy = s.Name()
	return nil
}

// NewStrategy builds one worker's strategy.
func NewStrategy(c *Config) (strategy.Strategy, error) {
	if c.NewStrategy == nil {
		return strategy.Parse(c.Strategy)
	}
	s := c.NewStrategy()
	if s == nil {
		return nil, fmt.Errorf("morpheus: the Strategy function returned nil")
	}
	return s, nil
}

func exploreOrReplay(c *Config, prog Program) (*Result, error) {
	if c.Replay != "" {
		return ReplayFile(c, prog, c.Replay, nil)
	}
	if _, err := NewStrategy(c); err != nil {
		return nil, err
	}
	x := &explorer{c: c, prog: prog, base: BaseSeed(c)}
	if l, ok := strategy.AsLearner(mustStrategy(c)); ok {
		prior := l.Prior()
		if t := conflictTable(prior); t != nil && c.CATable != "" {
			saved, err := loadTable(c.CATable)
			if err != nil {
				return nil, err
			}
			t.Merge(saved)
		}
		x.learn = newLearner(prior)
	}
	x.stopAt.Store(math.MaxInt64)
	if c.Iterations > 0 { // 0: unlimited
		x.stopAt.Store(int64(c.Iterations))
	}
	if c.counting() {
		x.orders = make(map[uint64]int)
	}
	if c.Progress != "" {
		x.progress = newProgress(c)
	}
	x.budget.init(c)
	return x.run()
}

// explorer runs the iterations of one Explore on several workers.
type explorer struct {
	c      *Config
	prog   Program
	base   uint64
	budget budget

	next   atomic.Int64 // next iteration to start
	stopAt atomic.Int64 // iterations at or beyond this do not start
	halted atomic.Bool  // interrupted: no iteration starts any more

	learn *learner // epochs of a strategy that learns, or nil

	mu        sync.Mutex
	orders    map[uint64]int // partial order -> lowest iteration that ran it
	progress  *progress      // nil without a progress file
	failure   *Failure
	failures  int
	hits      int
	done      int
	steps     int64
	exhausted bool
}

// workerState is what the explorer knows of one of its workers.
type workerState struct {
	w    *core.Worker
	iter atomic.Int64 // the iteration it runs
	once sync.Once    // reports the worker finished (or abandoned) once
}

func (x *explorer) run() (*Result, error) {
	defer interrupt.Watch()()
	if interrupt.Interrupted() {
		x.halt() // interrupted before: run nothing
	}
	start := time.Now()
	n := max(x.c.Workers, 1)
	if _, ok := strategy.AsExhauster(mustStrategy(x.c)); ok {
		n = 1 // a systematic search is one sequence of schedules
	}
	finished := make(chan struct{}, n)
	states := make([]*workerState, n)
	byWorker := make(map[*core.Worker]*workerState, n)
	for i := range states {
		states[i] = &workerState{w: core.NewWorker()}
		byWorker[states[i].w] = states[i]
	}
	if x.budget.limit > 0 {
		defer x.limitMemory()() // memlimit.go
	}
	wd := core.StartWatchdog(x.c.Watchdog, func(w *core.Worker, s *core.Stuck) {
		ws := byWorker[w]
		x.stuck(int(ws.iter.Load()), s)
		ws.once.Do(func() { finished <- struct{}{} })
	})
	for _, ws := range states {
		wd.Attach(ws.w)
	}
	for _, ws := range states {
		go func() {
			// Deferred: a task's runtime.Goexit ends this goroutine too.
			defer func() {
				// An abandoned worker gets here only once its blocked task
				// came back; its iteration has unwound, and its carriers can go.
				ws.w.Close()
				ws.once.Do(func() { finished <- struct{}{} })
			}()
			x.work(ws)
		}()
	}
	x.await(finished, states)
	wd.Stop()
	x.mu.Lock()
	defer x.mu.Unlock()
	if f := x.failure; f != nil && f.Kind == string(core.Uncontrolled) {
		x.traceStuck(f)
	}
	res := &Result{
		Test: x.c.Name, Strategy: x.c.Strategy, Seed: x.base,
		Iterations: x.done, Steps: x.steps, Elapsed: time.Since(start),
		Failure: x.failure, Exhausted: x.exhausted,
		Failures: x.failures, Hits: x.hits,
		Shard: x.c.Shard.String(), Interrupted: x.halted.Load(),
	}
	res.Stopped = x.stopped(res)
	x.coverage(res)
	x.progress.finish(res)
	if x.learn != nil {
		final := x.learn.final()
		if st := conflictStats(final); st != nil && st.Iterations > 0 {
			res.CA, res.Table = st, conflictTable(final)
			if x.c.CATable != "" {
				if err := saveTable(x.c.CATable, res.Table); err != nil {
					return res, fmt.Errorf("saving the conflict table: %w", err)
				}
			}
		}
	}
	return res, nil
}

func mustStrategy(c *Config) strategy.Strategy {
	s, err := NewStrategy(c)
	if err != nil {
		panic(err) // checked by explore before
	}
	return s
}

// work runs iterations on one worker until there are no more to run.
func (x *explorer) work(ws *workerState) {
	w := ws.w
	strat := mustStrategy(x.c)
	learner, _ := strategy.AsLearner(strat)
	if x.learn == nil {
		learner = nil
	}
	_, systematic := strategy.AsExhauster(strat)
	if learner != nil && systematic {
		// A systematic search replays prefixes: what it reads must not
		// change during the whole search. It reads the prior knowledge.
		k, _ := x.learn.await(0, func() bool { return true })
		learner.Learn(k, true)
	}
	var po trace.Trace // buffers for the partial order of each iteration
	for {
		j := x.next.Add(1) - 1 // this process's j-th iteration: the learner's count
		i := x.c.Shard.iteration(j)
		if x.halted.Load() || x.budget.over() {
			x.stop(i) // iterations from i on will not run: nobody may wait for them
			return
		}
		if i >= x.stopAt.Load() {
			return
		}
		if learner != nil && !systematic {
			k, ok := x.learn.await(int(j), func() bool { return i >= x.stopAt.Load() || x.halted.Load() })
			if !ok {
				return
			}
			learner.Learn(k, x.learnsFrom(j))
		}
		ws.iter.Store(i)
		var began time.Time
		timing := x.budget.timing(x.c.Scaled)
		if timing {
			began = BudgetNow()
		}
		out, env := x.iterationOrGoexit(w, strat, int(i))
		if w.Abandoned() {
			return
		}
		if timing {
			x.budget.ended(x.c.Scaled, BudgetNow().Sub(began))
		}
		if learner != nil {
			x.learn.finish(int(j), learner.Learned())
		}
		if x.orders != nil {
			out.StepTrace(&po)
			x.order(int(i), hb.PartialOrder(&po))
		}
		x.record(int(i), out, env)
		if ex, ok := strategy.AsExhauster(strat); ok && ex.Exhausted() {
			x.mu.Lock()
			x.exhausted = true
			x.mu.Unlock()
			return
		}
	}
}

// stopped says why no more iterations ran.
func (x *explorer) stopped(res *Result) string {
	switch {
	case res.Interrupted:
		return StopInterrupted
	case res.Failure != nil && x.c.Hit == nil:
		return StopFailure
	case res.Exhausted:
		return StopExhausted
	case x.budget.cut.Load():
		return StopCut
	case x.budget.spent.Load():
		return StopTime
	}
	return StopIterations
}

// learnsFrom reports whether what the strategy would learn from this
// process's j-th iteration can be read: by an iteration of a later epoch, or
// in the table file. In the last epoch of a bounded run nothing reads it, and
// the strategy may skip its analysis (conflict analysis's main cost).
func (x *explorer) learnsFrom(j int64) bool {
	c := x.c
	if c.CATable != "" || c.Duration > 0 || c.Iterations <= 0 || c.Shard.N > 1 {
		return true
	}
	return int64(epochStart(epochOf(int(j))+1)) < int64(c.Iterations)
}

// record accounts for iteration i's outcome.
func (x *explorer) record(i int, out core.Outcome, env any) {
	strat := ""
	if out.Failure != nil && out.Wrapped() && x.earliest(i) {
		out, env, strat = x.rebuild(i, out, env)
	}
	x.mu.Lock()
	x.done++
	x.steps += int64(out.Steps)
	if f := out.Failure; f != nil {
		x.failures++
		if x.c.Hit != nil && x.c.Hit(string(f.Kind), f.Message) {
			x.hits++
		}
		if x.failure == nil || i < x.failure.Iteration {
			x.failure = newFailure(x.c, out, env, i, SeedFor(x.base, i))
			if strat != "" {
				x.failure.Trace.Header.Strategy = strat // not the replay's
			}
		}
	}
	x.progress.update(x)
	x.mu.Unlock()
	if out.Failure != nil && x.c.Hit == nil {
		x.stop(int64(i) + 1)
	}
}

// iterationOrGoexit runs iteration i; if a task calls runtime.Goexit, which
// ends the worker's goroutine too, it records the failure on the way out.
func (x *explorer) iterationOrGoexit(w *core.Worker, strat strategy.Strategy, i int) (out core.Outcome, env any) {
	defer func() {
		if g := w.Goexited(); g != nil {
			x.record(i, *g, env)
			x.stop(int64(i) + 1)
		}
	}()
	return x.iteration(w, strat, i, x.c.MaxSteps, x.orders == nil, &env)
}

// iteration runs iteration i on w; *envp is its environment from the moment
// it exists (nil envp: not wanted). With window, a long iteration may drop
// its older events (core.Config.Window): nothing but a failure, whose trace
// rebuild recovers, needs them.
func (x *explorer) iteration(w *core.Worker, strat strategy.Strategy, i, maxSteps int, window bool, envp *any) (core.Outcome, any) {
	var env any
	if envp == nil {
		envp = &env
	}
	cfg := x.c.core(strat, SeedFor(x.base, i), maxSteps, int64(x.c.ClockLimit))
	cfg.Window = window
	cfg.EarlyTimers = x.c.earlyFor(i)
	// The fair tail starts where the exploration's step limit puts it, also
	// in a run stopped earlier (traceStuck): a tenth of the limit.
	limit := x.c.MaxSteps
	if limit <= 0 {
		limit = core.DefaultMaxSteps
	}
	cfg.FairAfter = limit / 10
	if maxSteps > 0 && maxSteps < limit {
		cfg.HardSteps = maxSteps // a run stopped earlier stops there
	}
	out := x.prog.execute(w, cfg, i, envp)
	return out, *envp
}

// lower sets v to min(v, n).
func lower(v *atomic.Int64, n int64) {
	for {
		old := v.Load()
		if n >= old || v.CompareAndSwap(old, n) {
			return
		}
	}
}
