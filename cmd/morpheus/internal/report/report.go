package report

import (
	"time"

	"github.com/morpheus-go/morpheus/trace"
)

// Data is what a report shows: one run of one test (or the merge of several
// shards of it), and its failure if it found one.
type Data struct {
	Title          string // the page's title; empty means "morpheus: " + Test
	Test, Strategy string
	Seed           uint64
	Iterations     int             // iterations run
	Failures       int             // failing iterations
	Steps          int64           // ops over all iterations
	Elapsed        time.Duration   // wall time of the run (ops/s = Steps/Elapsed)
	Coverage       []CoveragePoint // distinct partial orders seen after each sampled iteration
	Failure        *FailureView    // nil when the run passed
	// Trace, when Failure is nil, is an iteration to show anyway (one that
	// passed); it is drawn as a failing trace is.
	Trace *trace.Trace
}

// CoveragePoint is a sample of the coverage curve: after Iteration iterations
// the run had seen PartialOrders distinct partial orders (Mazurkiewicz traces).
type CoveragePoint struct{ Iteration, PartialOrders int }

// FailureView is the failure a report shows.
type FailureView struct {
	Kind, Message, Task, Location string
	Trace                         *trace.Trace // the (shrunk) failing trace
	OriginalSteps                 int          // length before shrinking (0 = not shrunk)
	ShrinkTimedOut                bool         // shrinking was stopped by its time budget
}
