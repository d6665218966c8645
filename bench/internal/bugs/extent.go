package bugs

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/morpheus-go/morpheus"
)

// ExtentRepair is the extent repair liveness bug of Azure Storage vNext
// (P# §3).
//
// An extent manager tracks which extent nodes hold a replica of an extent.
// Every second each extent node sends it a heartbeat and a sync report
// listing what it stores; sync reports are large and the network may hold
// one for up to two seconds (a controlled choice). The manager's expiration
// loop (every second) expires a node from which no heartbeat came for two
// rounds, removing the node and its replicas; its repair loop (every second,
// half a second later) schedules a copy onto a live node without a replica
// whenever fewer than three replicas are known. A node asked to repair
// copies the extent from a source node and reports it in its next sync
// report.
//
// The harness starts the manager and three nodes holding the extent, lets
// them run for three seconds, crashes one node (a controlled choice) and
// starts a fresh one.
//
// The bug: the manager applies a sync report from a node it already
// expired. A report the crashed node sent just before crashing, held in the
// network past the expiration, counts its replica again: the manager sees
// three replicas while only two exist, and never repairs.
//
// The fix: sync reports from nodes the manager does not know (expired) are
// ignored.
//
// Detector: P#'s RepairMonitor, a liveness monitor that knows where the real
// replicas are: hot from the node failure until three real replicas exist
// again, with a HotLimit of 15 s of virtual time (the run stands for an
// infinite one: a correct manager repairs within a few seconds).
func ExtentRepair() Scenario {
	return built(Scenario{
		Name:    "extent-repair",
		Source:  "P# §3 (Azure Storage vNext extent manager)",
		Hit:     hit("liveness", `monitor repair is hot in state "repairing`),
		Options: []morpheus.Option{morpheus.ClockLimit(time.Minute), morpheus.MaxSteps(50000)},
	}, extentTest)

}

// exPeriod is the period of every loop.
const exPeriod = time.Second

// Messages of the extent manager and nodes.
type (
	exHeartbeat struct {
		EN  int
		PID morpheus.PID
	}
	exSync struct {
		EN  int
		Has bool // stores the extent
	}
	exExpiryTick struct{}
	exRepairTick struct{}
	exTick       struct{}
	exRepair     struct{ Source morpheus.PID }
	exCopyReq    struct{ From morpheus.PID }
	exCopyResp   struct{}
)

// Events for the monitor.
type (
	exStored struct{ EN int } // a node stores a replica
	exFailed struct{ EN int } // a node failed
)

// exNode is what the manager knows of an extent node.
type exNode struct {
	pid    morpheus.PID
	seen   bool // a heartbeat came this round
	missed int  // rounds without a heartbeat
}

// extentManager is the manager; initial are the nodes it starts with, all
// holding the extent.
func extentManager(v variant, initial []morpheus.PID) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		self := e.Self()
		nodes := map[int]*exNode{}
		center := map[int]bool{} // nodes with a replica
		for i, pid := range initial {
			nodes[i] = &exNode{pid: pid, seen: true}
			center[i] = true
		}
		repairing, waited := -1, 0
		e.SendAfter(exPeriod, self, exExpiryTick{})
		e.SendAfter(exPeriod+exPeriod/2, self, exRepairTick{})
		for {
			m := e.Receive(nil)
			v.handled(e)
			switch m := m.(type) {
			case exHeartbeat:
				if n := nodes[m.EN]; n != nil {
					n.seen = true
				} else {
					nodes[m.EN] = &exNode{pid: m.PID, seen: true} // a new node
				}
			case exSync:
				if _, known := nodes[m.EN]; v.fixed && !known {
					continue // from an expired node
				}
				if m.Has {
					center[m.EN] = true // the bug without the fix: even an expired node counts
				} else {
					delete(center, m.EN)
				}
				if m.EN == repairing && m.Has {
					repairing = -1
				}
			case exExpiryTick:
				for _, id := range slices.Sorted(maps.Keys(nodes)) {
					n := nodes[id]
					if n.seen {
						n.seen, n.missed = false, 0
						continue
					}
					if n.missed++; n.missed >= 2 {
						delete(nodes, id) // expired
						delete(center, id)
					}
				}
				e.SendAfter(exPeriod, self, exExpiryTick{})
			case exRepairTick:
				if repairing >= 0 {
					if waited++; waited > 5 {
						repairing = -1 // give up on it, try again
					}
				}
				if len(center) < 3 && repairing < 0 {
					target, source := -1, -1
					for _, id := range slices.Sorted(maps.Keys(nodes)) {
						if !center[id] && target < 0 {
							target = id
						}
						if center[id] && source < 0 {
							source = id
						}
					}
					if target >= 0 && source >= 0 {
						e.Send(nodes[target].pid, exRepair{Source: nodes[source].pid})
						repairing, waited = target, 0
					}
				}
				e.SendAfter(exPeriod, self, exRepairTick{})
			}
		}
	}
}

// extentNode is extent node id; has says whether it starts with a replica.
// Heartbeats go straight to the manager; a sync report may be held in the
// network for up to two periods.
func extentNode(id int, has bool, manager func() morpheus.PID, v variant) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		self := e.Self()
		e.SendAfter(exPeriod, self, exTick{})
		for {
			m := e.Receive(nil)
			v.handled(e)
			switch m := m.(type) {
			case exTick:
				em := manager()
				e.Send(em, exHeartbeat{EN: id, PID: self})
				if d := time.Duration(e.Choose(3)) * exPeriod; d > 0 {
					e.SendAfter(d, em, exSync{EN: id, Has: has})
				} else {
					e.Send(em, exSync{EN: id, Has: has})
				}
				e.SendAfter(exPeriod, self, exTick{})
			case exRepair:
				if !has {
					e.Send(m.Source, exCopyReq{From: self})
				}
			case exCopyReq:
				if has {
					e.Send(m.From, exCopyResp{})
				}
			case exCopyResp:
				if !has {
					has = true
					e.Announce(exStored{EN: id})
				}
			}
		}
	}
}

// exMonitor is P#'s RepairMonitor: hot while fewer than three nodes really
// hold the extent.
type exMonitor struct{ real map[int]bool }

func (o *exMonitor) Observe(m *morpheus.Mon, event any) {
	switch ev := event.(type) {
	case exStored:
		o.real[ev.EN] = true
	case exFailed:
		delete(o.real, ev.EN)
	}
	if n := len(o.real); n < 3 {
		m.Hot(fmt.Sprintf("repairing: %d real replicas", n))
	} else {
		m.Cold("repaired")
	}
}

// extentTest fails one of three extent nodes after three seconds, starts a
// new one, and leaves the manager 20 seconds to repair.
func extentTest(v variant) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		e.AddMonitor("repair", &exMonitor{real: map[int]bool{0: true, 1: true, 2: true}}, morpheus.HotLimit(15*time.Second))
		var em morpheus.PID
		manager := func() morpheus.PID { return em }
		ens := make([]morpheus.PID, 3)
		for i := range ens {
			ens[i] = e.NewNode(fmt.Sprintf("en%d", i), nil).Spawn("en", extentNode(i, true, manager, v))
		}
		em = e.NewNode("em", nil).Spawn("extmgr", extentManager(v, ens))
		e.Sleep(3 * exPeriod)
		k := e.Choose(len(ens))
		e.Announce(exFailed{EN: k})
		ens[k].Node().Crash()
		e.NewNode("en3", nil).Spawn("en", extentNode(3, false, manager, v))
		e.Sleep(20 * exPeriod)
	}
}
