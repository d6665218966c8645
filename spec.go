package morpheus

import (
	"fmt"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// Monitor is a specification monitor, as in P#: a global observer of the
// events the system announces (Env.Announce), which keeps its own state and
// checks properties on it. A safety monitor asserts (Mon.Assert); a liveness
// monitor marks when progress is owed (Mon.Hot) and when it happened
// (Mon.Cold).
//
// Monitors run synchronously inside Announce, in the announcing task, and are
// not scheduling points: they observe the system without changing its
// interleavings. They must not call Env operations.
type Monitor interface {
	Observe(m *Mon, event any)
}

// MonitorFunc adapts a function to Monitor.
type MonitorFunc func(m *Mon, event any)

// Observe calls f.
func (f MonitorFunc) Observe(m *Mon, event any) { f(m, event) }

// Mon is a monitor's view of itself: its name, its hot or cold state, and
// assertions.
type Mon struct {
	env   *Env
	name  string
	m     Monitor
	hot   bool
	state string
	since int64 // virtual ns when it last became hot
	step  int   // step when it last became hot
	limit time.Duration
}

// MonitorOption configures a monitor.
type MonitorOption func(*Mon)

// HotLimit fails the iteration as soon as the monitor has been hot for longer
// than d of virtual time. Without it, a monitor fails only if it is still hot
// when nothing more can happen, or at the clock or step limit.
func HotLimit(d time.Duration) MonitorOption { return func(m *Mon) { m.limit = d } }

// AddMonitor adds a monitor for the rest of the iteration. Monitors observe
// every later Announce, in the order they were added.
//
// While a monitor is hot, the iteration does not end: timers keep firing and
// the clock keeps moving until it cools down, and once the main task has
// returned the schedule becomes a random walk (a fair tail: no task starves),
// so that a monitor that stays hot means the system makes no progress, not
// that the scheduler was unlucky. A monitor still hot when nothing can happen
// any more, at the clock or step limit, or beyond its HotLimit, fails the
// iteration with a liveness failure naming the monitor, its state and since
// when it is hot.
func (e *Env) AddMonitor(name string, m Monitor, opts ...MonitorOption) {
	mon := &Mon{env: e, name: name, m: m, state: "init"}
	for _, o := range opts {
		o(mon)
	}
	e.monitors = append(e.monitors, mon)
	if len(e.monitors) == 1 {
		e.run.SetLiveness(liveness{e})
	}
}

// Announce tells every monitor about event. It is not an op: announcing does
// not change the schedule.
func (e *Env) Announce(event any) {
	for _, m := range e.monitors {
		m.m.Observe(m, event)
	}
}

// Name returns the monitor's name.
func (m *Mon) Name() string { return m.name }

// State returns the monitor's last state as Hot or Cold named it ("init"
// before either).
func (m *Mon) State() string { return m.state }

// IsHot reports whether progress is owed.
func (m *Mon) IsHot() bool { return m.hot }

// Hot marks that progress is owed, in a state named state (such as
// "repairing"). A monitor already hot keeps the time it became hot.
func (m *Mon) Hot(state string) {
	if !m.hot {
		m.hot, m.since, m.step = true, m.env.run.Now(), m.env.run.Step()
		m.env.hot++
	}
	m.state = state
}

// Cold marks that the owed progress happened.
func (m *Mon) Cold(state string) {
	if m.hot {
		m.env.hot--
	}
	m.hot, m.state = false, state
}

// Assert fails the iteration with an assertion failure, naming the monitor,
// if cond is false: a safety violation.
//
//go:noinline
func (m *Mon) Assert(cond bool, format string, args ...any) {
	if !cond {
		m.env.run.Fail(core.Assertion, goruntime.CallerPC(), "monitor "+m.name+": "+fmt.Sprintf(format, args...))
	}
}

// liveness is the Env's monitors as the runtime sees them.
type liveness struct{ e *Env }

func (l liveness) Hot() bool { return l.e.hot > 0 }

func (l liveness) Expired(now int64) string {
	for _, m := range l.e.monitors {
		if m.hot && m.limit > 0 && time.Duration(now-m.since) > m.limit {
			return fmt.Sprintf("monitor %s is hot in state %q since %v (step %d): longer than its limit of %v",
				m.name, m.state, time.Duration(m.since), m.step, m.limit)
		}
	}
	return ""
}

func (l liveness) Describe() string {
	var b strings.Builder
	for _, m := range l.e.monitors {
		if m.hot {
			fmt.Fprintf(&b, "  monitor %s is hot in state %q since %v (step %d)\n", m.name, m.state, time.Duration(m.since), m.step)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
