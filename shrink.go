package morpheus

import (
	"time"

	"github.com/morpheus-go/morpheus/internal/explore"
)

// Check and Explore shrink the failure they report: they search for a
// simpler schedule that fails the same way (same kind, location, and message
// up to numbers) with fewer steps, fewer deviations from the default
// (non-preemptive) order, fewer faults and smaller choices, and report that
// one. A candidate is cut once it has taken as many steps as the best run so
// far (it could not beat it). The search is deterministic unless the
// wall-clock budget (ShrinkTime), which also ends the candidate running when
// it comes, cuts it short, which ShrinkStats.TimedOut says. The budget of
// candidates (Shrink) counts a candidate as one per ShrinkStepUnit steps it
// ran, at least one: a failure found after 20,000 steps gets a tenth as many
// candidates as one of 2,000, so that shrinking a long run costs about what
// shrinking a short one costs, not a hundred times its finding; a failure
// longer than the whole budget (Shrink × ShrinkStepUnit steps) is not
// shrunk. Uncontrolled blocking,
// nondeterminism and step-limit failures are not shrunk. See Shrink and
// ShrinkTime.

// Defaults of the shrinking budget.
const (
	DefaultShrink     = 200              // candidate runs per reported failure
	DefaultShrinkTime = 10 * time.Second // wall clock per reported failure
	// ShrinkStepUnit is how many steps of a candidate count as one
	// candidate of the Shrink budget.
	ShrinkStepUnit = explore.ShrinkStepUnit
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
	// Best is the candidate the reported failure is, counted from 1 in
	// the order they ran (the first re-runs the failing schedule): the
	// process ran the failing schedule and Best-1 candidates before it,
	// which a replay's history re-runs (trace.Header.Ran).
	Best int
}
