package core

import (
	"fmt"
	"strings"

	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// Spawn creates a task that runs body. Its first step is a start op, enabled
// at once; as it touches nothing, the built-in strategies run it at once
// (strategy.Local) and their first decision about the task is its first
// real op. parent is nil for the main task.
func (r *Run) Spawn(parent *Task, name string, key uint64, body func()) *Task {
	t := r.newTask(parent, name, key)
	t.body = body
	t.op = Op{Kind: trace.KindStart, Obj: -1}
	if parent != nil {
		t.SpawnPC = parent.op.PC
		r.gos = append(r.gos, t)
	}
	r.pend(t)
	return t
}

// SpawnTimer creates a runtime-owned task whose single op, of the given kind,
// becomes enabled when the clock reaches deadline; fire runs when it is picked.
func (r *Run) SpawnTimer(parent *Task, name string, kind trace.Kind, deadline int64, pc uintptr, fire func()) *Task {
	t := r.newTask(parent, name, ChildKey(parent))
	t.fire = fire
	t.op = Op{Kind: kind, Obj: -1, Blocked: true, HasDeadline: true, Deadline: deadline, PC: pc}
	r.pend(t)
	return t
}

// ChildKey returns the stable identity of parent's next child: its creation
// path (parent identity, child index).
func ChildKey(parent *Task) uint64 {
	if parent == nil {
		return hashString(0, "root")
	}
	return mix(parent.Key ^ mix(parent.nchild+1))
}

func (r *Run) newTask(parent *Task, name string, key uint64) *Task {
	t := &Task{ID: int32(len(r.tasks)), Parent: -1, Name: name, Key: key, run: r}
	if parent != nil {
		t.Parent = parent.ID
		parent.nchild++
	}
	r.tasks = append(r.tasks, t)
	return t
}

// pend makes t's op pending. An op blocked without a deadline cannot be
// enabled before Unblock, so it is parked: collect, which runs at every step,
// does not look at it. Other pending ops are kept in creation order, so that
// enabled sets are presented to strategies deterministically.
func (r *Run) pend(t *Task) {
	t.hasOp = true
	if t.op.Blocked && !t.op.HasDeadline {
		t.parked = true
		return
	}
	r.insertPending(t)
}

// insertPending adds t to the pending list at its place in creation order.
func (r *Run) insertPending(t *Task) {
	i := len(r.pending)
	r.pending = append(r.pending, t)
	for i > 0 && r.pending[i-1].ID > t.ID {
		r.pending[i] = r.pending[i-1]
		r.pending[i].slot = i
		i--
	}
	r.pending[i] = t
	t.slot = i
}

// unpend removes t's pending op.
func (r *Run) unpend(t *Task) {
	if !t.hasOp {
		return
	}
	t.hasOp = false
	if t.parked {
		t.parked = false
		return
	}
	i := t.slot
	copy(r.pending[i:], r.pending[i+1:])
	r.pending = r.pending[:len(r.pending)-1]
	for j := i; j < len(r.pending); j++ {
		r.pending[j].slot = j
	}
}

// Do schedules op as the pending op of t, the running task, and returns when
// the strategy picks it; the caller then performs the op. It reports whether a
// blocked op was picked because its deadline passed (a time-out).
func (r *Run) Do(t *Task, op Op) (timedOut bool) {
	if t.killed || r.aborting || r.w.Abandoned() {
		r.aborting = true
		panic(unwind{})
	}
	if t != r.cur {
		r.fail(&Failure{Kind: Panic, Task: r.cur.ID, PC: op.PC, Message: fmt.Sprintf(
			"op %v of task %s called while task %s runs: morpheus operations must be called from their own task, not from an uncontrolled goroutine",
			op.Kind, t.Name, r.cur.Name)})
		panic(unwind{})
	}
	t.op = op
	t.opKey = 0
	r.pend(t)
	n := r.pick()
	if n != t {
		r.next = n
		if !t.carrier.yield(struct{}{}) || t.killed || r.aborting {
			panic(unwind{})
		}
	}
	return t.op.Blocked
}

// Unblock marks t's pending op as enabled.
func (r *Run) Unblock(t *Task) {
	t.op.Blocked = false
	if t.parked {
		t.parked = false
		r.insertPending(t)
	}
}

// Cancel removes a runtime-owned task (a timer) before it fires.
func (r *Run) Cancel(t *Task) {
	if t.state == taskDone {
		return
	}
	t.state = taskDone
	r.unpend(t)
}

// Fail ends the iteration with a failure of the running task and unwinds it.
func (r *Run) Fail(kind FailureKind, pc uintptr, msg string) {
	r.fail(&Failure{Kind: kind, Task: r.cur.ID, PC: pc, Message: msg})
	panic(unwind{})
}

// FailOf ends the iteration with a failure that task t reported earlier
// (a rewritten test's t.Error, raised when its body returns) and unwinds
// the running task.
func (r *Run) FailOf(kind FailureKind, t *Task, pc uintptr, msg string) {
	r.fail(&Failure{Kind: kind, Task: t.ID, PC: pc, Message: msg})
	panic(unwind{})
}

func (r *Run) fail(f *Failure) {
	if r.failure != nil {
		return
	}
	f.Step = r.step
	r.failure = f
	r.aborting = true
	r.next = nil
}

// pick asks the strategy for the next op, runs the ops of runtime-owned tasks
// in place, records the step, and returns the task whose op was picked, or
// nil when the iteration is over (passed or failed).
func (r *Run) pick() *Task {
	for !r.aborting {
		if r.step >= r.maxSteps {
			if r.live != nil && r.live.Hot() {
				r.fail(&Failure{Kind: Liveness, Task: -1, Message: fmt.Sprintf(
					"no progress in %d steps:\n%s", r.maxSteps, r.live.Describe())})
				return nil
			}
			if r.main.state == taskDone {
				if gs := r.leaked(); len(gs) > 0 {
					r.fail(r.leakFailure(gs, fmt.Sprintf("still running after the step limit (%d steps)", r.maxSteps)))
					return nil
				}
			}
			msg := fmt.Sprintf("no end after %d steps (a livelock, or raise the step limit)", r.maxSteps)
			if r.fairFrom < r.maxSteps {
				msg = fmt.Sprintf("no end after %d steps, of which the last %d were scheduled fairly: a livelock (or raise the step limit)",
					r.maxSteps, r.maxSteps-r.fairFrom)
			}
			r.fail(&Failure{Kind: StepLimit, Task: -1, Message: msg})
			return nil
		}
		if r.drained() {
			return nil
		}
		if !r.collect() {
			return nil
		}
		if r.live != nil && r.live.Hot() {
			if msg := r.live.Expired(r.clock, r.step); msg != "" {
				r.fail(&Failure{Kind: Liveness, Task: -1, Message: msg})
				return nil
			}
		}
		var i int
		if r.fair() {
			i = r.tail.IntN(len(r.enabled))
		} else {
			i = r.strat.Next(r.enabled)
		}
		if i < 0 || i >= len(r.enabled) {
			r.diverged("Next")
			return nil
		}
		t := r.enabledT[i]
		if op := &t.op; op.Blocked && op.HasDeadline && op.Deadline > r.clock {
			r.fireEarly(op.Deadline)
		}
		r.unpend(t)
		r.step++
		var flag trace.Flag
		if t.op.Read {
			flag = trace.FlagRead
		}
		r.last = r.rec.Append(trace.Event{
			Task: t.ID, Obj: t.op.Obj, Res: t.op.Res, Kind: t.op.Kind,
			Flag: flag, Val: t.op.Val, Loc: uint64(t.op.PC),
		})
		r.w.beat()
		if t.fire != nil {
			t.state = taskDone
			r.runFire(t)
			continue
		}
		return t
	}
	return nil
}

// fair reports whether the next step is picked by a random walk, which
// starves no task, rather than by the strategy (bounded unfairness): past
// Config.FairAfter steps, so that a step limit means no fair schedule
// ends; and in the fair tail, once the test's own work is done and only
// progress a liveness monitor owes keeps the run going, so that a monitor
// that stays hot means no progress, not bad luck. A strategy that follows
// a recorded schedule (a replay, a shrinking guide) picks every step.
func (r *Run) fair() bool {
	if r.step < r.fairFrom && (r.main.state != taskDone || r.live == nil) {
		return false
	}
	f, ok := r.strat.(strategy.Follower)
	return !ok || !f.Following()
}

// runFire runs a runtime-owned task's action, turning a panic (from user code
// it calls, such as a receive's match function) into a failure.
func (r *Run) runFire(t *Task) {
	prev := r.cur
	defer func() {
		r.cur = prev
		if p := recover(); p != nil {
			if _, ok := p.(unwind); !ok {
				r.fail(t.panicFailure(p))
			}
		}
	}()
	r.cur = t
	t.fire()
}

// collect fills the enabled set, advancing the clock if nothing is enabled
// now. It returns false, with the outcome recorded, if the iteration is over.
func (r *Run) collect() bool {
	for {
		r.enabled = r.enabled[:0]
		r.enabledT = r.enabledT[:0]
		next := int64(-1)
		for _, t := range r.pending {
			op := &t.op
			if op.Blocked && !(op.HasDeadline && op.Deadline <= r.clock) {
				if op.HasDeadline && (next < 0 || op.Deadline < next) {
					next = op.Deadline
				}
				continue
			}
			r.offer(t)
		}
		if len(r.enabled) > 0 {
			if r.early > 0 && next >= 0 && next <= r.limit {
				r.offerEarly(next)
			}
			return true
		}
		done := r.main.state == taskDone
		owed := r.live != nil && r.live.Hot()
		if done && !owed {
			// Quiescent after the main task returned: a pass, unless
			// goroutines still wait. Then timers fire on as long as they
			// can (a goroutine that ends after a sleep is no leak).
			gs := r.leaked()
			if len(gs) == 0 {
				return false
			}
			if next < 0 || next > r.limit {
				why := "blocked forever (no task can run and no timer is pending)"
				if next >= 0 {
					why = fmt.Sprintf("still blocked at the clock limit %s (next deadline %s)", fmtNS(r.limit), fmtNS(next))
				}
				r.fail(r.leakFailure(gs, why))
				return false
			}
		} else if next < 0 || next > r.limit {
			switch {
			case owed:
				why := "still hot at the clock limit " + fmtNS(r.limit)
				if next < 0 {
					why = "still hot, and no task can run and no timer is pending"
				}
				r.fail(&Failure{Kind: Liveness, Task: -1, Message: "no progress: a monitor is " + why + "\n" + r.live.Describe()})
			case next < 0:
				r.fail(&Failure{Kind: Deadlock, Task: r.main.ID, Message: r.deadlockReport()})
			default:
				r.fail(&Failure{Kind: ClockLimit, Task: r.main.ID, Message: fmt.Sprintf(
					"stuck: the main task has not finished at the clock limit %s (next deadline %s)\n%s",
					fmtNS(r.limit), fmtNS(next), r.waitReport())})
			}
			return false
		}
		r.clock = next
		r.rec.Append(trace.Event{Task: -1, Obj: -1, Kind: trace.KindClock, Val: next})
		if r.live != nil {
			if msg := r.live.Expired(r.clock, r.step); msg != "" {
				r.fail(&Failure{Kind: Liveness, Task: -1, Message: msg})
				return false
			}
		}
	}
}

// offer adds t's pending op to the enabled set the strategy chooses from.
func (r *Run) offer(t *Task) {
	op := &t.op
	loc := uint64(op.PC)
	if r.stableLocs {
		loc = t.locKey()
	}
	r.enabled = append(r.enabled, strategy.Op{
		Task: t.ID, Kind: op.Kind, Res: op.Res, Read: op.Read,
		Sig: strategy.Sig{Task: t.Key, Loc: loc},
	})
	r.enabledT = append(r.enabledT, t)
}

func (r *Run) diverged(what string) {
	msg := "the strategy could not continue (" + what + ")"
	if d, ok := r.strat.(strategy.Diverger); ok {
		msg = d.Divergence()
	}
	r.fail(&Failure{Kind: Nondeterminism, Task: -1, Message: msg})
}

// Choose runs a controlled choice op of t and returns a value in [0, n).
func (r *Run) Choose(t *Task, n int, pc uintptr) int {
	if n <= 0 {
		r.Fail(Panic, pc, fmt.Sprintf("choose among %d values", n))
	}
	r.Do(t, Op{Kind: trace.KindChoose, Obj: -1, Val: int64(n), PC: pc})
	v := r.strat.Choose(n)
	if v < 0 || v >= n {
		r.diverged("Choose")
		panic(unwind{})
	}
	r.Event().Val = int64(v)
	return v
}

// resume switches to t until it yields back.
func (r *Run) resume(t *Task) {
	if t.carrier == nil {
		t.carrier = r.w.pool.get()
		t.carrier.task = t
		t.state = taskRunning
	}
	prev := r.cur
	r.cur = t
	r.w.publish(t)
	t.carrier.next()
	r.cur = prev
	if t.state == taskDone && t.carrier.task == nil {
		r.w.pool.put(t.carrier)
		t.carrier = nil
	}
}

// Kill ends task t: a pending task is unwound (its deferred calls run, its
// ops panic), a task not yet started is dropped. Killing the running task
// unwinds the caller at once.
func (r *Run) Kill(t *Task) {
	if t.state == taskDone {
		return
	}
	t.killed = true
	if t == r.cur {
		t.selfKilled = true
		panic(unwind{})
	}
	if t.carrier == nil {
		t.state = taskDone
		r.unpend(t)
		return
	}
	r.resume(t)
}

// teardown unwinds every task that has not finished.
func (r *Run) teardown() {
	r.aborting = true
	for _, t := range r.tasks {
		if t.state != taskDone {
			r.Kill(t)
		}
	}
}

// waitReport lists what each blocked task waits for.
func (r *Run) waitReport() string {
	var b strings.Builder
	for _, t := range r.tasks { // creation order, parked ops included
		if !t.hasOp || t.fire != nil {
			continue
		}
		fmt.Fprintf(&b, "  %s: %s\n", t.Name, r.describeWait(t))
	}
	return strings.TrimRight(b.String(), "\n")
}

func (r *Run) deadlockReport() string {
	return "no task can run and no timer is pending; blocked tasks:\n" + r.waitReport()
}

func (r *Run) describeWait(t *Task) string {
	if r.describe != nil {
		if s := r.describe(t); s != "" {
			return s
		}
	}
	op := &t.op
	switch {
	case op.On != nil:
		return fmt.Sprintf("blocked in %v on %v at %s", op.Kind, op.On, Where(op.PC))
	case op.HasDeadline:
		return fmt.Sprintf("waits in %v at %s until %v", op.Kind, Where(op.PC), durationOf(op.Deadline))
	}
	return fmt.Sprintf("waits in %v at %s", op.Kind, Where(op.PC))
}

// fmtNS formats virtual nanoseconds as a duration.
func fmtNS(ns int64) string {
	return fmt.Sprint(durationOf(ns))
}

// Exit ends the running task early with a reason: its deferred calls run,
// then its exit op, then the exit hook with the reason.
func (r *Run) Exit(reason any) { panic(exitSignal{reason}) }

// SetOnExit installs the hook run after t's exit op, and the resource the
// exit op touches (observers of the task's end, such as monitors, use it).
func (t *Task) SetOnExit(res uint32, f func(reason any)) {
	t.exitRes = res
	t.onExit = f
}
