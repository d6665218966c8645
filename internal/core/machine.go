package core

import (
	"math"
	"math/rand/v2"

	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// sched is the scheduler as a state machine: what it decides, without the
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
// Run embeds it and adds the hand-off (sched.go): which carrier to resume,
// the task that runs now, the ops' effects. The machine never switches
// coroutines and calls no code of the tasks (only the strategy and the
// layer's hooks), so a test drives it directly from a script
// (machine_test.go, scriptrun_test.go).
type sched struct {
	strat      strategy.Strategy
	maxSteps   int
	fairFrom   int // the step from which a random walk picks; see Config.FairAfter
	limit      int64
	allowLeaks bool

	tasks   []*Task
	pending []*Task // tasks with a pending op, in creation order
	gos     []*Task // leak candidates: spawned tasks, compacted by leaked
	main    *Task

	clock    int64
	step     int
	failure  *Failure
	aborting bool

	rec  trace.Recorder
	last int // index of the last step event in rec, -1 before the first

	enabled  []strategy.Op
	enabledT []*Task
	// stableLocs: the strategy learns across iterations (it reads traces),
	// so signatures use stable location keys (LocKey), not program counters.
	stableLocs bool

	// Hooks of the layer above.
	describe func(t *Task) string // what a blocked task waits for, for deadlock reports
	live     LivenessMonitors     // liveness monitors, nil if none
	tail     *rand.Rand           // the fair random walk (see fair), on tailSrc
	tailSrc  rand.PCG

	early int // early timer firings left (early.go)
	// mainEnd is the step at which the main task returned, -1 before.
	mainEnd int
}

// reset starts a new iteration with cfg, keeping the buffers of the last.
func (s *sched) reset(cfg Config) {
	rec := s.rec
	rec.Reset()
	*s = sched{
		strat:      cfg.Strategy,
		maxSteps:   cfg.MaxSteps,
		limit:      cfg.ClockLimit,
		allowLeaks: cfg.AllowLeaks,
		tasks:      s.tasks[:0],
		pending:    s.pending[:0],
		gos:        s.gos[:0],
		enabled:    s.enabled[:0],
		enabledT:   s.enabledT[:0],
		tail:       s.tail,
		rec:        rec,
		early:      cfg.EarlyTimers,
		mainEnd:    -1,
		last:       -1,
	}
	if s.maxSteps <= 0 {
		s.maxSteps = DefaultMaxSteps
	}
	s.tailSrc.Seed(cfg.Seed, 0x7461696c)
	if s.tail == nil {
		s.tail = rand.New(&s.tailSrc)
	}
	switch s.fairFrom = cfg.FairAfter; {
	case s.fairFrom == 0:
		s.fairFrom = s.maxSteps / 10
	case s.fairFrom < 0:
		s.fairFrom = math.MaxInt
	}
	if s.limit <= 0 {
		s.limit = DefaultClockLimit
	}
	if tr, ok := s.strat.(strategy.TraceReader); ok && tr.ReadsTrace() {
		s.stableLocs = true
	}
}

func (s *sched) newTask(parent *Task, name string, key uint64) *Task {
	t := &Task{ID: int32(len(s.tasks)), Parent: -1, Name: name, Key: key}
	if parent != nil {
		t.Parent = parent.ID
		parent.nchild++
	}
	s.tasks = append(s.tasks, t)
	return t
}

// spawn creates a task whose start op is pending and enabled; parent is nil
// for the main task. A spawned task is a leak candidate (leak.go).
func (s *sched) spawn(parent *Task, name string, key uint64) *Task {
	t := s.newTask(parent, name, key)
	t.op = Op{Kind: trace.KindStart, Obj: -1}
	if parent != nil {
		t.SpawnPC = parent.op.PC
		s.gos = append(s.gos, t)
	}
	s.pend(t)
	return t
}

// spawnTimer creates a runtime-owned task whose single op, of the given
// kind, becomes enabled when the clock reaches deadline; fire is its action,
// which the caller runs when decide picks the op.
func (s *sched) spawnTimer(parent *Task, name string, kind trace.Kind, deadline int64, pc uintptr, fire func()) *Task {
	t := s.newTask(parent, name, ChildKey(parent))
	t.fire = fire
	t.op = Op{Kind: kind, Obj: -1, Blocked: true, HasDeadline: true, Deadline: deadline, PC: pc}
	s.pend(t)
	return t
}

// post makes op the pending op of t, the task that runs now.
func (s *sched) post(t *Task, op Op) {
	t.op = op
	t.opKey = 0
	s.pend(t)
}

// pend makes t's op pending. An op blocked without a deadline cannot be
// enabled before unblock, so it is parked: collect, which runs at every
// step, does not look at it. Other pending ops are kept in creation order,
// so that enabled sets are presented to strategies deterministically.
func (s *sched) pend(t *Task) {
	t.hasOp = true
	if t.op.Blocked && !t.op.HasDeadline {
		t.parked = true
		return
	}
	s.insertPending(t)
}

// insertPending adds t to the pending list at its place in creation order.
func (s *sched) insertPending(t *Task) {
	i := len(s.pending)
	s.pending = append(s.pending, t)
	for i > 0 && s.pending[i-1].ID > t.ID {
		s.pending[i] = s.pending[i-1]
		s.pending[i].slot = i
		i--
	}
	s.pending[i] = t
	t.slot = i
}

// unpend removes t's pending op.
func (s *sched) unpend(t *Task) {
	if !t.hasOp {
		return
	}
	t.hasOp = false
	if t.parked {
		t.parked = false
		return
	}
	i := t.slot
	copy(s.pending[i:], s.pending[i+1:])
	s.pending = s.pending[:len(s.pending)-1]
	for j := i; j < len(s.pending); j++ {
		s.pending[j].slot = j
	}
}

// unblock marks t's pending op as enabled.
func (s *sched) unblock(t *Task) {
	t.op.Blocked = false
	if t.parked {
		t.parked = false
		s.insertPending(t)
	}
}

// finish records that t is over: returned, unwound, or a timer cancelled
// or fired. Its pending op, if any, is withdrawn.
func (s *sched) finish(t *Task) {
	t.state = taskDone
	s.unpend(t)
}

// fail ends the iteration with f, unless it has already failed: decide
// decides nothing more.
func (s *sched) fail(f *Failure) {
	if s.failure != nil {
		return
	}
	f.Step = s.step
	s.failure = f
	s.aborting = true
}
