package morpheus

import (
	"time"

	"github.com/morpheus-go/morpheus/internal/explore"
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
	// PartialOrders counts the distinct partial orders (Mazurkiewicz traces)
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
	// Stopped says why no more iterations ran: "failure", "exhausted" (a
	// systematic strategy explored every schedule), "interrupted",
	// "budget-time" (Duration or ScaledDuration was spent), "budget-cut"
	// (TimeLimit came while an iteration ran, which was cut, uncounted) or
	// "budget-schedules" (the iterations asked for ran). Empty for a replay.
	Stopped string

	run   *explore.Result // what the driver returned, for the result file and explore.ResultOf
	stale []string        // Check's corpus entries recorded on different code
}

// CoveragePoint is one sample of a run's coverage curve: the number of
// distinct partial orders (Mazurkiewicz traces) among its first Iteration
// iterations.
type CoveragePoint struct{ Iteration, PartialOrders int }

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
	return exploreTest(c, test)
}
