package morpheus

import (
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// Register gives the calling process a name on its node. It reports false if
// the name is taken by a live process. A process may hold several names;
// they are released when it exits or its node crashes.
//
//go:noinline
func (e *Env) Register(name string) bool {
	r := e.run
	self := e.self()
	n := self.node
	r.Do(r.Current(), core.Op{Kind: kindRegister, Obj: -1, Res: n.nameResource(name), PC: goruntime.CallerPC()})
	if q := n.names[name]; q != nil && q.alive {
		return false
	}
	if n.names == nil {
		n.names = map[string]*process{}
	}
	n.names[name] = self
	self.names = append(self.names, name)
	return true
}

// Unregister removes a name from the calling process's node.
//
//go:noinline
func (e *Env) Unregister(name string) {
	r := e.run
	n := e.self().node
	r.Do(r.Current(), core.Op{Kind: kindUnregister, Obj: -1, Res: n.nameResource(name), PC: goruntime.CallerPC()})
	if q := n.names[name]; q != nil {
		delete(n.names, name)
		for i, s := range q.names {
			if s == name {
				q.names = append(q.names[:i], q.names[i+1:]...)
				break
			}
		}
	}
}

// Whereis looks up a name registered on node n; the zero PID if none (or if
// the node is down). Lookups read, registrations write: two lookups of one
// name do not conflict.
//
//go:noinline
func (e *Env) Whereis(n *Node, name string) PID {
	r := e.run
	r.Do(r.Current(), core.Op{Kind: kindWhereis, Obj: -1, Res: n.nameResource(name), Read: true, PC: goruntime.CallerPC()})
	if !n.up {
		return PID{}
	}
	return PID{n.names[name]}
}

// nameResource returns the resource standing for a registry entry, so that
// operations on different names never conflict.
func (n *Node) nameResource(name string) uint32 {
	res, ok := n.nameRes[name]
	if !ok {
		res = n.env.run.NewResource()
		if n.nameRes == nil {
			n.nameRes = map[string]uint32{}
		}
		n.nameRes[name] = res
	}
	return res
}
