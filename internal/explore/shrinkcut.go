package explore

import (
	"regexp"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/trace"
)

// A liveness failure at the clock limit is often a short story followed by
// a long idle repetition: a server crashes at step 11, and its client
// retries every 100 ms until the limit, 6,000 times in ten virtual minutes.
// No schedule avoids the retries (the code makes them), so removing
// deviations or choices cannot shorten such a run; what can is a lower
// clock limit. cutClock replays the failing run under lower limits, ending
// after a few cycles of the repetition (3, then 6, 12, ...), and keeps the
// first such run that is the original's exact beginning and fails the same
// way: the monitor is hot at the lower limit, and the original run shows
// that after it nothing but the same cycle happens up to the test's own
// limit. The shrunk trace records the lower limit (trace.Failure.ClockLimit)
// and replays with it.

// minCutCycles is how many cycles of the repetition a cut run keeps at least.
const minCutCycles = 3

// clockLimitText matches the clock limit a liveness message names, which a
// cut run names lower.
var clockLimitText = regexp.MustCompile(`clock limit [^ \n]+`)

// cutClock returns best's run cut at a lower clock limit, or best if it
// cannot be: not a liveness failure at the clock limit, not ending in a
// repetition, or no lower limit reproducing it. On success s.limit is the
// limit every later candidate runs with.
func (s *shrinker) cutClock(best *candidate) *candidate {
	tr := best.f.Trace
	if best.f.Kind != "liveness" || !strings.Contains(best.f.Message, "at the clock limit") {
		return best
	}
	folds := trace.Folds(tr, 0, -1)
	if len(folds) == 0 || folds[len(folds)-1].End != len(tr.Events) {
		return best
	}
	f := folds[len(folds)-1]
	now := tr.Times()
	var stepEv []int // event index of each step
	for i := range tr.Events {
		if tr.Events[i].IsStep() {
			stepEv = append(stepEv, i)
		}
	}
	for keep := minCutCycles; keep < f.Count && s.left(); keep *= 2 {
		last := stepEv[f.FirstStep-1+keep*f.Period-1] // the keep-th cycle's last step
		limit := now[last]
		if limit <= 0 || limit >= int64(s.c.ClockLimit) {
			continue
		}
		s.stats.Candidates++
		s.limit = limit
		g := GuideFromTrace(tr)
		g.Cap = best.f.Steps // a run no shorter is no cut
		c := s.run(g)
		if c != nil && c.f.Steps < best.f.Steps && isPrefix(c.f.Trace, tr) {
			s.stats.Accepted++
			s.stats.Best = s.stats.Candidates
			s.stats.ClockLimit = time.Duration(limit)
			return c
		}
		s.limit = 0
	}
	return best
}

// cutLimit returns the clock limit tr's failure was cut at by shrinking
// (cutClock), 0 if none: a replay of tr runs to that limit, not the test's.
func cutLimit(tr *trace.Trace) int64 {
	if f := tr.Header.Failure; f != nil {
		return f.ClockLimit
	}
	return 0
}

// isPrefix reports whether the steps of a are the first steps of b: the
// same tasks, ops, peers and locations in the same order.
func isPrefix(a, b *trace.Trace) bool {
	j := 0
	for i := range a.Events {
		e := &a.Events[i]
		if !e.IsStep() {
			continue
		}
		for j < len(b.Events) && !b.Events[j].IsStep() {
			j++
		}
		if j == len(b.Events) {
			return false
		}
		o := &b.Events[j]
		if e.Task != o.Task || e.Kind != o.Kind || e.Obj != o.Obj || a.LocString(e.Loc) != b.LocString(o.Loc) {
			return false
		}
		j++
	}
	return true
}
