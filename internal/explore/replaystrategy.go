package explore

import (
	"fmt"
	"strings"

	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// Replay follows the schedule of a recorded trace: at every step it picks the
// enabled op of the task the trace ran, and checks that the op is of the same
// kind; every choice takes the recorded value.
//
// When the run leaves the recorded schedule (the recorded task has no enabled
// op, the kinds differ, or the trace ends first), the test is not a function
// of its schedule, or the code changed since the trace was recorded. Strict
// replay (fallback nil) then stops and Divergence says where; lenient replay
// records the divergence and continues with the fallback strategy, so that a
// saved failing schedule still guides the run as far as it applies.
type Replay struct {
	tr       *trace.Trace
	fallback strategy.Strategy
	pos      int // index of the next event to follow
	step     int // steps followed
	last     int // event index of the last step followed, -1 before the first
	diverged string
	// Where, if set, maps an op's Sig.Loc to "file:line"; replay then also
	// checks that each op runs at its recorded code location.
	Where func(loc uint64) string
}

// NewReplay returns a strategy that follows tr. fallback, if not nil, takes
// over from the first divergence.
func NewReplay(tr *trace.Trace, fallback strategy.Strategy) *Replay {
	return &Replay{tr: tr, fallback: fallback}
}

func (r *Replay) Name() string { return "replay" }

// Begin restarts the replay from the first step. The seed is passed to the
// fallback.
func (r *Replay) Begin(seed uint64) {
	r.pos, r.step, r.last, r.diverged = 0, 0, -1, ""
	if r.fallback != nil {
		r.fallback.Begin(seed)
	}
}

// Divergence describes where the run left the recorded schedule, or "" if it
// has not: "at step N it expected <task> <op> at <file:line>, the run does
// <task> <op> at <file:line>" (or what the run could do instead, when the
// recorded task cannot run or the trace had ended).
func (r *Replay) Divergence() string { return r.diverged }

// Following reports whether the run is still on the recorded schedule.
func (r *Replay) Following() bool { return r.diverged == "" }

// Next picks the recorded task's op.
func (r *Replay) Next(enabled []strategy.Op) int {
	if r.diverged != "" {
		return r.fallback.Next(enabled)
	}
	for r.pos < len(r.tr.Events) && !r.tr.Events[r.pos].IsStep() {
		r.pos++
	}
	step := r.step + 1
	if r.pos >= len(r.tr.Events) {
		if i := r.blocking(enabled, step); i >= 0 {
			r.step = step
			return i
		}
		return r.diverge(enabled, fmt.Sprintf("at step %d the trace had ended (%s), the run does %s", step, plural.N(r.step, "step"), r.describe(enabled)))
	}
	ev := &r.tr.Events[r.pos]
	want := fmt.Sprintf("%s %v at %s", r.tr.TaskName(ev.Task), ev.Kind, r.tr.LocString(ev.Loc))
	for i := range enabled {
		if enabled[i].Task != ev.Task {
			continue
		}
		wantLoc, got := r.tr.LocString(ev.Loc), r.loc(&enabled[i])
		if enabled[i].Kind != ev.Kind || wantLoc != "?" && got != "" && got != wantLoc {
			return r.diverge(enabled, fmt.Sprintf("at step %d it expected %s, the run does %s", step, want, r.describe(enabled[i:i+1])))
		}
		r.last, r.pos, r.step = r.pos, r.pos+1, step
		return i
	}
	return r.diverge(enabled, fmt.Sprintf("at step %d it expected %s, but that task cannot run there; the run does %s", step, want, r.describe(enabled)))
}

// blocking returns the op of the task whose op blocked outside control
// at step (an uncontrolled-blocking failure's trace ends at the step
// before it: the recovery did not run it, stuck.go), -1 if the trace
// recorded no such failure there: the replay runs it, and the task blocks
// again where it blocked, for the watchdog to report. Once the code no
// longer blocks there, the run goes on past the trace's end and diverges.
func (r *Replay) blocking(enabled []strategy.Op, step int) int {
	f := r.tr.Header.Failure
	if f == nil || f.Kind != "uncontrolled-blocking" || f.Step != step || f.Task < 0 {
		return -1
	}
	for i := range enabled {
		if enabled[i].Task == f.Task {
			return i
		}
	}
	return -1
}

// loc returns the location of an enabled op, "" without Where or a
// location.
func (r *Replay) loc(op *strategy.Op) string {
	if r.Where == nil || op.Sig.Loc == 0 {
		return ""
	}
	return r.Where(op.Sig.Loc)
}

// describe names what the run can do instead: a few of the enabled ops,
// as "task kind at file:line".
func (r *Replay) describe(enabled []strategy.Op) string {
	const show = 3
	var b strings.Builder
	for i := range enabled[:min(len(enabled), show)] {
		if i > 0 {
			b.WriteString(" or ")
		}
		op := &enabled[i]
		fmt.Fprintf(&b, "%s %v", r.tr.TaskName(op.Task), op.Kind)
		if l := r.loc(op); l != "" {
			b.WriteString(" at " + l)
		}
	}
	switch {
	case len(enabled) == 0:
		b.WriteString("nothing")
	case len(enabled) > show:
		fmt.Fprintf(&b, " (of %d enabled ops)", len(enabled))
	}
	return b.String()
}

// Choose returns the recorded value.
func (r *Replay) Choose(n int) int {
	if r.diverged != "" {
		return r.fallback.Choose(n)
	}
	ev := &r.tr.Events[r.last]
	if ev.Kind != trace.KindChoose || ev.Val < 0 || ev.Val >= int64(n) {
		r.diverged = fmt.Sprintf("at step %d it expected the choice %d, the run chooses among %d values", r.step, ev.Val, n)
		if r.fallback != nil {
			return r.fallback.Choose(n)
		}
		return -1
	}
	return int(ev.Val)
}

func (r *Replay) diverge(enabled []strategy.Op, msg string) int {
	r.diverged = msg
	if r.fallback != nil {
		return r.fallback.Next(enabled)
	}
	return -1
}

// End passes the trace to the fallback.
func (r *Replay) End(tr *trace.Trace) {
	if r.fallback != nil {
		r.fallback.End(tr)
	}
}

// Followed returns the number of recorded steps followed before a divergence
// (all of them if none).
func (r *Replay) Followed() int { return r.step }
