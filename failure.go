package morpheus

import (
	"fmt"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/internal/explore"
	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/trace"
)

// Failure is a failing iteration: what went wrong, where, and the trace that
// replays it.
type Failure struct {
	// Kind is one of assertion, panic, deadlock, leak, step-limit,
	// clock-limit, liveness, race, uncontrolled-blocking, nondeterminism,
	// or stale-trace: a replayed trace file that the code no longer follows
	// (recorded on different code; the test follows its own schedules).
	Kind     string
	Message  string
	Task     string // the task that failed ("" when no single task did)
	Location string // file:line of the failing op or panic, "" if unknown
	Stack    string // the failing task's stack, for panics and uncontrolled blocking

	Test      string
	Strategy  string
	Iteration int    // its index in the run, from 0 (the report counts from 1: "iteration 1" is the first)
	Seed      uint64 // the iteration's own seed
	Steps     int
	Clock     time.Duration // virtual time when it failed
	Logs      []string      // the iteration's Logf lines
	Trace     *trace.Trace  // the whole iteration, replayable
	Path      string        // where the trace was saved, if it was; for a replay, the trace file replayed
	// Attachments are files the test attached (Env.Attach), written beside
	// the saved trace as <Path>.<Name>.
	Attachments []Attachment
	// Shrink, if shrinking ran, says what it did: the failure is then the
	// simplest run found, and Shrink.OriginalSteps the length of the one found
	// by exploring.
	Shrink *ShrinkStats

	replayed bool // Path is the trace file a replay read: nothing was saved
	attached bool // the attachments were written beside Path
}

// Error returns a one-line summary.
func (f *Failure) Error() string {
	var b strings.Builder
	b.WriteString(f.Kind)
	if f.Task != "" {
		b.WriteString(" in " + f.Task)
	}
	if f.Location != "" {
		b.WriteString(" at " + f.Location)
	}
	b.WriteString(": " + firstLine(f.Message))
	return b.String()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// reportTail is how many steps of the trace a report shows.
const reportTail = 30

// Report returns the multi-line report of the failure, as Check prints it:
// the failure, where it happened, the last steps of the trace, the log, the
// stack, and where its trace was saved (Check adds how to replay it).
func (f *Failure) Report() string { return f.report(false, "") }

// report is Report; full shows the whole trace instead of its last steps,
// and replayHint, if not empty, is the command that replays the trace.
func (f *Failure) report(full bool, replayHint string) string {
	var b strings.Builder
	if f.Kind == explore.StaleTrace {
		// Not a failure of the test: the message names the file and says
		// where the run left it; full also shows the run up to there.
		fmt.Fprintf(&b, "morpheus: %s\n", f.Message)
		if full && f.Trace != nil {
			var tb strings.Builder
			if err := trace.Render(&tb, f.Trace, 0, -1); err == nil {
				b.WriteString("the run up to there:\n    " + indent(strings.TrimRight(tb.String(), "\n"), "    ") + "\n")
			}
		}
		return b.String()
	}
	fmt.Fprintf(&b, "morpheus: %s failure", f.Kind)
	if f.Test != "" {
		fmt.Fprintf(&b, " in %s", f.Test)
	}
	fmt.Fprintf(&b, ", iteration %d\n", f.Iteration+1) // counted from 1, as "after N iterations" is
	where := f.Task
	if f.Location != "" {
		if where != "" {
			where += " at "
		}
		where += f.Location
	}
	if where != "" {
		where += ": "
	}
	fmt.Fprintf(&b, "    %s%s\n", where, indent(f.Message, "    "))
	fmt.Fprintf(&b, "    strategy %s, seed %#x, %s, virtual time %v\n", f.Strategy, f.Seed, plural.N(f.Steps, "step"), f.Clock)
	if s := f.Shrink; s != nil && (s.OriginalSteps != f.Steps || s.TimedOut) {
		fmt.Fprintf(&b, "    shrunk from %d to %s (%s tried%s)\n", s.OriginalSteps, plural.N(f.Steps, "step"), plural.N(s.Candidates, "candidate"), shrinkCut(s))
		if s.ClockLimit > 0 {
			fmt.Fprintf(&b, "    the clock limit cut to %v: past it the run found only repeated the same cycle; the trace replays with it\n", s.ClockLimit)
		}
	}
	if f.Trace != nil {
		writeTrace(&b, f.Trace, full, f.Kind == "race")
	}
	if len(f.Logs) > 0 {
		b.WriteString("log:\n")
		for _, l := range f.Logs {
			b.WriteString("    " + l + "\n")
		}
	}
	if f.Stack != "" {
		b.WriteString("stack:\n    " + indent(strings.TrimRight(userStack(f.Stack), "\n"), "    ") + "\n")
	}
	if f.Path != "" && !f.replayed {
		fmt.Fprintf(&b, "trace saved: %s\n", f.Path)
	}
	if f.Path != "" && (!f.replayed || f.attached) {
		for _, a := range f.Attachments {
			fmt.Fprintf(&b, "attachment: %s.%s\n", f.Path, a.Name)
		}
	}
	if replayHint != "" {
		fmt.Fprintf(&b, "replay: %s\n", replayHint)
	}
	return b.String()
}

func indent(s, pad string) string { return strings.ReplaceAll(s, "\n", "\n"+pad) }

// shrinkCut notes that the time budget ended the search: a faster or slower
// machine may then shrink the same failure to a different schedule.
func shrinkCut(s *ShrinkStats) string {
	if s.TimedOut {
		return "; stopped by the time budget, so the result depends on machine speed"
	}
	return ""
}
