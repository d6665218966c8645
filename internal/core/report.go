package core

import (
	"fmt"
	"strings"
)

// waitReport lists what each blocked task waits for.
func (m *machine) waitReport() string {
	var b strings.Builder
	for _, t := range m.tasks { // creation order, parked ops included
		if !t.pending() || t.fire != nil {
			continue
		}
		fmt.Fprintf(&b, "  %s: %s\n", t.Name, m.describeWait(t))
	}
	return strings.TrimRight(b.String(), "\n")
}

func (m *machine) deadlockReport() string {
	return "no task can run and no timer is pending; blocked tasks:\n" + m.waitReport()
}

func (m *machine) describeWait(t *Task) string {
	if m.describe != nil {
		if d := m.describe(t); d != "" {
			return d
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
