package core

import "github.com/morpheus-go/morpheus/internal/plural"

// A task that runs alone. A plain-memory access of rewritten code is an op
// (Access) so that the strategy can run another task before it and the
// detector can check it. While the running task is the only task of the
// iteration that is not over, and every access of every task that ended is
// ordered before it (its clock holds the ended task's own entry at that
// task's latest access, hb.Races.Covers: it joined the task, through a
// WaitGroup, a channel, a lock, or transitively), neither has a use: no
// other task can run, so there is no choice to make, and no access can race
// with it.
//
//   - Not with an earlier one: every access of another task so far is
//     checked by the detector, which orders it before this one; a task with
//     no access (a timer's firing: what it runs, an AfterFunc's f, is a task
//     of its own) is no matter.
//   - Not with a later one: a task that runs after it is made after it, by a
//     step of this task (a go statement, a timer's setting, an AfterFunc) or
//     of a task made so, and every such making orders the new task's steps
//     after the maker's (a spawn edge); the task's own later accesses follow
//     it in program order.
//
// So such an access runs without an op (Alone says AloneSkip) and is not
// noted for the detector either: a computation of one goroutine after its
// workers joined (sorting the pointers they made, walking a tree they
// built) runs at nearly the speed of plain Go instead of a step, about a
// microsecond, per access. A task whose ended peers are not ordered before
// it (a goroutine that ended while main slept, without a join) still has its
// every access checked, as before.
//
// What the steps gave is kept, or given otherwise:
//
//   - the bounds: every aloneRun-th access alone is a step (below), and
//     the step limit, its hard and solo bounds and the start of the fair
//     walk count steps, so a loop alone that never ends still fails there,
//     at a step per aloneRun accesses, with a report that counts its
//     accesses alone (stepsText). The accesses themselves count towards no
//     bound: a computation of one goroutine is no livelock however long it
//     runs (ristretto's z builds B-trees alone for half a minute of plain
//     Go, hundreds of millions of accesses; counted as steps, they ran into
//     the solo bound), as accesses to memory of a task's own, steps too
//     before their rule, count towards none.
//   - the watchdog: every aloneRun-th access alone is a step again
//     (AloneStep), so the task comes back to the scheduler and the watchdog
//     sees it move; a task that loops without even a memory access is caught
//     by the watchdog, as before.
//   - the clock: it moves with steps only through the drift, and only while
//     a deadline is pending, which none is while the task runs alone (a
//     pending timer is a task that is not over); accesses alone count
//     towards the drift's next step, as steps would.
//   - determinism: whether a task runs alone is worked out at its first
//     access after each step, from the iteration's tasks and the detector's
//     clocks, both functions of the schedule's steps, so a replay skips
//     exactly the accesses the recorded run skipped, and makes its steps at
//     the same accesses. A trace recorded before this rule existed has a step
//     per such access and no longer replays.
//
// Where races are not checked (allowed, or past MaxRaceTasks) being the only
// task left is enough: nothing is checked and there is no choice to make.

// aloneRun is how many accesses a task alone runs between two steps of its
// own: the watchdog sees it move at least that often.
const aloneRun = 1 << 12

// Alone is how a plain-memory access of the running task runs (Run.Alone).
type Alone uint8

const (
	// AloneNo: the task does not run alone: the access is as any other.
	AloneNo Alone = iota
	// AloneSkip: the task runs alone: the access is no op and is not
	// checked (it cannot race).
	AloneSkip
	// AloneStep: the task runs alone, but has run aloneRun accesses since
	// its last step: this one is an op (Access), which comes back to the
	// scheduler.
	AloneStep
)

// aloneState is a run's view of the task that runs alone.
type aloneState struct {
	at   int  // the event (machine.last) the state was worked out at
	ok   bool // the running task ran alone there
	left int  // accesses it may run without a step
	// task is the task the tasks before cover are known to be ordered
	// before (or are task itself): an ended task stays ordered before it,
	// since its clock only grows.
	task  int32
	cover int
}

// Alone tells how t's plain-memory access runs, and counts it if it runs
// alone. t is the running task.
func (r *Run) Alone(t *Task) Alone {
	a := &r.alone
	if a.at != r.m.lastStep() {
		r.aloneCheck(t)
	}
	if a.left > 0 {
		a.left--
		r.m.ranAlone()
		return AloneSkip
	}
	if a.ok {
		return AloneStep
	}
	return AloneNo
}

// aloneCheck works out whether t, the running task, runs alone at the
// latest step.
func (r *Run) aloneCheck(t *Task) {
	a := &r.alone
	a.at, a.ok, a.left = r.m.lastStep(), false, 0
	if r.m.over() || r.m.notOver() != 1 || t.state != taskRunning {
		return
	}
	if !r.race.off {
		// Up to date with every event and note: a race it finds is the
		// access's to report, as an op (the access goes on as any other).
		if _, found := r.race.check(r); found {
			return
		}
	}
	if !r.race.off {
		if a.task != t.ID {
			a.task, a.cover = t.ID, 0
		}
		tasks := r.m.all()
		for ; a.cover < len(tasks); a.cover++ {
			if u := tasks[a.cover]; u != t && !r.race.det.Covers(t.ID, u.ID) {
				return
			}
		}
	}
	a.ok, a.left = true, aloneRun
}

// ranAlone counts an access run alone (Run.Alone), for the report and
// the clock's drift, from the next decision on (countAlone).
func (m *machine) ranAlone() { m.aloneDue++ }

// notOver returns the number of tasks that are not over (timers included).
func (m *machine) notOver() int { return len(m.tasks) - m.ended }

// countAlone counts the accesses run alone since the last step (aloneDue)
// in all (alone) and as steps towards the clock's drift (decide calls it);
// the bounds count the iteration's steps only.
func (m *machine) countAlone() {
	n := m.aloneDue
	m.aloneDue = 0
	m.alone += n
	m.driftAt -= n
	m.checkAt = min(m.limitAt, m.driftAt)
}

// stepsText is how many steps the iteration ran, for failures: with the
// accesses run alone, when there were some.
func (m *machine) stepsText() string {
	if m.alone == 0 {
		return plural.N(m.step, "step")
	}
	return plural.N(m.step, "step") + " and " + plural.N(m.alone, "plain-memory access") + " of a task running alone"
}
