package raft

import (
	"fmt"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/linearize"
)

// cluster is one iteration's raft cluster, shared by its processes (only
// one task runs at a time).
type cluster struct {
	cfg    Config
	nodes  []*morpheus.Node
	pids   []morpheus.PID // each node's current raft process (zero before it starts)
	voters []uint64
}

// done tells the harness that a client or the nemesis has finished.
type done struct{}

// Test is the harness: Config.Nodes raft nodes, each a morpheus node with
// one process; Config.Clients clients issuing gets, puts and appends through
// them; a nemesis crashing, restarting and partitioning nodes while the
// network drops, duplicates and delays messages, within the Config's
// budgets. Monitors check raft's safety properties throughout; once the
// nemesis is done, a last client operation must succeed (liveness), and the
// clients' history must be linearizable.
func Test(cfg Config) func(*morpheus.Env) {
	cfg = cfg.withDefaults()
	return func(e *morpheus.Env) {
		c := &cluster{cfg: cfg, nodes: make([]*morpheus.Node, cfg.Nodes), pids: make([]morpheus.PID, cfg.Nodes)}
		for i := range cfg.Nodes {
			c.voters = append(c.voters, uint64(i+1))
		}
		addMonitors(e)
		e.SetFaults(morpheus.Faults{
			Drop: 0.15, MaxDrops: cfg.Drops,
			Duplicate: 0.05, MaxDuplicates: cfg.Duplicates,
			Delay: 0.1, MaxDelays: cfg.Delays, DelayFor: DelayTicks * Tick,
		})
		for i := range cfg.Nodes {
			c.nodes[i] = e.NewNode(fmt.Sprintf("n%d", i+1), c.serve(uint64(i+1)))
		}
		h := linearize.NewHistory(e)
		harness := e.Self()
		e.Spawn("nemesis", func(e *morpheus.Env) {
			c.nemesis(e)
			e.Send(harness, done{})
		})
		for id := range cfg.Clients {
			e.Spawn("client", func(e *morpheus.Env) {
				cl := client{c: c, id: id, h: h}
				for n := range cfg.Ops {
					cl.op(e, n, false)
				}
				e.Send(harness, done{})
			})
		}
		for range cfg.Clients + 1 {
			morpheus.Recv[done](e)
		}
		// Every node is up and the network is sound: the cluster owes a
		// leader and a commit.
		e.Announce(FaultsOver{})
		last := client{c: c, id: cfg.Clients, h: h}
		for n := 0; !last.op(e, n, true); n++ {
		}
		e.Announce(Progress{})
		linearize.Check(e, linearize.KVModel, h)
	}
}

// nemesis spends the fault budgets at times and on nodes it chooses
// (controlled choices), then stops the network faults.
func (c *cluster) nemesis(e *morpheus.Env) {
	crashes, parts := c.cfg.Crashes, c.cfg.Partitions
	n := len(c.nodes)
	for crashes+parts > 0 {
		e.Sleep(time.Duration(e.Choose(4*ElectionTicks)) * Tick)
		if crashes > 0 && (parts == 0 || e.ChooseBool()) {
			crashes--
			victim := c.nodes[e.Choose(n)]
			victim.Crash()
			e.Sleep(time.Duration(e.Choose(2*ElectionTicks)) * Tick) // 0: a quick reboot
			victim.Restart()
			continue
		}
		parts--
		i := e.Choose(n)
		side := []*morpheus.Node{c.nodes[i]}
		var rest []*morpheus.Node
		if e.ChooseBool() { // cut one link
			rest = []*morpheus.Node{c.nodes[(i+1+e.Choose(n-1))%n]}
		} else { // isolate node i
			for j, nd := range c.nodes {
				if j != i {
					rest = append(rest, nd)
				}
			}
		}
		e.Partition(side, rest)
		e.Sleep(time.Duration(1+e.Choose(3*ElectionTicks)) * Tick)
		e.Heal()
	}
	e.SetFaults(morpheus.Faults{})
}
