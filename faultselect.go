package morpheus

import "slices"

// Msg is a message between nodes as Faults.Only sees it: who sends it, to
// whom, and what.
type Msg struct {
	From, To PID
	Body     any
}

// MsgFilter selects messages: those for which it returns true. It is what
// Faults.Only takes, so that faults strike only the messages a test means
// them for (replication, not the test's own client requests). The filters
// below select by link, by process and by type; any func(Msg) bool serves,
// and Not inverts one. A filter runs in the sending task before its send and
// must be a plain function of its argument: no morpheus operations, no
// other source of nondeterminism.
type MsgFilter func(m Msg) bool

// OneWay selects the messages sent by a process on a node of from to a
// process on a node of to: the links from → to, in that direction only.
func OneWay(from, to []*Node) MsgFilter {
	return func(m Msg) bool {
		return slices.Contains(from, m.From.Node()) && slices.Contains(to, m.To.Node())
	}
}

// Between selects the messages between a node of a and a node of b, both
// ways: the links Partition(a, b) would cut. Between(ns, ns) selects the
// messages among the nodes ns.
func Between(a, b []*Node) MsgFilter {
	there, back := OneWay(a, b), OneWay(b, a)
	return func(m Msg) bool { return there(m) || back(m) }
}

// Involving selects the messages that one of the processes pids sends or
// receives.
func Involving(pids ...PID) MsgFilter {
	return func(m Msg) bool {
		return slices.Contains(pids, m.From) || slices.Contains(pids, m.To)
	}
}

// Named selects the messages that a process with one of the given names
// sends or receives. A name is the one given to Spawn ("client": every
// process spawned so, on any node, including those a node's restart
// spawns again) or a process's full name, as PID.String returns it
// ("client#2@n1"); the test's main task is "main".
func Named(names ...string) MsgFilter {
	return func(m Msg) bool { return m.From.named(names) || m.To.named(names) }
}

// named reports whether the process has one of names.
func (p PID) named(names []string) bool {
	if p.p == nil {
		return false
	}
	for _, n := range names {
		if n != "" && (n == p.p.name || n == p.p.task.Name) {
			return true
		}
	}
	return false
}

// OfType selects the messages of type T.
func OfType[T any]() MsgFilter {
	return func(m Msg) bool {
		_, ok := m.Body.(T)
		return ok
	}
}

// Not selects the messages f does not: Not(Involving(client)) leaves the
// client's traffic alone.
func Not(f MsgFilter) MsgFilter {
	return func(m Msg) bool { return !f(m) }
}
