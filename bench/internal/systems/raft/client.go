package raft

import (
	"fmt"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/linearize"
)

// Keys are the keys the clients use.
var Keys = []string{"x", "y"}

// client issues operations through the cluster and records them.
type client struct {
	c  *cluster
	id int
	h  *linearize.History
}

// op runs the client's n-th operation: a get, put or append of one of the
// Keys (an append is not idempotent: applied twice, its value shows twice).
// It sends the operation to a node it chooses; a node that is not the leader
// refuses it, and the client tries the leader it names, or the next node,
// up to Attempts times. It reports whether the operation returned; one that
// timed out stays pending in the history (it may have taken effect). The
// last client (last) issues only gets.
func (cl *client) op(e *morpheus.Env, n int, last bool) bool {
	c := cl.c
	key := Keys[e.Choose(len(Keys))]
	in := linearize.KVInput{Op: linearize.KVGet, Key: key}
	if !last {
		switch e.Choose(3) {
		case 1:
			in = linearize.KVInput{Op: linearize.KVPut, Key: key, Value: fmt.Sprintf("%d.%d", cl.id, n)}
		case 2:
			in = linearize.KVInput{Op: linearize.KVAppend, Key: key, Value: fmt.Sprintf("+%d.%d", cl.id, n)}
		}
	}
	rid := ReqID{Client: cl.id, N: n}
	op := cl.h.Call(cl.id, in)
	to := e.Choose(len(c.nodes))
	for try := range Attempts {
		pid := c.pids[to]
		if pid.IsZero() || !c.nodes[to].Up() {
			to = (to + 1) % len(c.nodes) // nothing sent: try the next node later
			e.Sleep(ElectionTicks * Tick)
			continue
		}
		e.Send(pid, Request{ID: rid, Attempt: try, From: e.Self(), Cmd: Command{ID: rid, In: in}})
		m, ok := e.ReceiveTimeout(func(m any) bool {
			r, ok := m.(Reply)
			return ok && r.ID == rid && r.Attempt == try
		}, ClientTimeout)
		if !ok {
			return false // pending: the command may still commit
		}
		r := m.(Reply)
		if !r.Rejected {
			cl.h.Return(op, linearize.KVOutput{Value: r.Value})
			if c.cfg.Stats != nil {
				c.cfg.Stats.Ops.Add(1)
			}
			return true
		}
		if r.Leader != 0 && int(r.Leader-1) != to {
			to = int(r.Leader - 1)
		} else {
			to = (to + 1) % len(c.nodes)
			e.Sleep(ElectionTicks * Tick) // no leader yet: let an election happen
		}
	}
	return false // refused every time: never proposed
}
