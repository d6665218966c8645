package morpheus

import (
	"fmt"
	"strings"

	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/trace"
)

// writeTrace writes the trace part of a failure's report. full writes every
// step. Otherwise a trace longer than reportTail steps leads with its key
// events (crashes, restarts, partitions, the hot monitor's last change, the
// last progress: trace.Highlights), and its end is shown with every run of
// a repeated cycle folded into one line (trace.RenderFolded), so that a
// liveness failure's thousands of retries do not hide the crash behind them.
// race says the failure is a data race, after which the goroutines ran on.
func writeTrace(b *strings.Builder, tr *trace.Trace, full, race bool) {
	tr, after := upToFailure(tr)
	defer func() {
		switch {
		case after > 0 && race:
			fmt.Fprintf(b, "then %s of the goroutines, which ran on after the race as under go test -race\n", plural.N(after, "step"))
		case after > 0:
			fmt.Fprintf(b, "then %s of the test's deferred calls and cleanups\n", plural.N(after, "step"))
		}
	}()
	var tb strings.Builder
	var head string
	var err error
	switch {
	case full || tr.Steps() <= reportTail:
		head, err = "trace:", trace.Render(&tb, tr, 0, -1)
	case len(trace.Folds(tr, 0, -1)) == 0:
		head, err = fmt.Sprintf("last %d steps:", reportTail), trace.Render(&tb, tr, trace.Tail(tr, reportTail), -1)
	default:
		from := trace.TailFolded(tr, reportTail)
		head = "trace, repeated cycles folded:"
		if from > 0 {
			head = fmt.Sprintf("last %d lines, repeated cycles folded:", reportTail)
		}
		err = trace.RenderFolded(&tb, tr, from, -1)
	}
	if err != nil {
		return
	}
	if !full && tr.Steps() > reportTail {
		writeHighlights(b, tr)
	}
	b.WriteString(head + "\n    " + indent(strings.TrimRight(tb.String(), "\n"), "    ") + "\n")
}

// writeHighlights writes the "key events:" lines of a long trace: step,
// time, the task that took the step, and what happened.
func writeHighlights(b *strings.Builder, tr *trace.Trace) {
	hs := trace.Highlights(tr)
	if len(hs) == 0 {
		return
	}
	now := tr.Times()
	b.WriteString("key events:\n")
	for _, h := range hs {
		fmt.Fprintf(b, "    step %d at %s, %s: %s\n", h.Step, trace.FormatTime(now[h.Event]), tr.TaskName(tr.Events[h.Event].Task), h.Text)
	}
}

// upToFailure returns tr up to its failure's step, and how many steps came
// after it: a t.FailNow's failure is held while the test's deferred calls
// and cleanups run under control, and the report shows what led to it.
func upToFailure(tr *trace.Trace) (*trace.Trace, int) {
	f := tr.Header.Failure
	if f == nil || f.Step <= 0 {
		return tr, 0
	}
	n := 0
	for i := range tr.Events {
		if !tr.Events[i].IsStep() {
			continue
		}
		if n == f.Step {
			cp := *tr
			cp.Events = tr.Events[:i]
			return &cp, tr.Steps() - f.Step
		}
		n++
	}
	return tr, 0
}
