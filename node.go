package morpheus

import (
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// Node is a simulated machine: a group of processes that crash together and
// a registry of names. The test's main task runs on the harness node, which
// has no name and cannot crash.
type Node struct {
	env     *Env
	name    string
	index   int
	up      bool
	res     uint32 // touched by spawn, crash and restart
	start   func(*Env)
	procs   []*process          // live processes, in spawn order
	names   map[string]*process // registered names; nil until the first Register
	nameRes map[string]uint32   // see nameResource; nil until first needed
	spawned []spawnCount        // processes spawned per name, to make names unique (countSpawn)
	// spawnedMap replaces spawned once a node has spawned many names.
	spawnedMap map[string]int
	disk       *Disk
	procBuf    [4]*process   // procs' first backing array
	countBuf   [2]spawnCount // spawned's first backing array
}

// NewNode adds a node. If start is not nil it runs as the node's "init"
// process now and again after every Restart. Node names must be unique.
//
//go:noinline
func (e *Env) NewNode(name string, start func(e *Env)) *Node {
	if name == "" || e.Node(name) != nil {
		e.run.Fail(core.Panic, goruntime.CallerPC(), "NewNode: node name "+quote(name)+" is empty or already used")
	}
	n := e.newNode(name)
	n.start = start
	if start != nil {
		e.spawn(n, "init", start, goruntime.CallerPC())
	}
	return n
}

func (e *Env) newNode(name string) *Node {
	var n *Node
	switch {
	case len(e.nodes) == 0:
		n = &e.harness
	case len(e.nodeSlab) > 0:
		n, e.nodeSlab = &e.nodeSlab[0], e.nodeSlab[1:]
	default:
		e.nodeSlab = make([]Node, 2) // nodes come a few at a time
		n, e.nodeSlab = &e.nodeSlab[0], e.nodeSlab[1:]
	}
	*n = Node{env: e, name: name, index: len(e.nodes), up: true, res: e.run.NewResource()}
	n.procs, n.spawned = n.procBuf[:0], n.countBuf[:0]
	e.nodes = append(e.nodes, n)
	return n
}

// spawnCount is how many processes of one name a node has spawned.
type spawnCount struct {
	name string
	n    int
}

// countSpawn counts a process spawned under name and returns how many had the
// name before it. A node usually spawns few distinct names, which a slice
// counts faster than a map; past a few the counts move to a map.
func (n *Node) countSpawn(name string) int {
	if n.spawnedMap != nil {
		k := n.spawnedMap[name]
		n.spawnedMap[name] = k + 1
		return k
	}
	for i := range n.spawned {
		if c := &n.spawned[i]; c.name == name {
			c.n++
			return c.n - 1
		}
	}
	if len(n.spawned) == maxSpawnNames {
		n.spawnedMap = make(map[string]int, 2*maxSpawnNames)
		for _, c := range n.spawned {
			n.spawnedMap[c.name] = c.n
		}
		n.spawned = nil
		n.spawnedMap[name] = 1
		return 0
	}
	n.spawned = append(n.spawned, spawnCount{name, 1})
	return 0
}

// maxSpawnNames is how many distinct names a node counts in its slice.
const maxSpawnNames = 16

// Node returns the node with the given name, or nil.
func (e *Env) Node(name string) *Node {
	for _, n := range e.nodes {
		if n.name == name {
			return n
		}
	}
	return nil
}

// Name returns the node's name ("" for the harness node).
func (n *Node) Name() string { return n.name }

// Up reports whether the node is running (a plain read, not an op).
func (n *Node) Up() bool { return n.up }

// String returns the node's name.
func (n *Node) String() string {
	if n.name == "" {
		return "harness"
	}
	return n.name
}

// Spawn starts a process running body on the node. A process spawned on a
// node that is down is dead from the start.
//
//go:noinline
func (n *Node) Spawn(name string, body func(e *Env)) PID {
	return n.env.spawn(n, name, body, goruntime.CallerPC())
}

// Crash stops the node: its processes die (their deferred calls run, their
// monitors receive Down with ReasonNodeDown, linked processes elsewhere get
// the exit signal), its registry is cleared, its disk loses what was not
// synced, and messages to it are dropped.
// A process may crash its own node; it dies last. The processes die one
// step each, then the node goes down in a last step.
//
//go:noinline
func (n *Node) Crash() {
	e := n.env
	r := e.run
	pc := goruntime.CallerPC()
	if n.name == "" {
		r.Fail(core.Panic, pc, "Crash: the harness node cannot crash")
	}
	// The node's processes die one op each, as Morpheus shuts a node down:
	// each kill touches its process's resource, so strategies and conflict
	// analysis see that a crash races with what those processes do.
	self := e.self()
	for n.up {
		var victim *process
		for _, p := range n.procs {
			if p != self && p.alive {
				victim = p
				break
			}
		}
		if victim == nil {
			break
		}
		r.Do(r.Current(), PID{victim}.op(kindKill, pc))
		if victim.alive {
			e.terminate(victim, ReasonNodeDown)
			r.Kill(victim.task)
		}
	}
	r.Do(r.Current(), core.Op{Kind: kindCrash, Obj: -1, Res: n.res, Val: int64(n.index), PC: pc})
	if !n.up {
		e.settle()
		return
	}
	n.up = false
	clear(n.names)
	if n.disk != nil {
		n.disk.crash()
	}
	for _, p := range append([]*process(nil), n.procs...) { // the caller, if on the node
		e.terminate(p, ReasonNodeDown)
		if p != self {
			r.Kill(p.task)
		}
	}
	n.procs = nil
	if self != nil && self.node == n {
		e.dying = true
	}
	e.settle()
}

// Restart brings a crashed node back up and runs its start function again as
// a fresh "init" process. Restarting a node that is up fails the test.
//
//go:noinline
func (n *Node) Restart() {
	e := n.env
	r := e.run
	pc := goruntime.CallerPC()
	r.Do(r.Current(), core.Op{Kind: kindRestart, Obj: -1, Res: n.res, Val: int64(n.index), PC: pc})
	if n.up {
		r.Fail(core.Assertion, pc, "Restart: node "+n.name+" is up")
	}
	n.up = true
	if n.start != nil {
		e.spawn(n, "init", n.start, pc)
	}
}
