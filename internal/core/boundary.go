package core

import (
	"github.com/morpheus-go/morpheus/internal/record"
	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// The machine's boundary: what the hand-off (Run, and through it the
// runtime above) asks of the machine. Run holds the machine as a field and
// reaches it through these methods and the events of machine.go (spawn,
// spawnTimer, post, unblock, finish, fail) and decide, never through its
// fields; the package doc lists them. All are small enough to inline.

// now returns the virtual clock, in ns.
func (m *machine) now() int64 { return m.clock }

// steps returns the number of steps decided so far.
func (m *machine) steps() int { return m.step }

// task returns the task with the given id.
func (m *machine) task(id int32) *Task { return m.tasks[id] }

// all returns the tasks created so far, in creation order.
func (m *machine) all() []*Task { return m.tasks }

// mainTask returns the main task (the first spawned without a parent).
func (m *machine) mainTask() *Task { return m.main }

// failed returns the failure recorded so far, if any.
func (m *machine) failed() *Failure { return m.failure }

// over reports whether the iteration is over (failed, or being torn down):
// decide decides nothing more, and a task's op unwinds it.
func (m *machine) over() bool { return m.aborting }

// abort ends the iteration without a failure of its own (its teardown, or
// an unwinding that found it over): decide decides nothing more.
func (m *machine) abort() { m.aborting = true }

// strategy returns the iteration's strategy.
func (m *machine) strategy() strategy.Strategy { return m.strat }

// recorder returns the iteration's trace, which the hand-off and the layer
// above read and fill (a step's outcome, non-step events).
func (m *machine) recorder() *record.Recorder { return &m.rec }

// lastStep returns the index in the trace of the latest step's event, -1
// before the first.
func (m *machine) lastStep() int { return m.last }

// event returns the latest step's event, so the op's performer can record
// its outcome.
func (m *machine) event() *trace.Event { return m.rec.At(m.last) }

// notePoll records that a Poll op is about to be posted (Run.NotePoll).
func (m *machine) notePoll() { m.polls = true }

// waitIdle adds t to the tasks in WaitIdle (idle.go).
func (m *machine) waitIdle(t *Task) { m.idle = append(m.idle, t) }

// clockLimit returns the clock limit, and widenClock raises it to w (never
// lowers it).
func (m *machine) clockLimit() int64 { return m.limit }

func (m *machine) widenClock(w int64) {
	if w > m.limit {
		m.limit = w
	}
}

// setDescribe, setLive and setBeats install the layer's hooks: what a
// blocked task waits for, the liveness monitors, where the watchdog reads
// the step count.
func (m *machine) setDescribe(f func(t *Task) string) { m.describe = f }
func (m *machine) setLive(l LivenessMonitors)         { m.live = l }
func (m *machine) setBeats(p *int64)                  { m.beats = p }

// window lets the trace drop its older events (Config.Window) unless the
// strategy reads traces.
func (m *machine) window(on bool) { m.rec.Window(on && !m.feed.trace) }

// begin starts the iteration's strategy, once the main task exists.
func (m *machine) begin(seed uint64) {
	m.strat.Begin(seed)
	m.feed.begin()
}

// end hands the strategy the last step, if it reads steps, and reports
// whether it reads the iteration's trace (a TraceReader, of an iteration
// short enough to learn from); the caller then calls the strategy's End.
func (m *machine) end() (wantsTrace bool) {
	m.endSteps()
	return m.feed.trace && m.learnable()
}

// wall, readWall, virtual and exactClock are the clock as tasks read it
// (Run.Wall, Run.ReadWall, Run.Virtual, Run.ExactClock: poll.go).
func (m *machine) wall() int64 { return m.clock + m.jumps }

func (m *machine) readWall() int64 {
	w := m.wall()
	if !m.exact && w <= m.lastRead {
		m.jumps += m.lastRead + 1 - w
		w = m.lastRead + 1
	}
	m.lastRead = w
	return w
}

func (m *machine) virtual(wall int64) int64 { return wall - m.jumps }

func (m *machine) exactClock() { m.exact = true }

// choose asks the strategy for a value in [0, n): a Choose op's. It reports
// false, the iteration failed, if the strategy answers out of range.
func (m *machine) choose(n int) (int, bool) {
	v := m.strat.Choose(n)
	if v < 0 || v >= n {
		m.diverged("Choose")
		return 0, false
	}
	return v, true
}
