package core

import (
	"fmt"
	"slices"
	"strings"

	"github.com/morpheus-go/morpheus/trace"
)

// The step limit. Config.MaxSteps bounds the steps a strategy may take
// choices over, not the length of a correct test: a test that submits a
// hundred thousand jobs to a pool takes millions of steps, and is no
// livelock. Past the limit an iteration runs on to its end, its remaining
// steps picked by the fair random walk (Config.FairAfter: the walk starts
// well before), a function of the seed, so a replay follows them alike;
// only at HardStepsFactor times the limit does it fail, and the failure
// says what the last steps were: tasks that kept each other busy (a
// livelock), or one task that ran alone (a loop that does not end: not a
// concurrency bug). Two cases fail at the limit itself, as before: a
// monitor still hot is a liveness failure (a monitor that owes progress for
// that long has its answer), and goroutines still running once the main
// task has returned are leaked (the test is over; they are what goleak
// would find).

// HardStepsFactor is how many times the step limit an iteration may run
// before it fails, unless Config.HardSteps says otherwise.
const HardStepsFactor = 10

// SoloStepsFactor is how many times the hard bound an iteration may run
// when, at the hard bound (stepLimit), what ran is no livelock but work
// that takes long: one task that ran alone and has not polled in the steps
// the report looks at (a computation of one goroutine with nothing else able
// to run, as a test that stores a million keys in a cache: some sixty
// million steps), several tasks none of which spun on loads there, polled,
// or woke another back and forth (computing), or tasks that keep coming to
// rest, every task waiting for a deadline, within the last step limit's
// steps (eight goroutines that sleep a millisecond between cache operations
// for twenty seconds: tasks that keep each other busy never all wait). Past
// the step limit the fair walk picks, not the strategy, so running on
// costs no exploration: it is given this much longer to end; if it
// has not, the failure says what ran, as at the hard bound. A task alone
// that polls waits for something no other task can give (a select with a
// default that nothing will answer): it fails at the hard bound, as before.
const SoloStepsFactor = 10

// busyWindow is how many of the last steps the hard bound's report looks at
// (fewer than a windowed trace keeps: a replay that rebuilds the trace must
// report alike).
const busyWindow = 1000

// checkpoint is decide's look up from its common path, at checkAt: the step
// limit, and the clock's drift (poll.go). It reports whether the iteration
// failed.
func (m *machine) checkpoint() bool {
	if m.step >= m.limitAt && m.stepLimit() {
		return true
	}
	if m.step >= m.driftAt {
		m.drift()
	}
	m.checkAt = min(m.limitAt, m.driftAt)
	return false
}

// stepLimit is checkpoint's check at limitAt: at the step limit it lets the
// iteration go on to the hard bound (or fails it with a liveness failure
// while a monitor is hot); at the hard bound it fails it. It reports
// whether the iteration failed.
func (m *machine) stepLimit() bool {
	if m.live != nil && m.live.Hot() {
		m.fail(&Failure{Kind: Liveness, Task: -1, Message: fmt.Sprintf(
			"no progress in %s:\n%s", m.stepsText(), m.live.Describe())})
		return true
	}
	if m.main.state == taskDone {
		if gs := m.leaked(); len(gs) > 0 {
			m.fail(m.leakFailure(gs, fmt.Sprintf("still running after the step limit (%d steps)", m.softSteps)))
			return true
		}
	}
	if m.limitAt < m.hardSteps {
		m.limitAt = m.hardSteps
		return false
	}
	ran, spun := m.ranLately()
	f := m.busyFailure(ran)
	from := max(m.step-busyWindow, 0)
	alone := f.Task >= 0 && m.tasks[f.Task].pollAt <= from
	if m.step < m.soloSteps && (alone || m.restAt > 0 && m.restAt >= m.step-m.softSteps || m.computing(ran, spun, from)) {
		// A computation, alone or of several tasks, or work that waits
		// for time: look again a step limit further on.
		m.limitAt = min(m.step+m.softSteps, m.soloSteps)
		return false
	}
	m.fail(f)
	return true
}

const maxInt = int(^uint(0) >> 1)

// ranLately returns the tasks (not timers) that ran the last busyWindow
// steps, and for each whether it spun there: ran pollSteps steps or more
// (or, among many tasks, at least half its share of the window and no fewer
// than 16), none of which did more than read (a store, a compare-and-swap,
// a send is an effect; a task's start is none).
func (m *machine) ranLately() (ran []*Task, spun []bool) {
	var effect []bool
	var steps []int
	seen := map[int32]int{}
	n := 0
	for i := m.rec.Len() - 1; i >= 0 && n < busyWindow && m.rec.Held(i); i-- {
		ev := m.rec.At(i)
		if ev.Task < 0 || ev.Kind == trace.KindClock {
			continue
		}
		n++
		t := m.tasks[ev.Task]
		if t.fire != nil {
			continue
		}
		j, ok := seen[t.ID]
		if !ok {
			j = len(ran)
			seen[t.ID] = j
			ran, effect, steps = append(ran, t), append(effect, false), append(steps, 0)
		}
		effect[j] = effect[j] || ev.Flag&trace.FlagRead == 0 && ev.Kind != trace.KindStart
		steps[j]++
	}
	spun = make([]bool, len(ran))
	need := min(m.pollSteps, max(16, n/(2*max(len(ran), 1))))
	for j := range ran {
		spun[j] = !effect[j] && steps[j] >= need
	}
	return ran, spun
}

// computing reports whether ran, the tasks that ran the steps from step
// from on, are a computation of several tasks rather than a livelock: none
// of them spun there (ran many steps that only loaded: it waits on a flag),
// none polled there, and none was woken there twice by another
// (tasks that hand each other work back and forth), unless a task ended
// within the last step limit's steps (the work gets done, which a
// livelock's never does). Sixty-four goroutines that each add to a striped
// counter ten thousand times with a compare-and-swap take that long and
// end; goroutines that spin, poll, or answer each other without end do not
// qualify.
func (m *machine) computing(ran []*Task, spun []bool, from int) bool {
	if len(ran) < 2 {
		return false
	}
	handoffs := false
	for i, t := range ran {
		if spun[i] || t.pollAt > from {
			return false
		}
		handoffs = handoffs || t.wokeBefore > from
	}
	return !handoffs || m.endAt > 0 && m.endAt >= m.step-m.softSteps
}

// busyFailure is the failure at the hard bound: which tasks (ran) ran the
// last busyWindow steps.
func (m *machine) busyFailure(ran []*Task) *Failure {
	head := fmt.Sprintf("no end after %s (the step limit is %d steps)", m.stepsText(), m.softSteps)
	if len(ran) == 1 {
		t := ran[0]
		at := ""
		if t.op.PC != 0 {
			at = ", at " + Where(t.op.PC)
		}
		return &Failure{Kind: StepLimit, Task: t.ID, PC: t.op.PC, Message: fmt.Sprintf(
			"%s: %s ran alone in the last %d steps%s: a loop that does not end, or a computation longer than the limits (not goroutines keeping each other busy; raise the step limit if it is meant to take this long)",
			head, t.Name, min(busyWindow, m.step), at)}
	}
	slices.SortFunc(ran, func(a, b *Task) int { return int(a.ID - b.ID) })
	names := make([]string, len(ran))
	for i, t := range ran {
		names[i] = t.Name
	}
	return &Failure{Kind: StepLimit, Task: -1, Message: fmt.Sprintf(
		"%s, of which the last %d were scheduled fairly: a livelock: %s kept each other busy in the last %d steps (or raise the step limit)",
		head, max(m.step-m.fairFrom, 0), strings.Join(names, ", "), min(busyWindow, m.step))}
}
