package kv

import (
	"fmt"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/linearize"
)

// Config sets up a test of the store.
type Config struct {
	// BackupReads lets the clients' load balancer send a get to either
	// replica: the bug. Without it every get goes to the primary.
	BackupReads bool
	// Clients is how many clients run concurrently (default 3), and Ops how
	// many operations each issues (default 3).
	Clients, Ops int
	// Drops is how many messages between nodes the network may lose (default
	// none). A client whose request or reply is lost times out and goes on
	// with its next operation; the lost one stays pending.
	Drops int
}

// Keys are the keys the clients use.
var Keys = []string{"x", "y"}

// Timeout is how long a client waits for a reply. On the virtual clock a
// time-out fires only when nothing else can happen, so it fires only for a
// lost message.
const Timeout = time.Second

// done tells the harness that a client has finished.
type done struct{}

// Test is the harness: a primary and a backup on two nodes, and clients that
// issue gets and puts of nondeterministic keys, recorded in a
// linearize.History and checked against linearize.KVModel at the end.
func Test(cfg Config) func(*morpheus.Env) {
	if cfg.Clients == 0 {
		cfg.Clients = 3
	}
	if cfg.Ops == 0 {
		cfg.Ops = 3
	}
	return func(e *morpheus.Env) {
		// Messages between nodes travel independently and arrive in any
		// order; some may be lost.
		f := morpheus.Faults{Reorder: true}
		if cfg.Drops > 0 {
			f.Drop, f.MaxDrops = 0.1, cfg.Drops
		}
		e.SetFaults(f)
		h := linearize.NewHistory(e)
		backup := e.NewNode("backup", nil).Spawn("backup", Backup)
		primary := e.NewNode("primary", nil).Spawn("primary", Primary(backup))
		harness := e.Self()
		for c := range cfg.Clients {
			e.Spawn("client", func(e *morpheus.Env) {
				cl := client{id: c, h: h, primary: primary, backup: backup, backupReads: cfg.BackupReads}
				for n := range cfg.Ops {
					cl.op(e, n)
				}
				e.Send(harness, done{})
			})
		}
		for range cfg.Clients {
			morpheus.Recv[done](e)
		}
		linearize.Check(e, linearize.KVModel, h)
	}
}

// client issues operations and records them.
type client struct {
	id              int
	h               *linearize.History
	primary, backup morpheus.PID
	backupReads     bool
}

// op issues the client's n-th operation: a get or a put (of a value unique
// to the operation) of one of the Keys.
func (c *client) op(e *morpheus.Env, n int) {
	key := Keys[e.Choose(len(Keys))]
	rid := ReqID{Client: c.id, N: n}
	if e.ChooseBool() {
		value := fmt.Sprintf("%d.%d", c.id, n)
		id := c.h.Call(c.id, linearize.KVInput{Op: linearize.KVPut, Key: key, Value: value})
		e.Send(c.primary, Put{ID: rid, From: e.Self(), Key: key, Value: value})
		if _, ok := c.await(e, rid); ok {
			c.h.Return(id, linearize.KVOutput{})
		}
		return
	}
	to := c.primary
	if c.backupReads && e.ChooseBool() {
		to = c.backup // the bug: the backup may not have a write the primary has served
	}
	id := c.h.Call(c.id, linearize.KVInput{Op: linearize.KVGet, Key: key})
	e.Send(to, Get{ID: rid, From: e.Self(), Key: key})
	if r, ok := c.await(e, rid); ok {
		c.h.Return(id, linearize.KVOutput{Value: r.(GetReply).Value})
	}
}

// await waits for the reply to request rid, or gives up after Timeout.
func (c *client) await(e *morpheus.Env, rid ReqID) (any, bool) {
	return e.ReceiveTimeout(func(m any) bool {
		switch r := m.(type) {
		case GetReply:
			return r.ID == rid
		case PutReply:
			return r.ID == rid
		}
		return false
	}, Timeout)
}
