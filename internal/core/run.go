package core

import (
	"sync/atomic"
	"time"

	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// Config sets the limits and the strategy of an iteration.
type Config struct {
	Strategy strategy.Strategy
	Seed     uint64
	// MaxSteps is the step limit; 0 means DefaultMaxSteps. Past it an
	// iteration runs on, on the fair random walk, to HardSteps, where it
	// fails (steplimit.go).
	MaxSteps int
	// HardSteps is where an iteration past its step limit fails; 0 means
	// HardStepsFactor times MaxSteps, which a computation of one task alone
	// or a run resting on timers may pass (SoloStepsFactor); a HardSteps
	// given is exact. It is never below MaxSteps.
	HardSteps  int
	ClockLimit int64 // virtual ns beyond which nothing fires; 0 means DefaultClockLimit
	// AllowLeaks turns leak detection off: goroutines still blocked when the
	// main task has returned and nothing can run are unwound without a
	// report (see leak.go).
	AllowLeaks bool
	// AllowRaces turns off the data-race check of plain-memory accesses
	// (Run.Access, access.go); they stay ops.
	AllowRaces bool
	// EarlyTimers is how many times an iteration may fire its nearest
	// timer, sleep or time-out, if at most a millisecond ahead, while other
	// tasks can still run (early.go);
	// 0: time moves only when nothing can run.
	EarlyTimers int
	// FairAfter bounds the steps of an iteration the strategy picks: from
	// that step on, a random walk picks, which starves no task, so that a
	// step-limit failure means no fair schedule ends (a spin loop waiting
	// for a task the strategy starves ends once the walk runs that task).
	// 0 means a tenth of the step limit; a negative value never.
	FairAfter int
	// Window lets a long iteration drop its older events and message
	// contents (record.Recorder.Window): its trace then holds only its
	// latest events, and Outcome.Schedule is what replays it. It is not
	// applied while the data-race check or a strategy reads the trace.
	Window bool
	// Epoch is the instant the virtual clock starts at (Run.Epoch); the
	// zero time is DefaultEpoch.
	Epoch time.Time
}

// maxLearnEvents bounds the iterations a learning strategy learns from: a
// longer one (a benchmark's million round trips) would cost a
// happens-before pass over all its steps (and, for a TraceReader, a copy of
// its whole trace) for little news.
const maxLearnEvents = 1 << 18

// maxLearnTasks bounds the tasks (goroutines and timers) of an iteration a
// learning strategy learns from: the happens-before pass keeps a vector
// clock per task with an entry per task, so its memory grows with their
// square (a goroutine leaked in a retry loop makes thousands of timers).
// See stepFeed for how the bounds stop the steps a StepReader is handed.
const maxLearnTasks = MaxRaceTasks

// runGen numbers iterations across the process (see Run.Gen): a worker
// takes genBlock numbers at a time, so that workers do not contend for it at
// every iteration.
var runGen atomic.Uint64

const genBlock = 1024

// nextGen returns the worker's next iteration number, unique in the process.
func (w *Worker) nextGen() uint64 {
	if w.gen%genBlock == 0 {
		w.gen = runGen.Add(genBlock) - genBlock + 1 // a fresh block; 0 is no iteration
	}
	g := w.gen
	w.gen++
	return g
}

// Defaults for Config's zero values. DefaultMaxSteps is the one default step
// limit: Check's and Explore's (morpheus.MaxSteps), and ten times it a
// rewritten test's (package rt), whose every memory access is a step.
const (
	DefaultMaxSteps   = 100_000
	DefaultClockLimit = int64(10 * 60 * 1e9) // ten virtual minutes
)

// Run is one iteration in progress: the scheduler's state machine (machine)
// and the hand-off that carries out its decisions on the tasks' carriers
// (sched.go). Its methods are called only by the task that currently runs
// (or by the worker between tasks), never concurrently.
type Run struct {
	m   machine // what is decided (machine.go); the rest is the hand-off
	w   *Worker
	cfg Config

	cur  *Task // the task that runs now
	next *Task // the task picked to run next, until it runs
	// depth is how many tasks are chained: each waits inside its resume
	// of the next (see the hand-off in sched.go, carrier.chained).
	depth int

	gen  uint64 // see Gen
	nres uint32

	msgs msgLog      // message contents by id, for traces
	lt   trace.Trace // the light trace handed to the strategy, reused

	race  raceState  // data races on plain memory (access.go)
	alone aloneState // the task that runs alone (alone.go)

	layer      any               // see Layer
	local      any               // see Local
	timerNames map[string]string // see TimerName
}

// Worker runs iterations one after another and keeps what they can reuse:
// its carrier pool and its buffers. A worker is used by one goroutine.
type Worker struct {
	pool     pool
	run      Run
	watch    *watch                // the watchdog's view of this worker, nil if unwatched
	goexited *Outcome              // see Goexited
	gen      uint64                // the next iteration number of this worker's block (nextGen)
	live     atomic.Uint64         // the number of the iteration running, 0 between (outside.go)
	alarm    atomic.Pointer[alarm] // a failure raised outside the iteration (outside.go)
}

// NewWorker returns a worker.
func NewWorker() *Worker {
	w := &Worker{}
	w.register()
	return w
}

// Close ends the worker's pooled goroutines.
func (w *Worker) Close() { w.pool.drain() }

// Outcome is the result of one iteration.
type Outcome struct {
	Failure *Failure // nil if the iteration passed
	Steps   int
	Clock   int64 // virtual time at the end, in ns
	run     *Run
}

// Trace returns the iteration's trace. It is valid until the worker runs its
// next iteration; the layer above fills the header. Of an iteration that
// dropped events (Wrapped) it holds only the latest ones.
func (o *Outcome) Trace() *trace.Trace { return o.run.Trace() }

// Wrapped reports whether the iteration dropped its older events
// (Config.Window): its full trace is had by replaying its Schedule.
func (o *Outcome) Wrapped() bool { return o.run.m.recorder().Wrapped() }

// Schedule returns a trace of the iteration's steps that a replay (internal/explore's Replay)
// follows (tasks, kinds and choices; no locations, no message contents),
// valid until the worker runs its next iteration.
func (o *Outcome) Schedule() *trace.Trace { return o.run.Schedule() }

// Execute runs one iteration: body is the main task. setup, if not nil, is
// called with the fresh Run once the main task exists and before it starts,
// so the layer above can attach its state and hooks.
func (w *Worker) Execute(cfg Config, setup func(*Run), body func()) Outcome {
	r := &w.run
	w.pool.begin()
	r.reset(w, cfg)
	r.Spawn(nil, "main", hashString(0, "main"), body)
	if setup != nil {
		setup(r)
	}
	r.m.begin(cfg.Seed)
	w.beginWatch(r)
	w.alarm.Store(nil)
	w.live.Store(r.gen)
	defer w.live.Store(0) // after the teardown: no task touches an object after it
	completed := false
	defer func() {
		if !completed {
			// A runtime.Goexit on this goroutine (a task's ends its carrier
			// only: see carrier.goexit; a timer's action runs here): it
			// ends this goroutine too. Unwind the tasks and leave the
			// outcome for the caller's deferred calls (see Goexited).
			r.teardown()
			w.endWatch()
			w.goexited = &Outcome{Failure: r.m.failed(), Steps: r.m.steps(), Clock: r.m.now(), run: r}
		}
	}()
	r.next = r.pick()
	for r.next != nil {
		r.switchTo(r.next)
	}
	completed = true
	r.checkEnd()
	if r.m.held != nil {
		r.m.fail(r.m.held) // a race held while the goroutines went on
	}
	r.teardown()
	w.endWatch()
	var lt *trace.Trace
	if r.m.end() {
		lt = r.light()
	}
	r.m.strategy().End(lt)
	return Outcome{Failure: r.m.failed(), Steps: r.m.steps(), Clock: r.m.now(), run: r}
}

// Goexited returns the outcome of an iteration in which runtime.Goexit was
// called on the worker's own goroutine (not a task's: a task's Goexit ends
// that task only): Execute did not return, and the calling goroutine is
// ending. Deferred calls of the caller use it to report the outcome.
func (w *Worker) Goexited() *Outcome { return w.goexited }

func (r *Run) reset(w *Worker, cfg Config) {
	race := r.race
	race.reset(cfg.AllowRaces)
	r.msgs.reset()
	*r = Run{
		m:          r.m,
		w:          w,
		cfg:        cfg,
		lt:         r.lt,
		msgs:       r.msgs,
		race:       race,
		layer:      r.layer,
		timerNames: r.timerNames,
		gen:        w.nextGen(),
		alone:      aloneState{at: -2},
	}
	r.m.reset(cfg)
	r.m.window(cfg.Window && r.race.off)
}

// Now returns the virtual time in ns since the start of the iteration.
func (r *Run) Now() int64 { return r.m.now() }

// Step returns the number of steps run so far.
func (r *Run) Step() int { return r.m.steps() }

// Current returns the task that runs now.
func (r *Run) Current() *Task { return r.cur }

// Main returns the main task.
func (r *Run) Main() *Task { return r.m.mainTask() }

// Task returns the task with the given id.
func (r *Run) Task(id int32) *Task { return r.m.task(id) }

// Tasks returns all tasks created so far, in creation order.
func (r *Run) Tasks() []*Task { return r.m.all() }

// Failed returns the failure recorded so far, if any.
func (r *Run) Failed() *Failure { return r.m.failed() }

// NewResource returns a fresh resource number.
func (r *Run) NewResource() uint32 {
	r.nres++
	return r.nres
}

// LivenessMonitors is what the runtime needs of liveness monitors.
type LivenessMonitors interface {
	// Hot reports whether progress is owed: the run may not end yet.
	Hot() bool
	// Expired returns a failure message if a monitor has been hot for longer
	// than allowed at virtual time now, or "". It depends on the time only: a
	// monitor that becomes hot at now has not expired at now, so the runtime
	// asks again only once the clock has moved.
	Expired(now int64) string
	// Describe lists the hot monitors, their states and since when.
	Describe() string
}

// SetLiveness installs liveness monitors. While one is hot the iteration does
// not end: the clock moves on to the next deadline (timers keep firing), and
// once the main task has returned, the schedule is a random walk (the fair
// tail) so that no task starves. A monitor still hot when nothing can happen,
// at the clock or step limit, or past its own threshold, fails the iteration
// with a liveness failure.
func (r *Run) SetLiveness(l LivenessMonitors) {
	r.m.setLive(l)
}

// Layer returns a value of the layer above that the worker keeps from one
// iteration to the next: a cache of what every iteration computes alike.
// Nothing an iteration's world refers to may be kept in it.
func (r *Run) Layer() *any { return &r.layer }

// Local returns a value of the layer above that lives for this iteration
// only: the next iteration on the worker starts with nil, so what the
// iteration's world refers to (its objects, its tasks) goes with it. The
// layer's per-iteration state belongs here rather than in a table of its
// own keyed by the Run: such a table keeps the worker (its recorder, its
// race state, the last iteration's world) alive for the rest of the
// process.
func (r *Run) Local() *any { return &r.local }

// TimerName returns the name of a timer task that parent starts:
// "timer:" and parent's name. The worker keeps the names it has built, as
// iterations start the same timers (up to maxTimerNames of them).
func (r *Run) TimerName(parent *Task) string {
	if n, ok := r.timerNames[parent.Name]; ok {
		return n
	}
	n := "timer:" + parent.Name
	if r.timerNames == nil {
		r.timerNames = map[string]string{}
	}
	if len(r.timerNames) < maxTimerNames {
		r.timerNames[parent.Name] = n
	}
	return n
}

const maxTimerNames = 4096

// SetDescribe installs the hook that says what a blocked task waits for.
func (r *Run) SetDescribe(f func(t *Task) string) { r.m.setDescribe(f) }

// Event returns the event of the step that runs now, so the op's performer
// can record its outcome (the message received, the value chosen).
func (r *Run) Event() *trace.Event { return r.m.event() }

// AddMsg records a message's content and returns its id. Once the trace
// has wrapped (Config.Window) contents are no longer kept: the trace they
// would belong to is rebuilt by a replay.
func (r *Run) AddMsg(m any) int64 { return r.msgs.add(m, r.m.recorder().Wrapped()) }

// msgLog keeps message contents in fixed-size chunks, so that millions of
// messages are recorded without copying what is already there.
type msgLog struct {
	chunks [][]any
	n      int // messages numbered
	kept   int // messages whose content is kept: the first ones, all until the trace wraps
}

const msgChunk = 4096

// add numbers message m and keeps its content unless drop (then no later
// message's content is kept either).
func (l *msgLog) add(m any, drop bool) int64 {
	if !drop {
		c := l.n / msgChunk
		if c == len(l.chunks) {
			l.chunks = append(l.chunks, make([]any, msgChunk))
		}
		l.chunks[c][l.n%msgChunk] = m
		l.kept = l.n + 1
	}
	l.n++
	return int64(l.n - 1)
}

func (l *msgLog) reset() {
	// Clear only the slots used: an iteration of thirty messages should not
	// pay for clearing a whole chunk.
	for i := 0; i*msgChunk < l.kept; i++ {
		clear(l.chunks[i][:min(msgChunk, l.kept-i*msgChunk)])
	}
	const keep = 4
	if len(l.chunks) > keep {
		clear(l.chunks[keep:])
		l.chunks = l.chunks[:keep]
	}
	l.n, l.kept = 0, 0
}

// all returns the contents kept, by id.
func (l *msgLog) all() []any {
	out := make([]any, 0, l.kept)
	for i := 0; i < l.kept; i += msgChunk {
		out = append(out, l.chunks[i/msgChunk][:min(msgChunk, l.kept-i)]...)
	}
	return out
}
