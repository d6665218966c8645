package morpheus

import "time"

// Shrinking searches for a simpler schedule that fails the same way as a
// reported failure: fewer steps, fewer deviations from the default
// (non-preemptive) order, fewer faults and smaller choices. It is a plain
// function of the failing trace and the test: every candidate schedule is run
// under a lenient guide (strategy.Guide) and kept only if it fails with the
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
// A candidate is better when it has fewer steps (a fault counts as 8 steps:
// a run that needs no lost message is simpler even if a little longer), then
// fewer deviations, then smaller choices. The search is deterministic: the
// same failure gives the same shrunk trace, unless the wall-clock budget
// (ShrinkTime) cuts it short, which the result says.

// Defaults of the shrinking budget.
const (
	DefaultShrink     = 200              // candidate runs per reported failure
	DefaultShrinkTime = 10 * time.Second // wall clock per reported failure
)

// ShrinkStats says what shrinking did to a failure.
type ShrinkStats struct {
	OriginalSteps int  // steps of the failing iteration as found
	Candidates    int  // candidate schedules run
	Accepted      int  // candidates that were simpler and failed the same way
	TimedOut      bool // the wall-clock budget ended the search
	// ClockLimit, if not 0, is the lower clock limit the shrunk liveness
	// failure runs to: the original run repeated one cycle from there to
	// the test's own limit. The trace records it and replays with it.
	ClockLimit time.Duration
}

// shrinkable reports whether a failure kind is one that a simpler schedule
