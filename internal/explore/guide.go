package explore

import (
	"github.com/morpheus-go/morpheus/internal/plural"

	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// Guide follows a schedule leniently, for shrinking: where its schedule says
// which task runs and that task is enabled, it runs it; everywhere else it
// takes the default order, so every schedule, even one cut or edited
// arbitrarily, gives a complete run.
//
// The default order is non-preemptive: the task that ran the last step runs
// again while it has an enabled op; otherwise the enabled op of the task
// created first (the lowest id) runs. A step where the schedule picks another
// task than the default is a deviation, a context switch the schedule asks
// for; a run with no deviations is the default schedule itself.
//
// A schedule is given in one of two forms. Steps names the task of every
// step in order, as a recorded trace does; it is how a trace's schedule is
// first followed. Switches names only the deviations, by step number: the
// form in which deviations are removed one by one without disturbing the
// others. Steps, where it reaches, comes first.
//
// Choices are given in order: choice k takes Choices[k], clamped to the
// values offered; choices past the end take 0.
//
// After a run, Deviations and Taken describe what it did, in the Switches
// form: following them again gives the same run.
//
// Cap, if positive, ends a run that has taken Cap steps and would take
// another: Next returns -1 there, and the run fails as a divergence. A
// shrinking candidate that runs past the steps of the best run so far
// cannot replace it however it ends (fewer steps come first), so it is
// cut there rather than run on, perhaps for minutes, to the clock or step
// limit.
type Guide struct {
	Steps    []int32
	Switches []Switch
	Choices  []int
	Cap      int

	step  int   // steps taken
	last  int32 // task of the last step, -1 before the first
	sw    int   // next index in Switches
	taken []int // choices made
	offer []int // the number of values each choice offered
	devs  []Switch
}

// Switch is a deviation from the default order: at step Step (from 0) run
// Task.
type Switch struct {
	Step int
	Task int32
}

// GuideFromTrace returns a guide that follows the schedule and the choices
// of tr.
func GuideFromTrace(tr *trace.Trace) *Guide {
	g := &Guide{}
	for i := range tr.Events {
		e := &tr.Events[i]
		if !e.IsStep() {
			continue
		}
		g.Steps = append(g.Steps, e.Task)
		if e.Kind == trace.KindChoose {
			g.Choices = append(g.Choices, int(e.Val))
		}
	}
	return g
}

func (g *Guide) Name() string { return "shrink" }

// Following reports true: a guide picks every step of its runs, so that
// Deviations and Taken describe all of them.
func (g *Guide) Following() bool { return true }

// Begin restarts the schedule; the seed plays no part.
func (g *Guide) Begin(uint64) {
	g.step, g.last, g.sw = 0, -1, 0
	g.taken, g.offer, g.devs = g.taken[:0], g.offer[:0], g.devs[:0]
}

// Next picks the scheduled task if it is enabled, else the default.
func (g *Guide) Next(enabled []strategy.Op) int {
	if g.Cap > 0 && g.step >= g.Cap {
		return -1
	}
	def := 0 // enabled ops come in creation order: the lowest task first
	for i := range enabled {
		if enabled[i].Task == g.last {
			def = i
			break
		}
	}
	want := int32(-1)
	if g.step < len(g.Steps) {
		want = g.Steps[g.step]
	} else {
		for g.sw < len(g.Switches) && g.Switches[g.sw].Step < g.step {
			g.sw++
		}
		if g.sw < len(g.Switches) && g.Switches[g.sw].Step == g.step {
			want = g.Switches[g.sw].Task
		}
	}
	pick := def
	if want >= 0 && want != enabled[def].Task {
		for i := range enabled {
			if enabled[i].Task == want {
				pick = i
				g.devs = append(g.devs, Switch{Step: g.step, Task: want})
				break
			}
		}
	}
	g.step++
	g.last = enabled[pick].Task
	return pick
}

// Divergence explains the one way a guide stops a run: its Cap.
func (g *Guide) Divergence() string {
	return "shrinking: the candidate passed " + plural.N(g.Cap, "step") + ", those of the best run so far"
}

// Choose takes the scheduled value.
func (g *Guide) Choose(n int) int {
	k := len(g.taken)
	v := 0
	if k < len(g.Choices) {
		v = min(max(g.Choices[k], 0), n-1)
	}
	g.taken = append(g.taken, v)
	g.offer = append(g.offer, n)
	return v
}

// End does nothing: a guide learns nothing.
func (g *Guide) End(*trace.Trace) {}

// Deviations returns the deviations of the last run, in step order.
func (g *Guide) Deviations() []Switch { return append([]Switch(nil), g.devs...) }

// Taken returns the values the last run's choices took and how many values
// each offered.
func (g *Guide) Taken() (values, offered []int) {
	return append([]int(nil), g.taken...), append([]int(nil), g.offer...)
}
