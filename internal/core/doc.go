// Package core is the controlled runtime: it runs one test iteration as a set
// of tasks of which exactly one executes at a time, and lets a strategy decide
// at every operation (op) which task goes next.
//
// # Tasks and ops
//
// A task is user code (a process, a goroutine, the test's main function) or a
// runtime-owned action such as a timer. Before a task performs an op that other
// tasks could observe (send, receive, spawn, sleep, choose, ...), it calls
// Run.Do with a description of the op. Do records the op as the task's pending
// op, asks the strategy to pick among all enabled pending ops (a
// strategy.LocalFirst's local op, such as a start, runs without asking), and
// returns only when this one was picked; the caller then performs the op's
// effect.
// While the picked op belongs to the same task, no switch happens at all.
//
// # Deciding and switching
//
// The scheduler is two layers. What it decides is a state machine (the type
// machine, in machine.go and decide.go) with no coroutines in it: it is told
// of events (a task is spawned, the running task posts its next op, blocked
// or not, with or without a deadline, an op is unblocked, a task returns)
// and asked for the next decision: the task whose op runs next, or the end
// of the iteration with its outcome. It owns the enabled set, the virtual
// clock, step numbering and the step and clock limits, the fair tail, early
// timers and the end-of-iteration checks (pass, deadlock, stuck, leaks), and
// it records every step and clock jump in the trace (of a long iteration, if
// Config.Window allows, the latest events and every step's schedule).
// Tests drive it from scripts of events, with golden transcripts
// (testdata/sched), and drive the same scripts through the hand-off
// (Run.Do, tasks on carriers), which must write the same transcripts.
//
// Run holds the machine as a field (Run.m), and the hand-off reaches it
// only through these methods (boundary.go and machine.go):
//
//   - events: spawn (the main task when it has no parent), spawnTimer,
//     post (an op's first half, inlined into Run.Do; pend the rest),
//     unblock, finish, kill, fail, abort (the teardown), notePoll,
//     waitIdle, ranAlone (an access of a task alone, alone.go);
//   - the decision: decide, and choose (a Choose op's value);
//   - the iteration: reset, begin (the strategy's Begin), end (its last
//     steps; whether it reads the trace), window;
//   - the layer's hooks: setDescribe, setLive, setBeats, widenClock;
//   - what it knows: now, steps, wall, readWall, virtual, exactClock,
//     task, all, notOver (how many tasks are not over), mainTask, failed, over,
//     strategy, recorder (the trace), lastStep and event (the latest
//     step's event), clockLimit.
//
// The runtime above (the root package, rt, csync, internal/prim,
// internal/ctl, internal/explore) reaches an iteration only through Run's
// exported methods, never the machine: ops (Do, Choose, Spawn, SpawnTimer,
// Unblock, Cancel, Kill, Exit, Fail, FailOf, WaitIdle, NotePoll,
// ReadClock), the trace and the race check (Event, AddMsg, NewResource,
// Access, Alone, RaceAccess, RaceSync), what it reads (Now, Wall, ReadWall,
// Virtual, Step, Current, Main, Task, Tasks, Failed, Gen, Seed, Trace,
// Schedule) and the layer's hooks (SetDescribe, SetLiveness, Layer, Local,
// TimerName, ExactClock, WidenClockLimit).
//
// The hand-off (sched.go) carries the decisions out. Tasks run on carriers:
// coroutines made with iter.Pull and pooled per worker, so a switch is a
// coroutine transfer (tens of nanoseconds, no allocation) and an iteration
// creates no goroutines in steady state. A task that must wait resumes the
// task the machine picked itself, one switch, and the tasks that resumed one
// another form a short chain rooted at the worker's goroutine; when the task
// picked is on that chain, control goes back down it (sched.go explains the
// bound on its depth, and how a kill reaches a task on it). A
// runtime-owned task's action runs in place.
//
// # A task's states
//
// A task is in one state (Task.state, task.go): its pending op and which of
// the machine's sets holds it, or that it runs, unwinds or is over. The
// transitions, and the event that makes each:
//
//	from                         to                      event
//	(none)                       new                     spawn: its start op pending, enabled
//	(none)                       enabled, timed          spawnTimer: its op due, or a deadline ahead
//	new, enabled, timed          running                 decide picks a goroutine's op (a timed one early: early.go)
//	enabled, timed               done                    decide picks a timer's op (the caller fires it)
//	running                      enabled, parked, timed  post (Run.Do): its next op, enabled or blocked
//	parked, timed                enabled                 unblock; timed also when the clock reaches its deadline
//	new, enabled, parked, timed  killed                  Run.Kill by another task, or the teardown
//	running                      killed, self-killed     Run.Kill by another task; of itself
//	running, killed, self-killed done                    finish: it returned (after its exit op) or unwound (at once if it never ran)
//	enabled, timed               done                    finish: a timer cancelled (Run.Cancel)
//
// New differs from enabled only in that the task has not run yet (a leak
// report says so; WaitIdle orders only tasks that ran). A killed task's op
// is withdrawn when it is killed, and its stack unwinds before it is done;
// a self-killed one schedules the next task when it is (no killer waits).
// Whether a task waits on the hand-off's chain (sched.go) is a fact of
// its carrier (carrier.chained), not a state of the task.
//
// # Time
//
// Virtual time advances only when no op is enabled: the clock jumps to the
// nearest deadline of a blocked op (a timer, a sleep, a receive time-out).
// Beyond the clock limit nothing fires and the run ends as stuck.
//
// # End of an iteration
//
// An iteration passes when the main task has returned and no op is enabled at
// the current time, unless spawned tasks are still blocked then: the clock
// then moves on through their deadlines and the timers', and tasks still
// blocked when nothing more can happen, at the clock limit or at the step
// limit are leaks (leak.go; runtime-owned tasks and daemons such as actor
// processes never are; Config.AllowLeaks turns the check off). It fails on an
// assertion, a panic in any task, a deadlock (main task blocked, nothing can
// run or fire), a leak, the step limit, the clock limit, a replay divergence,
// or a task that does not come back to the scheduler within the watchdog's
// wall-clock limit. All remaining tasks are then unwound (their deferred
// calls run) so that no goroutine outlives the iteration.
package core
