package morpheus

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/interrupt"
	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// Result is the outcome of Explore.
type Result struct {
	Test       string
	Strategy   string
	Seed       uint64 // the base seed
	Iterations int    // iterations that ran to completion
	Steps      int64  // steps over all iterations
	Elapsed    time.Duration
	// Failure is the failure of the lowest-numbered failing iteration, nil if
	// none failed. Which iteration that is does not depend on the number of
	// workers: iterations below it all ran and passed.
	Failure *Failure
	// Exhausted is set when a systematic strategy explored every schedule.
	Exhausted bool
	// Diverged, for a lenient replay, says where the run left the trace.
	Diverged string
	// Failures and Hits count failing iterations, and those that failed as
	// intended, with CountHits.
	Failures, Hits int
	// CA reports how conflict analysis predicted conflicts (strategies with
	// "+ca"): ops, conflicts, false negatives and false positives.
	CA *strategy.CAStats
	// PartialOrders counts the distinct partial orders (trace.PartialOrder)
	// of the iterations, and Coverage samples how that count grew, when the
	// run counts them (see the Coverage option). Both count only iterations
	// below the reported failure, so they do not depend on the number of
	// workers.
	PartialOrders int
	Coverage      []CoveragePoint
	// Shard is the part of the iterations this run ran, "i/N", or "".
	Shard string
	// Interrupted is set when a SIGINT or SIGTERM stopped the run early
	// (see Explore): Iterations counts those that completed, Failure is the
	// lowest failure among them, not shrunk.
	Interrupted bool

	orders map[uint64]int  // partial order -> lowest iteration that ran it
	table  *strategy.Table // what conflict analysis learned, nil without +ca
	limit  int             // iterations below this count in the coverage
	stale  []string        // Check's corpus entries recorded on different code
}

// Explore runs test under the controlled scheduler for the configured number
// of iterations (or time budget) and returns what it found. Unlike Check it
// does not read the corpus, save traces, or read the -morpheus.* flags and
// MORPHEUS_* variables.
//
// While it runs, a SIGINT or SIGTERM stops it gracefully, as a spent time
// budget does: no iteration starts any more, the running ones finish (those
// that do not within a couple of seconds are abandoned and not counted), and
// Explore returns what was done with Result.Interrupted set. A second signal
// exits the process at once (status 130 for SIGINT). The signals' default
// behaviour is back when Explore returns; once interrupted, later
// explorations in the process run no iteration.
func Explore(test func(e *Env), opts ...Option) (*Result, error) {
	c := defaultConfig()
	for _, o := range opts {
		o(c)
	}
	if err := nameStrategy(c); err != nil {
		return nil, err
	}
	return explore(c, test)
}

// nameStrategy names a user's strategy (see Strategy) after what it says its
// name is, for results, traces and reports.
func nameStrategy(c *config) error {
	if c.newStrat == nil {
		return nil
	}
	s, err := newStrategy(c)
	if err != nil {
		return err
	}
	c.strategy = s.Name()
	return nil
}

// seedFor derives iteration i's seed from the base seed.
func seedFor(base uint64, i int) uint64 { return core.Mix(base ^ core.Mix(uint64(i)+1)) }

// baseSeed returns the configured base seed, or one derived from the name.
func baseSeed(c *config) uint64 {
	if c.seed != 0 {
		return c.seed
	}
	return core.NameKey("morpheus-seed", c.name)
}

// newStrategy builds one worker's strategy.
func newStrategy(c *config) (strategy.Strategy, error) {
	if c.newStrat == nil {
		return strategy.Parse(c.strategy)
	}
	s := c.newStrat()
	if s == nil {
		return nil, fmt.Errorf("morpheus: the Strategy function returned nil")
	}
	return s, nil
}

func explore(c *config, test func(*Env)) (*Result, error) {
	res, err := exploreOrReplay(c, test)
	if err == nil && res.Failure != nil && !res.Interrupted && c.shrink > 0 && (c.shrinkSet || c.replay == "" && c.hit == nil) {
		res.Failure = shrinkFailure(c, test, res.Failure)
	}
	return res, err
}

func exploreOrReplay(c *config, test func(*Env)) (*Result, error) {
	if c.replay != "" {
		return replayFile(c, test, c.replay, nil)
	}
	if _, err := newStrategy(c); err != nil {
		return nil, err
	}
	x := &explorer{c: c, test: test, base: baseSeed(c)}
	if l, ok := strategy.AsLearner(mustStrategy(c)); ok {
		prior := l.Prior()
		if t := strategy.ConflictTable(prior); t != nil && c.catable != "" {
			saved, err := loadTable(c.catable)
			if err != nil {
				return nil, err
			}
			t.Merge(saved)
		}
		x.learn = newLearner(prior)
	}
	x.stopAt.Store(math.MaxInt64)
	if c.iterations > 0 { // 0: unlimited
		x.stopAt.Store(int64(c.iterations))
	}
	if c.counting() {
		x.orders = make(map[uint64]int)
	}
	if c.progress != "" {
		x.progress = newProgress(c)
	}
	if c.duration > 0 {
		x.deadline = budgetNow().Add(c.duration)
	}
	return x.run()
}

// explorer runs the iterations of one Explore on several workers.
type explorer struct {
	c        *config
	test     func(*Env)
	base     uint64
	deadline time.Time

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
	n := max(x.c.workers, 1)
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
	wd := core.StartWatchdog(x.c.watchdog, func(w *core.Worker, s *core.Stuck) {
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
		Test: x.c.name, Strategy: x.c.strategy, Seed: x.base,
		Iterations: x.done, Steps: x.steps, Elapsed: time.Since(start),
		Failure: x.failure, Exhausted: x.exhausted,
		Failures: x.failures, Hits: x.hits,
		Shard: x.c.shard.String(), Interrupted: x.halted.Load(),
	}
	x.coverage(res)
	x.progress.finish(res)
	if x.learn != nil {
		final := x.learn.final()
		if st := strategy.ConflictStats(final); st != nil && st.Iterations > 0 {
			res.CA, res.table = st, strategy.ConflictTable(final)
			if x.c.catable != "" {
				if err := saveTable(x.c.catable, res.table); err != nil {
					return res, fmt.Errorf("saving the conflict table: %w", err)
				}
			}
		}
	}
	return res, nil
}

func mustStrategy(c *config) strategy.Strategy {
	s, err := newStrategy(c)
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
	var poh trace.PartialOrderer
	for {
		j := x.next.Add(1) - 1 // this process's j-th iteration: the learner's count
		i := x.c.shard.iteration(j)
		if x.halted.Load() || !x.deadline.IsZero() && budgetNow().After(x.deadline) {
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
		out, env := x.iterationOrGoexit(w, strat, int(i))
		if w.Abandoned() {
			return
		}
		if learner != nil {
			x.learn.finish(int(j), learner.Learned())
		}
		if x.orders != nil {
			out.StepTrace(&po)
			x.order(int(i), poh.PartialOrder(&po))
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

// learnsFrom reports whether what the strategy would learn from this
// process's j-th iteration can be read: by an iteration of a later epoch, or
// in the table file. In the last epoch of a bounded run nothing reads it, and
// the strategy may skip its analysis (conflict analysis's main cost).
func (x *explorer) learnsFrom(j int64) bool {
	c := x.c
	if c.catable != "" || c.duration > 0 || c.iterations <= 0 || c.shard.N > 1 {
		return true
	}
	return int64(epochStart(epochOf(int(j))+1)) < int64(c.iterations)
}

// record accounts for iteration i's outcome.
func (x *explorer) record(i int, out core.Outcome, env *Env) {
	x.mu.Lock()
	x.done++
	x.steps += int64(out.Steps)
	if f := out.Failure; f != nil {
		x.failures++
		if x.c.hit != nil && x.c.hit(string(f.Kind), f.Message) {
			x.hits++
		}
		if x.failure == nil || i < x.failure.Iteration {
			x.failure = newFailure(x.c, out, env, i, seedFor(x.base, i))
		}
	}
	x.progress.update(x)
	x.mu.Unlock()
	if out.Failure != nil && x.c.hit == nil {
		x.stop(int64(i) + 1)
	}
}

// iterationOrGoexit runs iteration i; if a task calls runtime.Goexit, which
// ends the worker's goroutine too, it records the failure on the way out.
func (x *explorer) iterationOrGoexit(w *core.Worker, strat strategy.Strategy, i int) (out core.Outcome, env *Env) {
	defer func() {
		if g := w.Goexited(); g != nil {
			x.record(i, *g, env)
			x.stop(int64(i) + 1)
		}
	}()
	return x.iteration(w, strat, i, x.c.maxSteps, &env)
}

// iteration runs iteration i on w.
func (x *explorer) iteration(w *core.Worker, strat strategy.Strategy, i, maxSteps int, envp **Env) (core.Outcome, *Env) {
	var env *Env
	cfg := core.Config{
		Strategy: strat, Seed: seedFor(x.base, i),
		MaxSteps: maxSteps, ClockLimit: int64(x.c.clockLimit),
		AllowLeaks: x.c.allowLeaks, AllowRaces: x.c.allowRaces, EarlyTimers: x.c.early,
	}
	out := w.Execute(cfg, func(r *core.Run) {
		env = newEnv(r, i)
		if envp != nil {
			*envp = env
		}
	}, func() { x.test(env) })
	return out, env
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
