package core

import (
	"fmt"
	"strings"
)

// Leaks
//
// A goroutine still blocked when the main task has returned and nothing can
// run any more is a leak: in a Go program it would wait forever (a worker
// waiting on a context nobody cancels). The candidates are the tasks spawned
// during the iteration (Run.Spawn with a parent) that have not finished,
// except runtime-owned tasks (timers) and daemons (Task.Daemon: actor
// processes, servers by design).
//
// While candidates remain, the clock moves on to the next deadline as usual,
// so timers fire and a goroutine that ends after a sleep or a time-out is no
// leak. The iteration fails with a leak when candidates remain and nothing
// more can happen, or the next deadline is beyond the clock limit, or the
// step limit is reached after the main task returned. With no candidates an
// iteration ends at quiescence as it always did, without moving the clock,
// so the traces of tests without leaks do not change. Config.AllowLeaks
// turns the check off.

// leaked returns the leak candidates still alive, in creation order, or nil
// when leaks are allowed. It drops finished tasks and daemons from the list
// it keeps, so repeated calls cost only what is still alive.
func (m *machine) leaked() []*Task {
	if m.allowLeaks {
		return nil
	}
	keep := m.gos[:0]
	for _, t := range m.gos {
		if t.state != taskDone && !t.Daemon && t.fire == nil {
			keep = append(keep, t)
		}
	}
	clear(m.gos[len(keep):])
	m.gos = keep
	return keep
}

// leakFailure reports the leaked goroutines gs, which are why.
func (m *machine) leakFailure(gs []*Task, why string) *Failure {
	var b strings.Builder
	n := "1 goroutine leaked: the main task has returned, and it is"
	if len(gs) > 1 {
		n = fmt.Sprintf("%d goroutines leaked: the main task has returned, and they are", len(gs))
	}
	fmt.Fprintf(&b, "%s %s:", n, why)
	for _, t := range gs {
		fmt.Fprintf(&b, "\n  %s: %s", t.Name, m.describeLeak(t))
	}
	first := gs[0]
	return &Failure{Kind: Leak, Task: first.ID, PC: first.op.PC, Message: b.String()}
}

// describeLeak says what a leaked task waits for and where it was started.
func (m *machine) describeLeak(t *Task) string {
	var d string
	switch {
	case t.state == taskNew:
		d = "not started yet"
	case !t.pending():
		d = "running" // cannot happen at a step: every live task has an op
	case !t.op.Blocked:
		d = fmt.Sprintf("runnable in %v at %s", t.op.Kind, Where(t.op.PC))
	default:
		d = m.describeWait(t)
	}
	if t.SpawnPC != 0 {
		d += "; started at " + Where(t.SpawnPC)
		if t.Subtest != "" {
			d += " in subtest " + t.Subtest
		}
	}
	return d
}

// DrainSteps bounds how long goroutines may go on after the main task has
// returned: still there that many steps later, they are leaked, as goleak
// would find them still running. (A leaked goroutine in a retry loop with
// timers would otherwise run to the clock or step limit, a million steps of
// a rewritten test, growing the trace and the timers all along.)
const DrainSteps = 100_000

// drained reports, once, DrainSteps steps after the main task returned,
// whether goroutines are still there, having failed the iteration with a
// leak if so.
func (m *machine) drained() bool {
	if m.main.state != taskDone {
		return false
	}
	if m.mainEnd < 0 {
		m.mainEnd = m.step
	}
	if m.step-m.mainEnd != DrainSteps || (m.live != nil && m.live.Hot()) {
		return false
	}
	gs := m.leaked()
	if len(gs) == 0 {
		return false
	}
	m.fail(m.leakFailure(gs, fmt.Sprintf("still running %d steps after it returned", DrainSteps)))
	return true
}
