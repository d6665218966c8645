package bugs

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus"
)

// Mnesia2 is mnesia taking a fault notification for a commit acknowledgment
// (Morpheus §4.3, Fig. 8).
//
// Three nodes a, b and c run a schema server ("mnesia"). The schema says
// which nodes hold a copy of table t; each server keeps it in a log on its
// node's disk and replays the log when the node restarts. Servers monitor
// each other (a Down is mnesia_down) and greet each other when they start.
// A schema change is a two-phase transaction run by a coordinator: prepare
// on every other node (a node down or going down aborts it), apply and log
// it locally, send commit to every node, then wait for each node's commit
// acknowledgment, which a node sends once the change is durable (written
// and synced).
//
// The harness asks a to remove b's copy of t while restarting node b (a
// crash, then a restart, at a moment the schedule decides); once things
// settle it checks that every node's schema agrees with the outcome a
// reported.
//
// The bug: while waiting for commit acknowledgments, the coordinator takes
// b's Down as b's acknowledgment. If b goes down after the commit was sent
// and before it synced the change, a reports the removal committed, and b
// replays a log without it when it restarts: b's copy of t comes back.
//
// The fix: a Down in the commit phase is not an acknowledgment: the
// coordinator remembers that b missed the commit and sends it again when b
// greets it after restarting.
//
// Detector: the harness's final assertion on the schemas, after the restart
// (which exercises the disk: what was not synced is lost in the crash).
func Mnesia2() Scenario {
	return built(Scenario{
		Name:    "mnesia-2",
		Source:  "Morpheus §4.3, Fig. 8 (mnesia, fault notification taken as commit ack)",
		Hit:     hit("assertion", "mnesia-2: ", "reported committed"),
		Options: []morpheus.Option{morpheus.ClockLimit(time.Minute), morpheus.MaxSteps(20000)},
	}, mnesiaTest)

}

// mnChange removes Node's copy of Table.
type mnChange struct{ Table, Node string }

// Messages of the schema servers.
type (
	// mnHello: a server started (or restarted).
	mnHello struct {
		Node string
		PID  morpheus.PID
	}
	mnPrepare struct {
		Tid    int
		Change mnChange
		From   morpheus.PID
	}
	mnPrepared struct {
		Tid  int
		Node string
	}
	mnAbort  struct{ Tid int }
	mnCommit struct {
		Tid    int
		Change mnChange
		From   morpheus.PID
	}
	mnCommitAck struct {
		Tid  int
		Node string
	}
	// Calls.
	mnDelCopy   struct{ Change mnChange }
	mnGetSchema struct{}
)

// mnSchema is which nodes hold a copy of each table.
type mnSchema map[string][]string

func (s mnSchema) apply(c mnChange) {
	s[c.Table] = slices.DeleteFunc(slices.Clone(s[c.Table]), func(n string) bool { return n == c.Node })
}

// mnInitial is the schema every node is installed with.
func mnInitial() mnSchema { return mnSchema{"t": {"a", "b"}} }

// mnServer is a node's schema server: the node's start function.
type mnServer struct {
	v      variant
	node   string
	nodes  map[string]*morpheus.Node
	disk   *morpheus.Disk
	schema mnSchema
	logLen int
	peers  map[string]morpheus.PID // up peers' servers
	tid    int
	missed map[string][]mnCommit // fixed: commits a down node must be sent again
}

func mnesiaServer(node string, nodes map[string]*morpheus.Node, v variant) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		s := &mnServer{v: v, node: node, nodes: nodes, disk: e.Self().Node().Disk(),
			peers: map[string]morpheus.PID{}, missed: map[string][]mnCommit{}}
		s.replay()
		e.Register("mnesia")
		for _, n := range slices.Sorted(maps.Keys(nodes)) {
			if n == node {
				continue
			}
			if pid := e.Whereis(nodes[n], "mnesia"); !pid.IsZero() {
				s.connect(e, n, pid)
				e.Send(pid, mnHello{Node: node, PID: e.Self()})
			}
		}
		for {
			m := e.Receive(nil)
			s.v.handled(e)
			switch m := m.(type) {
			case mnHello:
				s.connect(e, m.Node, m.PID)
				if s.v.fixed {
					for _, c := range s.missed[m.Node] {
						c.From = e.Self()
						e.Send(m.PID, c)
					}
					delete(s.missed, m.Node)
				}
			case morpheus.Down:
				for n, pid := range s.peers {
					if pid == m.PID {
						delete(s.peers, n) // mnesia_down
					}
				}
			case mnPrepare:
				e.Send(m.From, mnPrepared{Tid: m.Tid, Node: node})
			case mnAbort:
			case mnCommit:
				s.commit(m.Change)
				e.Send(m.From, mnCommitAck{Tid: m.Tid, Node: node})
			case mnCommitAck: // late, for a transaction that is over
			case request:
				switch b := m.Body.(type) {
				case mnDelCopy:
					answer(e, m, s.transaction(e, b.Change))
				case mnGetSchema:
					answer(e, m, slices.Clone(s.schema["t"]))
				}
			}
		}
	}
}

// replay rebuilds the schema from the disk's log, installing it on first boot.
func (s *mnServer) replay() {
	s.schema = mnInitial()
	n, ok := s.disk.Read("log/len")
	if !ok {
		return
	}
	s.logLen = n.(int)
	for i := range s.logLen {
		c, _ := s.disk.Read(fmt.Sprintf("log/%d", i))
		s.schema.apply(c.(mnChange))
	}
}

// commit applies a change and makes it durable.
func (s *mnServer) commit(c mnChange) {
	s.schema.apply(c)
	s.disk.Write(fmt.Sprintf("log/%d", s.logLen), c)
	s.logLen++
	s.disk.Write("log/len", s.logLen)
	s.disk.Sync()
}

func (s *mnServer) connect(e *morpheus.Env, node string, pid morpheus.PID) {
	if s.peers[node] != pid {
		s.peers[node] = pid
		e.Watch(pid)
	}
}

// transaction runs a schema change as its coordinator and returns
// "committed" or "aborted".
func (s *mnServer) transaction(e *morpheus.Env, c mnChange) string {
	s.tid++
	tid := s.tid
	var parts []string
	for _, n := range slices.Sorted(maps.Keys(s.nodes)) {
		if n != s.node {
			parts = append(parts, n)
		}
	}
	pids := map[string]morpheus.PID{}
	for _, n := range parts {
		pid, ok := s.peers[n]
		if !ok {
			return "aborted" // a schema node is not running
		}
		pids[n] = pid
	}
	downOf := func(n string) func(any) bool {
		return func(m any) bool {
			d, ok := m.(morpheus.Down)
			return ok && d.PID == pids[n]
		}
	}
	// Phase 1: prepare.
	for _, n := range parts {
		e.Send(pids[n], mnPrepare{Tid: tid, Change: c, From: e.Self()})
	}
	for _, n := range parts {
		m := e.Receive(func(m any) bool {
			p, ok := m.(mnPrepared)
			return ok && p.Tid == tid && p.Node == n || downOf(n)(m)
		})
		s.v.handled(e)
		if _, ok := m.(morpheus.Down); ok {
			delete(s.peers, n)
			for _, p := range parts {
				e.Send(pids[p], mnAbort{Tid: tid})
			}
			return "aborted"
		}
	}
	// Phase 2: commit locally, then everywhere, and wait for the acks.
	s.commit(c)
	for _, n := range parts {
		e.Send(pids[n], mnCommit{Tid: tid, Change: c, From: e.Self()})
	}
	for _, n := range parts { // sync_schema_commit
		m := e.Receive(func(m any) bool {
			a, ok := m.(mnCommitAck)
			return ok && a.Tid == tid && a.Node == n || downOf(n)(m)
		})
		s.v.handled(e)
		if _, ok := m.(morpheus.Down); ok {
			delete(s.peers, n) // mnesia_down
			if s.v.fixed {
				s.missed[n] = append(s.missed[n], mnCommit{Tid: tid, Change: c})
			}
			// The bug without the fix: the Down counts as n's ack.
		}
	}
	return "committed"
}

// mnesiaTest removes b's copy of t while node b restarts, then checks the
// schemas against the reported outcome.
func mnesiaTest(v variant) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		names := []string{"a", "b", "c"}
		nodes := map[string]*morpheus.Node{}
		for _, n := range names { // a node's start function is its schema server
			nodes[n] = e.NewNode(n, mnesiaServer(n, nodes, v))
		}
		e.Sleep(time.Second) // the cluster settles
		nb := nodes["b"]
		restarter := e.Spawn("restarter", func(e *morpheus.Env) {
			nb.Crash()
			nb.Restart()
		})
		done := e.Watch(restarter)
		coord := e.Whereis(nodes["a"], "mnesia")
		change := mnChange{Table: "t", Node: "b"}
		out, err := call(e, coord, mnDelCopy{Change: change})
		e.Assert(err == nil, "mnesia-2: coordinator exited: %v", err)
		e.Receive(func(m any) bool { d, ok := m.(morpheus.Down); return ok && d.Ref == done })
		e.Sleep(time.Second) // b's server restarted, greeted, caught up
		want := mnInitial()
		if out == "committed" {
			want.apply(change)
		}
		for _, n := range names {
			pid := e.Whereis(nodes[n], "mnesia")
			got, err := call(e, pid, mnGetSchema{})
			e.Assert(err == nil, "mnesia-2: %s's server exited: %v", n, err)
			e.Assert(slices.Equal(got.([]string), want["t"]),
				"mnesia-2: removal of b's copy of t reported %s, but after the restart node %s's schema lists copies [%s]",
				out, n, strings.Join(got.([]string), " "))
		}
	}
}
