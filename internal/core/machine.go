package core

import (
	"math"
	"math/rand/v2"

	"github.com/morpheus-go/morpheus/internal/record"
	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// machine is the scheduler as a state machine: what it decides, without the
// coroutines that carry out its decisions. It is stepped from outside by
// events, each a method:
//
//   - spawn, spawnTimer: a task is created, with its start op (or, for a
//     timer, its single op) pending;
//   - post: the running task posts its next op, enabled or blocked (on a
//     resource, with or without a deadline);
//   - unblock: a blocked op becomes enabled;
//   - finish: a task returned, was cancelled or was unwound: nothing of it
//     is pending any more;
//   - fail: the layer above ends the iteration with a failure.
//
// and asked for the next decision with decide: the task whose op is picked
// (the caller then runs it: resumes its carrier, or fires a timer), or nil
// when the iteration is over, its outcome in failure (nil: a pass). On the
// way decide moves the virtual clock to the nearest deadline when nothing
// is enabled, and records every step and every clock jump in rec, the
// iteration's trace: the decisions, numbered.
//
// Run holds it as a field (Run.m) and adds the hand-off (sched.go): which
// carrier to resume, the task that runs now, the ops' effects. The
// hand-off reaches the machine only through methods: the events above,
// decide, and the few of boundary.go (the package doc lists them). The
// machine never switches coroutines and calls no code of the tasks (only
// the strategy and the layer's hooks), so a test drives it directly from a
// script (machine_test.go, scriptrun_test.go; scriptdo_test.go drives the
// same scripts through Run.Do).
type machine struct {
	strat strategy.Strategy
	// checkAt is the step at which decide looks up from its common path
	// (checkpoint): the nearer of limitAt and driftAt.
	checkAt    int
	limitAt    int // the step limit, then, past it, the hard bound (steplimit.go)
	driftAt    int // the step at which the clock drifts (poll.go)
	softSteps  int // the step limit (Config.MaxSteps)
	hardSteps  int // where an iteration past it fails (Config.HardSteps)
	fairFrom   int // the step from which a random walk picks; see Config.FairAfter
	limit      int64
	allowLeaks bool

	tasks []*Task
	// slab holds tasks not yet handed out, allocated a few at a time. It is
	// never carried into the next iteration: a chunk shared by two
	// iterations' tasks would keep the older one's world alive through the
	// newer's, and so on down the iterations.
	slab      []Task
	lastTasks int // tasks the last iteration made (the first slab's size)
	// A pending op is parked (blocked without a deadline: only unblock
	// enables it), timed (blocked until a deadline the clock has not
	// reached) or enabled; collect walks only the enabled ones (pending),
	// so a step does not pay for the timers that wait.
	pending pendingSet // tasks whose pending op is enabled
	timed   pendingSet // tasks whose pending op is timed
	gos     []*Task    // leak candidates: spawned tasks, compacted by leaked
	main    *Task

	clock    int64
	step     int
	failure  *Failure
	aborting bool
	held     *Failure // a failure that ends the iteration when it ends (Run.Hold)

	rec  record.Recorder
	last int // index of the last step event in rec, -1 before the first

	enabled  []strategy.Op
	enabledT []*Task
	cache    enabledCache // the enabled set kept from step to step (enabledcache.go)
	aliased  bool         // enabled and enabledT are the cache's memory
	// stableLocs: the strategy learns across iterations (it reads steps or
	// traces), so signatures use stable location keys (LocKey), not program
	// counters.
	stableLocs bool
	follower   strategy.Follower // the strategy, if it is one (see fair); nil otherwise
	localFirst bool              // the strategy is a strategy.LocalFirst (see collect)
	feed       stepFeed          // what the strategy reads of the iteration (stepfeed.go)

	// Hooks of the layer above.
	describe func(t *Task) string // what a blocked task waits for, for deadlock reports
	live     LivenessMonitors     // liveness monitors, nil if none
	liveAt   int64                // the clock when live was last asked whether a monitor expired

	tail    *rand.Rand // the fair random walk (see fair), on tailSrc; a step with one enabled op draws nothing
	tailSrc rand.PCG

	early     int   // early timer firings left (early.go)
	earlyPace int64 // ns a step takes for an early firing (early.go; scripts set it)
	movedAt   int   // the step at which the clock last moved (moveClock)
	// The polling clock (poll.go).
	jumps     int64 // moves of the clock so far: what a task reads is ahead of the clock by as many ns (Run.Wall)
	exact     bool  // moves of the clock no longer add to jumps (Run.ExactClock)
	lastRead  int64 // the time the last read of the clock returned (Run.ReadWall), -1 before the first
	quietFrom int   // the first of the quiet steps that ran last in a row (see quietStep)
	lastQuiet int   // the last quiet step, -1 before the first
	pollAt    int   // the step at which polling was last looked for
	pollSteps int   // quiet steps that make a poller (pollSteps)
	pollDue   bool  // the quiet steps in a row may make a poller: collect asks polling
	polls     bool  // a Poll op was posted: decide counts quiet steps (quietStep)
	// The clock's drift (poll.go).
	driftSteps int   // steps without a move of the clock that make a drift (driftSteps; scripts set it)
	driftRun   int   // drifts past the step limit in a row with every task polling (drift)
	driftTo    int64 // where the last drift moved the clock
	// soloSteps is where an iteration that is no livelock fails
	// (steplimit.go; scripts set it); restAt is the last step at which
	// nothing could run and the clock moved to a deadline (moveClock).
	soloSteps int
	restAt    int
	// endAt is the last step at which a task (not a timer) ended (finish).
	endAt int
	// extra is early > 0 || pollDue: collect has more to do than build the
	// enabled set (one test on a step's path for the two).
	extra bool
	// beats is where the watchdog reads the step count (watchdog.go), nil
	// when the worker is not watched.
	beats *int64
	// mainEnd is the step at which the main task returned, -1 before.
	mainEnd int
	// idle are the tasks in WaitIdle (idle.go).
	idle []*Task
	// ended counts the tasks that are done (unpend).
	ended int
	// Accesses of a task running alone (alone.go): counted since the last
	// step (aloneDue), then in all (alone).
	aloneDue, alone int
	// ownedDue counts the accesses to memory of a task's own without an op
	// not yet counted towards the drift (ownedpace.go).
	ownedDue int
}

// reset starts a new iteration with cfg, keeping the buffers of the last.
func (m *machine) reset(cfg Config) {
	rec, pending, timed, cache := m.rec, m.pending, m.timed, m.cache
	cache.reset()
	if m.aliased {
		m.enabled, m.enabledT = nil, nil
	}
	rec.Reset()
	clear(m.idle)
	pending.reset()
	timed.reset()
	*m = machine{
		strat:      cfg.Strategy,
		limitAt:    cfg.MaxSteps,
		limit:      cfg.ClockLimit,
		allowLeaks: cfg.AllowLeaks,
		tasks:      m.tasks[:0],
		lastTasks:  len(m.tasks),
		pending:    pending,
		timed:      timed,
		gos:        m.gos[:0],
		idle:       m.idle[:0],
		enabled:    m.enabled[:0],
		enabledT:   m.enabledT[:0],
		cache:      cache,
		tail:       m.tail,
		rec:        rec,
		early:      cfg.EarlyTimers,
		pollSteps:  pollSteps,
		lastQuiet:  -1,
		mainEnd:    -1,
		last:       -1,
		liveAt:     -1,
		lastRead:   -1,
	}
	if m.limitAt <= 0 {
		m.limitAt = DefaultMaxSteps
	}
	m.softSteps = m.limitAt
	m.driftSteps = driftSteps
	m.earlyPace = earlyPace
	m.driftAt = m.driftSteps
	m.checkAt = min(m.limitAt, m.driftAt)
	m.extra = m.early > 0
	switch m.hardSteps = cfg.HardSteps; {
	case m.hardSteps == 0 && m.softSteps <= maxInt/HardStepsFactor:
		m.hardSteps = m.softSteps * HardStepsFactor
	case m.hardSteps < m.softSteps:
		m.hardSteps = m.softSteps
	}
	m.soloSteps = m.hardSteps
	if cfg.HardSteps == 0 && m.hardSteps <= maxInt/SoloStepsFactor {
		// A bound given is exact: a run stopped at a step of its own (a
		// stuck iteration run again up to the step before its blocking
		// op) stops there, whatever its tasks do.
		m.soloSteps = m.hardSteps * SoloStepsFactor
	}
	m.tailSrc.Seed(cfg.Seed, 0x7461696c)
	if m.tail == nil {
		m.tail = rand.New(&m.tailSrc)
	}
	switch m.fairFrom = cfg.FairAfter; {
	case m.fairFrom == 0:
		m.fairFrom = m.softSteps / 10
	case m.fairFrom < 0:
		m.fairFrom = math.MaxInt
	}
	if m.limit <= 0 {
		m.limit = DefaultClockLimit
	}
	m.stableLocs = m.feed.reset(m.strat)
	m.follower, _ = m.strat.(strategy.Follower)
	if lf, ok := m.strat.(strategy.LocalFirst); ok {
		m.localFirst = lf.LocalFirst()
	}
}

func (m *machine) newTask(parent *Task, name string, key uint64) *Task {
	if len(m.slab) == 0 {
		// As many tasks as made so far, and at first as many as the last
		// iteration made: iterations of a test are alike.
		m.slab = make([]Task, min(max(len(m.tasks), m.lastTasks, 4), 64))
	}
	t := &m.slab[0]
	m.slab = m.slab[1:]
	*t = Task{ID: int32(len(m.tasks)), Parent: -1, Name: name, Key: key}
	if parent != nil {
		t.Parent = parent.ID
		t.Subtest = parent.Subtest
		parent.nchild++
	}
	m.tasks = append(m.tasks, t)
	m.pending.fit(t.ID)
	m.timed.fit(t.ID)
	return t
}

// spawn creates a task whose start op is pending and enabled; parent is nil
// for the main task, which it then is. A spawned task is a leak candidate
// (leak.go).
func (m *machine) spawn(parent *Task, name string, key uint64) *Task {
	t := m.newTask(parent, name, key)
	t.op = Op{Kind: trace.KindStart, Obj: -1}
	t.state = taskNew
	m.enable(t.ID)
	if parent == nil {
		m.main = t
	} else {
		t.SpawnPC = parent.op.PC
		m.gos = append(m.gos, t)
	}
	return t
}

// spawnTimer creates a runtime-owned task whose single op, of the given
// kind, becomes enabled when the clock reaches deadline; fire is its action,
// which the caller runs when decide picks the op.
func (m *machine) spawnTimer(parent *Task, name string, kind trace.Kind, deadline int64, pc uintptr, fire func(*Task)) *Task {
	t := m.newTask(parent, name, ChildKey(parent))
	t.fire = fire
	t.op = Op{Kind: kind, Obj: -1, Blocked: true, HasDeadline: true, Deadline: deadline, PC: pc}
	m.pend(t)
	return t
}

// post makes op the pending op of t, the task that runs now. It is the
// first half of the event, which inlines into Run.Do (a step's cost): it
// takes an enabled op that is no poll, and reports false for the rest,
// which the caller then hands to pend.
func (m *machine) post(t *Task, op *Op) bool {
	t.op, t.opKey = *op, 0
	if op.Blocked || op.Poll {
		return false
	}
	t.state = taskEnabled
	m.enable(t.ID)
	return true
}

// pend makes t's op pending: enabled, timed or parked (see machine).
// Enabled ops are kept in creation order, so that enabled sets are
// presented to strategies deterministically.
func (m *machine) pend(t *Task) {
	op := &t.op
	if op.Poll {
		m.polls = true // as Run.NotePoll
	}
	switch {
	case !op.Blocked:
		t.state = taskEnabled
		m.enable(t.ID)
	case !op.HasDeadline:
		t.state = taskParked
	case op.Deadline > m.clock:
		t.state = taskTimed
		t.timedAt = m.step
		m.timed.add(t.ID)
	default: // due now
		t.state = taskEnabled
		m.enable(t.ID)
	}
}

// unpend removes t's pending op, if any: t is picked and runs (or, a
// timer, fires), or is killed (to), or is over (to).
func (m *machine) unpend(t *Task, to taskState) {
	if to == taskDone && t.state != taskDone {
		m.ended++
	}
	switch t.state {
	case taskNew, taskEnabled:
		m.disable(t.ID)
	case taskTimed:
		m.timed.remove(t.ID)
	}
	t.state = to
}

// unblock marks t's pending op as enabled.
func (m *machine) unblock(t *Task) {
	t.op.Blocked = false
	switch t.state {
	case taskParked:
	case taskTimed:
		m.timed.remove(t.ID)
	default:
		return
	}
	t.state = taskEnabled
	t.wokeBefore, t.wokeAt = t.wokeAt, m.step
	m.enable(t.ID)
}

// moveClock moves the clock on to to, records the move in the trace and
// enables the timed ops whose deadline it reached.
func (m *machine) moveClock(to int64) {
	m.clock = to
	m.movedAt = m.step
	if len(m.enabled) == 0 {
		m.restAt = m.step // collect found nothing enabled: every task waits
	}
	if !m.exact {
		m.jumps++
	}
	m.driftAt = m.step + m.driftSteps
	m.checkAt = min(m.limitAt, m.driftAt)
	m.rec.Append(trace.Event{Task: -1, Obj: -1, Kind: trace.KindClock, Val: to})
	m.promote()
}

// promote enables the timed ops whose deadline the clock has reached.
func (m *machine) promote() {
	for id := range m.timed.all() {
		if t := m.tasks[id]; t.op.Deadline <= m.clock {
			t.state = taskEnabled
			m.timed.remove(id)
			m.enable(id)
		}
	}
}

// nextDeadline returns the nearest deadline of a timed op, or -1.
func (m *machine) nextDeadline() int64 {
	next := int64(-1)
	for id := range m.timed.all() {
		if d := m.tasks[id].op.Deadline; next < 0 || d < next {
			next = d
		}
	}
	return next
}

// finish records that t is over: returned, unwound, or a timer cancelled
// or fired. Its pending op, if any, is withdrawn.
func (m *machine) finish(t *Task) {
	m.unpend(t, taskDone)
	if t.fire == nil {
		m.endAt = m.step
	}
}

// kill records that t is killed: its pending op, if any, is withdrawn, and
// its stack unwinds (self: it was the running task), then finish.
func (m *machine) kill(t *Task, self bool) {
	to := taskKilled
	if self {
		to = taskSelfKilled
	}
	m.unpend(t, to)
}

// fail ends the iteration with f, unless it has already failed: decide
// decides nothing more.
func (m *machine) fail(f *Failure) {
	if m.failure != nil {
		return
	}
	if m.held != nil {
		f = m.held // the first failure, whatever ended the wind-down
	} else {
		f.Step = m.step
	}
	m.failure = f
	m.aborting = true
}
