package report

import (
	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/trace"
)

// step is one scheduling step of a trace, as the report lays it out.
type step struct {
	ev  int   // index in Trace.Events
	n   int   // step number, from 1, over the whole trace
	now int64 // virtual time in ns when it ran
}

// stepsOf lists the steps of t in order.
func stepsOf(t *trace.Trace) []step {
	var out []step
	now := int64(0)
	for i := range t.Events {
		e := &t.Events[i]
		if e.Kind == trace.KindClock {
			now = e.Val
		}
		if e.IsStep() {
			out = append(out, step{ev: i, n: len(out) + 1, now: now})
		}
	}
	return out
}

// failureEvent returns the index in t.Events of the step the failure was
// detected at: the last step of the failing task at or before the failure's
// step number, or -1 when the trace does not say (no failure, no task, or a
// step out of range).
func failureEvent(t *trace.Trace, steps []step) int {
	f := t.Header.Failure
	if f == nil || f.Task < 0 {
		return -1
	}
	for k := min(f.Step, len(steps)) - 1; k >= 0; k-- {
		if t.Events[steps[k].ev].Task == f.Task {
			return steps[k].ev
		}
	}
	return -1
}

// race is a pair of conflicting steps (event indexes, a < b): steps of
// different tasks on the same resource, not both reads, that happens-before
// leaves unordered, so that another schedule could run them the other way
// round.
type race struct{ a, b int }

// maxRaces bounds the races a report lists; it keeps the latest ones.
const maxRaces = 100

// decidingRaces returns the races of t that could have decided its outcome:
// those whose two steps both happen before (or are) the step the failure was
// detected at, since reordering them can change what the failing task saw.
// Without a failure step (a deadlock, a passing trace) every race counts. It
// returns at most maxRaces races, the latest, and the number found in all.
func decidingRaces(t *trace.Trace, fail int) ([]race, int) {
	// own[i] is event i's entry of its own task in its vector clock: the
	// event happens before (or is) the failure step iff own[i] ≤ the
	// failure's clock at that task.
	own := make([]uint32, len(t.Events))
	var failVC hb.VC
	hb.Clocks(t, func(i int, vc hb.VC) {
		own[i] = vc.At(t.Events[i].Task)
		if i == fail {
			failVC = vc.Clone()
		}
	})
	inPast := func(i int) bool {
		return failVC == nil || own[i] <= failVC.At(t.Events[i].Task)
	}
	var out []race
	total := 0
	hb.ConflictPairs(t, func(i, j int) {
		if fail >= 0 && failVC != nil && (!inPast(i) || !inPast(j)) {
			return
		}
		total++
		out = append(out, race{i, j})
		if len(out) > 2*maxRaces { // keep memory bounded on huge traces
			out = append(out[:0], out[len(out)-maxRaces:]...)
		}
	})
	if len(out) > maxRaces {
		out = out[len(out)-maxRaces:]
	}
	return out, total
}
