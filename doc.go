// Package morpheus finds concurrency and fault-handling bugs in distributed
// systems by running their tests many times under a controlled scheduler.
//
// In each iteration exactly one task (a process, or the test itself) runs at
// a time. At every operation that other tasks could observe — a send, a
// receive, a spawn, a timer, a controlled choice — the task stops and an
// exploration strategy picks which enabled operation runs next. The same
// seed gives the same schedule, so every failure comes with a trace that
// replays it exactly.
//
// # A first test
//
//	func TestCounter(t *testing.T) {
//		morpheus.Check(t, func(e *morpheus.Env) {
//			n := e.NewNode("n1", nil)
//			store := n.Spawn("store", storeLoop)        // a process on node n1
//			e.Send(store, Put{Key: "k", Value: 1})      // asynchronous send
//			e.Send(store, Get{Key: "k", From: e.Self()})
//			v := morpheus.Recv[int](e)                  // selective receive by type
//			e.Assert(v == 1, "read %d after write", v)
//		})
//	}
//
// Check runs 1000 iterations on all cores. On a failure it fails the test with
// the failure's kind, message and location, the last steps of the trace, and
// the command that replays it; the trace is kept under
// testdata/morpheus/<TestName>/ and replayed first by every later go test run,
// like a fuzzing corpus. A saved trace that the code no longer follows (once
// the bug is fixed, typically) passes, and go test -v lists it as stale.
//
// An iteration of more than 65,536 events keeps only its latest events and,
// of every step, what a replay follows (its task, kind and choice), so that
// millions of steps cost memory that stays in the cache. If it fails, its
// whole trace is rebuilt by replaying that schedule; should the replay not
// fail the same way (the test is not a function of its schedule), the
// failure is reported with the events kept and a note saying so. Runs that
// read every event keep them all: with Coverage on, or while the data-race
// check of rewritten code runs.
//
// # The actor world
//
// Nodes (NewNode) are simulated machines: their processes crash together
// (Node.Crash) and a node's start function runs again on Node.Restart.
// Processes (Spawn) have a mailbox: Send is asynchronous and messages from one
// process to another arrive in order; Receive takes the first message that
// matches, leaving the others in order (Erlang's selective receive). Names are
// registered per node (Register, Whereis). Watch (Erlang's monitor) delivers a
// Down message when a process exits or its node crashes; Link ties two processes' lives together
// unless they trap exits (TrapExits, ExitSignal); Exit and Kill end processes
// with a reason.
//
// # Time
//
// Time is virtual. Sleep, SendAfter and ReceiveTimeout set deadlines; when no
// operation can run, the clock jumps to the nearest deadline, so a test that
// waits an hour takes microseconds. Past the clock limit (ClockLimit) nothing
// fires, and a test whose main task still waits fails as stuck.
//
// # Specifications
//
// Monitors (AddMonitor; not to be confused with Watch, which watches one
// process) are P#'s specification monitors: global observers of
// the events the system announces (Announce). A safety monitor asserts on its
// own state (Mon.Assert). A liveness monitor is hot while progress is owed
// (Mon.Hot) and cold once it happened (Mon.Cold); while one is hot the
// iteration goes on (timers keep firing, and after the main task returned the
// schedule is a fair random walk), and a monitor still hot when nothing more
// can happen, at the clock or step limit, or beyond its HotLimit, is a
// liveness failure.
//
// # Faults
//
// SetFaults makes the network between nodes drop, duplicate, delay or reorder
// messages, each fault a controlled choice within a budget; Partition and Heal
// cut and restore links; Node.Crash and Node.Restart fail machines, Chaos
// lets the strategy decide when; Node.Disk is a durable disk that keeps what
// was synced across crashes. Every fault is in the trace and replays.
//
// Faults.Only keeps the network's faults to the messages a test means them
// for, so that a liveness test of replication is not "passed" or "failed" by
// its own client request: by link (OneWay, Between), by process (Involving,
// Named), by type (OfType), or by any func(Msg) bool, inverted by Not. The
// zero value selects every message between nodes. A message Only excludes
// travels as if there were no faults and costs no choice. Partitions cut
// every message across them, selected or not. Each fault decision reads as
// what it did in the trace's rendering, a failure's last steps and the HTML
// report: "primary@n1 choose drop → backup@n2 {N:1}", then the send.
//
// # Failures
//
// An iteration fails on an assertion (Env.Assert, Env.Fatalf), a panic in any
// task (reported with its stack), a deadlock (the main task waits and nothing
// can run: the report lists what every task waits for), a leak (a goroutine
// started with csync.Go still blocked when the test has returned and nothing
// can run or fire any more: see AllowLeaks), the step limit (a livelock:
// see Fairness), the clock limit, a replay that leaves its trace (a stale
// trace, recorded on different code; or nondeterminism in the test, if it
// leaves even a schedule it has just run), or a task that blocks on
// something morpheus does not control,
// such as a real channel or lock: a watchdog reports it with its stack instead
// of hanging, and the trace of its steps before the block (the iteration run
// again up to there, with what the strategy had learned by then; a
// systematic search's iteration past its first, which follows from all those
// before it, is reported without one). When an iteration ends, its remaining tasks are unwound (their
// deferred calls run) and no goroutine survives it.
//
// # Fairness
//
// Strategies are unfair on purpose: PCT, POS and their kin find bugs by
// letting one task run far ahead of others. Code that spin-waits (polls an
// atomic until another goroutine sets it, retries a CAS, spins on a lock)
// is correct only under fair schedules, and an unfair strategy could keep
// the spinning task running while the one it waits for never gets a step.
// So unfairness is bounded, as in Coyote: an iteration's first tenth of its
// step limit (10,000 of the default 100,000 steps) is scheduled by the
// strategy, the rest by a random walk that starves no task. A correct spin
// loop then ends soon after the bound, and a step-limit failure means that
// no fair schedule ends either: the report says how many of its steps were
// scheduled fairly. The fair steps are steps of the trace like any other
// and replay as such. Past the step limit an iteration runs on, on the
// walk, to ten times it: a correct test that is merely long (a pool fed a
// hundred thousand jobs) passes, and the failure at the hard bound says
// whether tasks kept each other busy (a livelock) or one ran alone (a loop
// that does not end, no concurrency bug; one that ran alone without polling
// may be a long computation, as may tasks that each stored there without
// polling or waking each other back and forth, and tasks that keep coming
// to rest on timers are paced work: all run on to a hundred times the limit
// first). A task that polls (a select with
// a default, csync.Sleep(0), reading csync.Now again and again) while the
// others wait for a deadline moves the virtual clock (see csync.Now), so
// waiting by polling ends without the step limit.
//
// # Determinism
//
// Iteration i of a run uses a seed derived from the base seed and i alone, and
// tasks run one at a time, so an iteration is a pure function of the test, the
// options and its seed, whatever the number of workers. When several workers
// find failures, the lowest iteration is reported. Tests must not draw on
// other sources of nondeterminism: use Env.Choose instead of math/rand, and
// Env.Now instead of time.Now.
//
// # Settings
//
// Options in code (Iterations, Strategy, Seed, ...) are overridden by the
// MORPHEUS_* environment variables, which are overridden by the test binary's
// -morpheus.* flags. Every Option a command line can express has a flag and a
// variable named after it: Verbose is -morpheus.verbose (alias -morpheus.v)
// and MORPHEUS_VERBOSE, Coverage -morpheus.coverage and MORPHEUS_COVERAGE,
// and so on; only Name and ScaledDuration are code only. README.md
// lists them all in one table, which a test keeps in step with the code.
// -morpheus.iterations=0 means unlimited: the run goes on until a failure, a
// -morpheus.duration budget or an interrupt.
//
// # Interrupts
//
// A SIGINT or SIGTERM (^C) while Check or Explore explores stops the run
// gracefully, as a spent time budget does: no iteration starts any more,
// the running ones finish (those still running a couple of seconds later
// are abandoned, uncounted), and the run ends as usual: Check saves the
// trace of a failure found so far (not shrunk), writes its result record
// with "interrupted": true (Result.Interrupted), and fails the test with a
// summary of what was done; later Checks in the process are skipped. A
// second signal exits at once, with status 130 after a SIGINT and 143 after
// a SIGTERM (128 + the signal's number, as a shell shows a process the
// signal ended). Signals are handled only
// while an exploration runs, and get their default behaviour back after.
//
// # Shrinking, coverage and shards
//
// A reported failure is shrunk (see ShrinkStats and the Shrink option): the
// failure Check reports and saves is the simplest schedule found that fails
// the same way. A liveness failure at the clock limit whose run ends
// repeating one cycle (retries to a crashed server) is cut at a lower clock
// limit, a few cycles into the repetition (ShrinkStats.ClockLimit); its
// trace records that limit and replays with it. A long failing trace is
// reported with its key events first and each run of a repeated cycle
// folded into one line (trace.Highlights, trace.RenderFolded). A run can
// count the distinct partial orders of its
// iterations (the Coverage option, Result.PartialOrders). Shard splits a run's
// iterations across processes; their result files (-morpheus.results) merge
// into the whole run's with the morpheus command (morpheus merge).
package morpheus
