package explore

import (
	"regexp"
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/trace"
)

// Shrinking searches for a simpler schedule that fails the same way as a
// reported failure: fewer steps, fewer deviations from the default
// (non-preemptive) order, fewer faults and smaller choices. It is a plain
// function of the failing trace and the test: every candidate schedule is run
// under a lenient guide (Guide) and kept only if it fails with the
// same kind, at the same location, with the same message up to numbers.
//
// Uncontrolled blocking, nondeterminism and step-limit failures are not
// shrunk (see shrinkable). Candidates, tried in rounds until a round finds
// nothing better:
//
//   - deviations removed, delta-debugging style: halves, quarters, ... down
//     to single context switches, from the end of the schedule backwards
//     (removing the last ones cuts the schedule's suffix: the rest runs in
//     the default order);
//   - every choice set to 0 and to its largest value (fault decisions:
//     no fault, or the other fault; Chaos: crash no node);
//   - the schedule reordered into the linearization of its own partial order
//     with the fewest context switches (same happens-before relation and
//     conflict order, so the same behaviour, shown more simply).
//
// Before the rounds, a liveness failure at the clock limit whose run ends
// repeating one cycle (retries to a crashed server) is cut at a lower clock
// limit, a few cycles into the repetition (see cutClock): the rounds then
// work on the short run, and the trace records the limit it replays with.
//
// The budget (Config.Shrink) counts candidates by their length: a
// candidate counts as one per ShrinkStepUnit steps it ran, at least one.
// Failures of a few thousand steps get their candidates as before; a leak
// found after 20,000 steps (a pool's worker left by a subtest, in every
// schedule) gets a tenth as many, each costing ten times as much, for the
// few steps a long run's search finds (0.1-0.7% of them in 200 candidates):
// the search costs at most Shrink × ShrinkStepUnit steps, so it ends by its
// budget, deterministically, rather than by the wall clock. A candidate
// the budget cannot pay for (as many steps as the best run) is not started,
// and a failure longer than the whole budget is not shrunk.
//
// A candidate is better when it has fewer steps (a fault counts as 8 steps:
// a run that needs no lost message is simpler even if a little longer), then
// fewer deviations, then smaller choices; one that has taken as many steps
// as the best run's cost cannot be, and is cut there (Guide.Cap) rather
// than run on to its end (a pool polling every 10 ms to the clock limit
// once the failing switch is gone: minutes a candidate). The search is
// deterministic: the same failure gives the same shrunk trace, unless the
// wall-clock budget (ShrinkTime), which also ends a candidate running when
// it comes, cuts it short, which the result says.

// ShrinkStats says what shrinking did to a failure (morpheus.ShrinkStats).
type ShrinkStats struct {
	OriginalSteps int
	Candidates    int
	Accepted      int
	TimedOut      bool
	ClockLimit    time.Duration
	Best          int
}

// shrinkable reports whether a failure kind is one that a simpler schedule
// can reproduce: not a failure of the tool's control (uncontrolled blocking,
// nondeterminism), not a stale trace, and not the step limit, which every
// schedule reaches after the same number of steps, each candidate running
// all of them.
func shrinkable(kind string) bool {
	switch core.FailureKind(kind) {
	case core.Uncontrolled, core.Nondeterminism, core.StepLimit, StaleTrace:
		return false
	}
	return true
}

// shrinker runs candidate schedules of one failing iteration.
type shrinker struct {
	c        *Config
	prog     Program
	target   *Failure
	deadline time.Time
	budget   int
	spent    int // the budget's units used: candidates by their length
	stats    ShrinkStats
	w        *core.Worker
	wd       *core.Watchdog
	stuck    chan struct{}
	limit    int64 // a clock limit cutClock lowered, 0 for the test's own
}

// candidate is a run that failed the target's way.
type candidate struct {
	f       *Failure
	devs    []Switch
	choices []int
	offered []int
	cost    int // steps + 8·faults
	csum    int // sum of the choices' values
}

func (a *candidate) better(b *candidate) bool {
	if a.cost != b.cost {
		return a.cost < b.cost
	}
	if len(a.devs) != len(b.devs) {
		return len(a.devs) < len(b.devs)
	}
	return a.csum < b.csum
}

// shrinkFailure returns a simpler failure of the same kind, location and
// message as f, or f itself if it found none; f.Shrink says what it did.
func shrinkFailure(c *Config, prog Program, f *Failure) *Failure {
	if f == nil || f.Trace == nil || !shrinkable(f.Kind) || c.Shrink <= 0 {
		return f
	}
	c = withOptions(c, f.Trace) // the failure's settings: its early timers, under the portfolio
	s := &shrinker{c: c, prog: prog, target: f, budget: c.Shrink, stuck: make(chan struct{}, 1)}
	if c.ShrinkTime > 0 {
		s.deadline = time.Now().Add(c.ShrinkTime)
	}
	s.wd = core.StartWatchdog(c.Watchdog, func(*core.Worker, *core.Stuck) {
		select {
		case s.stuck <- struct{}{}:
		default:
		}
	})
	defer s.wd.Stop()
	s.newWorker()
	defer func() {
		if s.w != nil {
			s.w.Close()
		}
	}()
	best := s.search()
	s.stats.OriginalSteps = f.Steps
	if best == nil || best.cost > f.Steps+8*faults(f.Trace) {
		// Nothing followed the schedule again, or only a longer run did (a
		// test whose replay is not exact): the original stays the simplest.
		return f
	}
	g := best.f
	g.Iteration, g.Seed, g.Strategy = f.Iteration, f.Seed, f.Strategy
	g.Trace.Header.Strategy = f.Trace.Header.Strategy
	st := s.stats
	g.Shrink = &st
	return g
}

func (s *shrinker) newWorker() {
	s.w = core.NewWorker()
	s.wd.Attach(s.w)
}

// search runs the rounds of candidates and returns the best run, nil if the
// failing schedule could not even be followed again.
func (s *shrinker) search() *candidate {
	if shrinkUnits(s.target.Steps) > s.budget {
		// Following the failure again would spend more than the budget:
		// no candidate could follow it (a leak found at the step limit,
		// a million steps).
		return nil
	}
	s.stats.Candidates++
	best := s.run(GuideFromTrace(s.target.Trace))
	if best == nil {
		return nil
	}
	s.stats.Best = 1
	best = s.cutClock(best)
	for improved := true; improved && s.left(); {
		improved = false
		if b := s.dropSwitches(best); b != best {
			best, improved = b, true
		}
		if b := s.simplifyChoices(best); b != best {
			best, improved = b, true
		}
		if b := s.reorder(best); b != best {
			best, improved = b, true
		}
	}
	return best
}

// left reports whether the budget allows another candidate.
func (s *shrinker) left() bool {
	if s.spent >= s.budget {
		return false
	}
	if !s.deadline.IsZero() && time.Now().After(s.deadline) {
		s.stats.TimedOut = true
		return false
	}
	return true
}

// try runs a candidate and returns it if it beats best. A candidate that
// takes more steps than best's cost cannot beat it: it is cut there
// (Guide.Cap).
func (s *shrinker) try(g *Guide, best *candidate) *candidate {
	if !s.left() || s.spent+shrinkUnits(best.cost) > s.budget {
		return nil // (a candidate runs at most best.cost steps)
	}
	g.Cap = best.cost
	s.stats.Candidates++
	c := s.run(g)
	if c == nil || !c.better(best) {
		return nil
	}
	s.stats.Accepted++
	s.stats.Best = s.stats.Candidates
	return c
}

// dropSwitches removes chunks of deviations, halving the chunk size down to
// one, from the end of the schedule backwards.
func (s *shrinker) dropSwitches(best *candidate) *candidate {
	for size := max(len(best.devs)/2, 1); size >= 1 && len(best.devs) > 0; size /= 2 {
		for end := len(best.devs); end > 0 && s.left(); {
			start := max(end-size, 0)
			sw := append(append([]Switch(nil), best.devs[:start]...), best.devs[end:]...)
			if c := s.try(&Guide{Switches: sw, Choices: best.choices}, best); c != nil {
				best = c
				end = min(start, len(best.devs))
				continue
			}
			end = start
		}
		if size == 1 {
			break
		}
	}
	return best
}

// simplifyChoices tries every choice at 0 and at its largest value, and,
// among a few values, at every smaller one.
func (s *shrinker) simplifyChoices(best *candidate) *candidate {
	for k := 0; k < len(best.choices) && s.left(); k++ {
		vals := []int{0, best.offered[k] - 1}
		if best.offered[k] <= 8 {
			for v := 1; v < best.choices[k]; v++ {
				vals = append(vals, v)
			}
		}
		for _, v := range vals {
			if k >= len(best.choices) || best.choices[k] == v || v < 0 {
				continue
			}
			ch := append([]int(nil), best.choices...)
			ch[k] = v
			if c := s.try(&Guide{Switches: best.devs, Choices: ch}, best); c != nil {
				best = c
			}
		}
	}
	return best
}

// reorder tries the linearization of best's partial order with the fewest
// context switches.
func (s *shrinker) reorder(best *candidate) *candidate {
	steps := hb.Linearize(best.f.Trace)
	if steps == nil {
		return best
	}
	if c := s.try(&Guide{Steps: steps, Choices: best.choices}, best); c != nil {
		return c
	}
	return best
}

// run runs the iteration under g and returns it as a candidate if it failed
// the target's way.
func (s *shrinker) run(g *Guide) *candidate {
	f, steps := s.execute(g)
	s.spent += shrinkUnits(steps)
	if f == nil || !sameFailure(f, s.target) {
		return nil
	}
	devs := g.Deviations()
	values, offered := g.Taken()
	c := &candidate{f: f, devs: devs, choices: values, offered: offered}
	c.cost = f.Steps + 8*faults(f.Trace)
	for _, v := range values {
		c.csum += v
	}
	return c
}

// ShrinkStepUnit is how many steps of a candidate count as one candidate
// of the shrinking budget.
const ShrinkStepUnit = 2500

// shrinkUnits is what a candidate of that many steps costs of the budget.
func shrinkUnits(steps int) int { return max(1, (steps+ShrinkStepUnit-1)/ShrinkStepUnit) }

// ran is what one candidate's run gave: its failure and its steps.
type ran struct {
	f     *Failure
	steps int
}

// execute runs one iteration under g on its own goroutine (a task's
// runtime.Goexit ends that goroutine) and returns its failure, or nil if it
// passed, its worker was abandoned by the watchdog, or the time budget
// ended during it, and the steps it ran (0 if not known).
func (s *shrinker) execute(g *Guide) (*Failure, int) {
	t := s.target
	rc := *s.c
	rc.Name = t.Test
	done := make(chan ran, 1)
	w := s.w
	go func() {
		var env any
		var f *Failure
		steps := 0
		defer func() {
			if out := w.Goexited(); out != nil {
				steps = out.Steps
				if f == nil && out.Failure != nil {
					f = newFailure(&rc, *out, env, t.Iteration, t.Seed)
					if s.limit > 0 {
						f.Trace.Header.Failure.ClockLimit = s.limit
					}
				}
			}
			done <- ran{f, steps}
		}()
		limit := int64(s.c.ClockLimit)
		if s.limit > 0 {
			limit = s.limit
		}
		out := s.prog.execute(w, s.c.core(g, t.Seed, s.c.MaxSteps, limit), t.Iteration, &env)
		steps = out.Steps
		if out.Failure != nil {
			f = newFailure(&rc, out, env, t.Iteration, t.Seed)
			if s.limit > 0 {
				f.Trace.Header.Failure.ClockLimit = s.limit
			}
		}
	}()
	var timeUp <-chan time.Time
	if !s.deadline.IsZero() && g.Cap > 0 {
		// A candidate (not the first run, which follows the failure
		// itself, as long as it ran) is cut at the time budget's end.
		t := time.NewTimer(time.Until(s.deadline))
		defer t.Stop()
		timeUp = t.C
	}
	select {
	case r := <-done:
		if w.Goexited() != nil {
			w.Close()
			s.newWorker() // a worker's Goexited outcome stays: use a fresh one
		}
		return r.f, r.steps
	case <-s.stuck:
		s.w = nil    // abandoned: it ends once its blocked task comes back
		s.budget = 0 // and nothing else runs
		return nil, 0
	case <-timeUp:
		// The time budget ends during the candidate: it ends at its next
		// op (its tasks unwound, as the exploration's budget cuts an
		// iteration), and no other runs.
		w.Abandon()
		s.stats.TimedOut = true
		s.budget = 0
		select {
		case <-done:
			w.Close()
		case <-s.stuck: // it ends once its blocked task comes back
		}
		s.w = nil // abandoned: not run again
		return nil, 0
	}
}

// sameFailure reports whether f fails the way target did: the same kind and
// location, and the same message once numbers (and the clock limit a
// liveness message names, which cutClock may lower) are masked.
func sameFailure(f, target *Failure) bool {
	return f.Kind == target.Kind && f.Location == target.Location &&
		maskNumbers(clockLimitText.ReplaceAllString(f.Message, "clock limit")) ==
			maskNumbers(clockLimitText.ReplaceAllString(target.Message, "clock limit"))
}

var numbers = regexp.MustCompile(`[0-9]+`)

func maskNumbers(s string) string { return numbers.ReplaceAllString(s, "#") }

// faults counts the faults in a trace: crashes, partitions, lost messages
// and messages the network held back (delayed or duplicated).
func faults(tr *trace.Trace) int {
	n := 0
	for i := range tr.Events {
		e := &tr.Events[i]
		switch {
		case e.Kind == trace.KindCrash, e.Kind == trace.KindPartition, e.Kind == trace.KindDeliver:
			n++
		case e.Kind == trace.KindSend && e.Flag&trace.FlagDropped != 0:
			n++
		}
	}
	return n
}
