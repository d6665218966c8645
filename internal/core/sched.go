package core

import (
	"fmt"

	"github.com/morpheus-go/morpheus/trace"
)

// The hand-off: the state machine (machine.go) decides which task's
// op runs next; the methods here carry its decisions out on the tasks'
// carriers. The running task posts its op and asks for a decision (Do); if
// the machine picked another task's op, the running task hands control over
// (await). A task that returns asks for the next decision itself
// (Task.main); a runtime-owned task's action runs in place (pick).
//
// Handing over is a coroutine switch. A carrier yields to whoever resumed
// it, so the tasks that resumed one another form a chain, rooted at the
// worker: every task on it (chained) waits inside its call that resumed the
// next. The running task resumes the picked task directly when that task is
// off the chain (one switch, not two through the worker: a ping-pong
// between two tasks switches once per hand-over), and yields when the picked
// task is on the chain below it (or nothing is picked, or the chain is
// maxChain deep): each task the yield reaches passes control on the same
// way, until the picked one runs. The chain's depth bounds what a yield
// down it costs.

// Spawn creates a task that runs body. Its first step is a start op, enabled
// at once; as it touches nothing, the built-in strategies run it at once
// (strategy.Local) and their first decision about the task is its first
// real op. parent is nil for the main task.
func (r *Run) Spawn(parent *Task, name string, key uint64, body func()) *Task {
	t := r.m.spawn(parent, name, key)
	t.run = r
	t.body = body
	return t
}

// SpawnTimer creates a runtime-owned task whose single op, of the given kind,
// becomes enabled when the clock reaches deadline; fire runs, given the
// timer's task, when it is picked (a function without captured state, which
// costs no allocation, can serve every timer: t.Ext holds the layer's state).
func (r *Run) SpawnTimer(parent *Task, name string, kind trace.Kind, deadline int64, pc uintptr, fire func(t *Task)) *Task {
	t := r.m.spawnTimer(parent, name, kind, deadline, pc, fire)
	t.run = r
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

// Do schedules op as the pending op of t, the running task, and returns when
// the strategy picks it; the caller then performs the op. It reports whether a
// blocked op was picked because its deadline passed (a time-out).
func (r *Run) Do(t *Task, op Op) (timedOut bool) {
	if t.killed() || r.m.over() || r.w.Abandoned() || (r.w.alarm.Load() != nil && r.alarmed()) {
		r.m.abort()
		panic(unwind{})
	}
	if t != r.cur {
		r.fail(&Failure{Kind: Panic, Task: r.cur.ID, PC: op.PC, Message: fmt.Sprintf(
			"op %v of task %s called while task %s runs: morpheus operations must be called from their own task, not from an uncontrolled goroutine",
			op.Kind, t.Name, r.cur.Name)})
		panic(unwind{})
	}
	if !r.m.post(t, &op) {
		r.m.pend(t)
	}
	n := r.m.decide() // pick's first round, inline: the common case costs one call
	if n != nil && n.fire != nil {
		r.runFire(n)
		n = r.pick()
	}
	if n != t {
		r.next = n
		if r.await(t) {
			panic(unwind{}) // here, not in await: a frame less to unwind
		}
	}
	return t.op.Blocked
}

// maxChain bounds the chain of tasks that resumed one another directly (see
// the hand-off above). Deeper, a task yields instead: two switches, as
// through the worker, and a yield down the chain passes at most this many.
const maxChain = 4

// await passes control on from t, the task whose carrier runs, until the
// machine picks t (r.next is t); then t runs on. It reports whether t must
// unwind instead (its caller panics unwind): t is killed or the iteration
// is over when t is resumed. The caller panics rather than await, so that
// the unwinding (at the end of every iteration, of every task still
// waiting) has a frame less to walk.
func (r *Run) await(t *Task) (unwinding bool) {
	for {
		n := r.next
		if n == nil || n.carrier != nil && n.carrier.chained || r.depth >= maxChain {
			// Yield to whoever resumed t: the worker, or the task below
			// it on the chain, which passes control on.
			if !t.carrier.yield(struct{}{}) || t.killed() || r.m.over() {
				return true
			}
		} else {
			c := t.carrier
			c.chained = true
			r.depth++
			r.switchTo(n)
			r.depth--
			c.chained = false
			if t.killed() && r.next == t {
				return true // killed while chained (see Kill)
			}
			r.w.publish(t) // back from n: t runs (a yield's resumer published t)
		}
		if r.next == t {
			r.next = nil
			return false
		}
	}
}

// Unblock marks t's pending op as enabled.
func (r *Run) Unblock(t *Task) { r.m.unblock(t) }

// Cancel removes a runtime-owned task (a timer) before it fires.
func (r *Run) Cancel(t *Task) {
	if t.state == taskDone {
		return
	}
	r.m.finish(t)
}

// Fail ends the iteration with a failure of the running task and unwinds it.
func (r *Run) Fail(kind FailureKind, pc uintptr, msg string) {
	r.fail(&Failure{Kind: kind, Task: r.cur.ID, PC: pc, Message: msg})
	panic(unwind{})
}

// Hold records a failure of task t, located at pc, without
// ending the iteration: as go test's t.FailNow runs the test's deferred
// calls and cleanups before the test ends, the main task winds down under
// control, and the iteration fails with this failure (its step the step
// now) however it then ends: by FailOf, or by a deadlock, a leak or the
// step limit of the wind-down. The first Hold wins.
func (r *Run) Hold(kind FailureKind, t *Task, pc uintptr, msg string) {
	if r.m.held == nil && r.m.failure == nil {
		r.m.held = &Failure{Kind: kind, Task: t.ID, PC: pc, Message: msg, Step: r.m.step}
	}
}

// FailOf ends the iteration with a failure that task t reported earlier
// (a rewritten test's t.Error, raised when its body returns) and unwinds
// the running task.
func (r *Run) FailOf(kind FailureKind, t *Task, pc uintptr, msg string) {
	r.fail(&Failure{Kind: kind, Task: t.ID, PC: pc, Message: msg})
	panic(unwind{})
}

// fail ends the iteration with f (see machine.fail): no task runs after the
// running one.
func (r *Run) fail(f *Failure) {
	r.m.fail(f)
	r.next = nil
}

// pick carries out the machine's decisions (decide) until one is a task to
// resume: a runtime-owned task's action runs in place. It returns nil when
// the iteration is over (passed or failed).
func (r *Run) pick() *Task {
	t := r.m.decide()
	for t != nil && t.fire != nil {
		r.runFire(t)
		t = r.m.decide()
	}
	return t
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
	t.fire(t)
}

// Choose runs a controlled choice op of t and returns a value in [0, n).
func (r *Run) Choose(t *Task, n int, pc uintptr) int {
	if n <= 0 {
		r.Fail(Panic, pc, fmt.Sprintf("choose among %d values", n))
	}
	r.Do(t, Op{Kind: trace.KindChoose, Obj: -1, Val: int64(n), PC: pc})
	v, ok := r.m.choose(n)
	if !ok {
		panic(unwind{})
	}
	r.Event().Val = int64(v)
	return v
}

// switchTo resumes t's carrier (a fresh one if t has not started) and
// returns when it yields back: t yielded (await) or ended.
func (r *Run) switchTo(t *Task) {
	if t.carrier == nil {
		t.carrier = r.w.pool.get()
		t.carrier.task = t
		t.carrier.chained = false
		t.goid = t.carrier.goid
	}
	prev := r.cur
	r.cur = t
	r.w.publish(t)
	t.carrier.next()
	r.cur = prev
	if t.state == taskDone && t.carrier.task == nil {
		if t.carrier.dead {
			r.w.pool.discard(t.carrier)
		} else {
			r.w.pool.put(t.carrier)
		}
		t.carrier = nil
	}
}

// Kill ends task t: a pending task is unwound at once (its deferred calls
// run, its ops panic) and Kill returns after it, a task not yet started is
// dropped. Killing the running task unwinds the caller at once.
func (r *Run) Kill(t *Task) {
	if t.state == taskDone {
		return
	}
	if t == r.cur {
		r.m.kill(t, true)
		panic(unwind{})
	}
	r.m.kill(t, false)
	if t.carrier == nil {
		r.m.finish(t)
		return
	}
	if !t.carrier.chained {
		r.switchTo(t)
		return
	}
	// t waits on the chain below the running task: control must go down to
	// it (await yields toward it), it unwinds, and its end hands control
	// back to the task whose carrier runs here (Task.main), which goes on
	// from here. That task is the running one, or the one on whose carrier
	// a timer's action runs; a chained t means the caller is not the worker.
	k, cur := CurrentTask(), r.cur
	t.killer = k
	r.next = t
	if r.await(k) {
		panic(unwind{})
	}
	r.cur = cur // a timer's action may be the killer
}

// teardown unwinds every task that has not finished.
func (r *Run) teardown() {
	r.m.abort()
	for _, t := range r.m.all() {
		if t.state != taskDone {
			r.Kill(t)
		}
	}
}

// Exit ends the running task early with a reason: its deferred calls run,
// then its exit op, then the exit hook with the reason.
func (r *Run) Exit(reason any) { panic(exitSignal{reason}) }

// SetOnExit installs the hook run after t's exit op, and the resource the
// exit op touches (observers of the task's end, such as monitors, use it).
// The hook is given the task, so that a function without captured state
// (which costs no allocation) can serve every task: t.Ext holds the layer's
// state.
func (t *Task) SetOnExit(res uint32, f func(t *Task, reason any)) {
	t.exitRes = res
	t.onExit = f
}
