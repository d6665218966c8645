package morpheus

import (
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/trace"
)

// Faults describes how the network between nodes misbehaves in an iteration
// (see Env.SetFaults). Every fault is a controlled choice: strategies explore
// when it strikes, and a trace replays it. Only says which messages faults
// may strike; the zero value of it selects every message between nodes.
//
// Without faults a message lands in its receiver's mailbox when it is sent,
// so messages between two processes never overtake each other. Bugs that
// need a slow or reordering network (stale reads, late fault reports) need
// Delay or Reorder.
type Faults struct {
	// Drop, Duplicate and Delay are the probabilities that a message between
	// two nodes is lost, delivered twice, or held in flight (delivered later,
	// so later messages may overtake it). 0 means never.
	Drop, Duplicate, Delay float64
	// MaxDrops, MaxDuplicates and MaxDelays bound how many messages each fault
	// may hit in one iteration (0: no bound).
	MaxDrops, MaxDuplicates, MaxDelays int
	// DelayFor is the virtual time a delayed message spends in flight at
	// least; 0 leaves its delivery to the strategy alone.
	DelayFor time.Duration
	// Reorder sends every message between nodes through the network as its
	// own delivery step: messages between two processes may arrive in any
	// order (no FIFO).
	Reorder bool
	// Only selects the messages the faults above (Reorder too) may strike;
	// nil selects every message between nodes. The others travel as if no
	// faults were set, and cost no choice. Only selects among messages
	// between nodes: those within a node are never faulted. It does not
	// limit Partition, which cuts every message across it, selected or not.
	// See MsgFilter, OneWay, Between, Involving, Named, OfType and Not.
	Only MsgFilter
}

// faultResolution is the denominator of a fault's probability: a message's
// fate is one controlled choice among this many equally likely values.
const faultResolution = 1000

// network is the iteration's network state.
type network struct {
	f        Faults
	on       bool // some fault or partition may apply
	res      uint32
	cut      map[[2]int]bool // node index pairs that cannot talk
	nparts   int
	drops    int
	dups     int
	delays   int
	inFlight int
}

// SetFaults makes the network between nodes faulty for the rest of the
// iteration. Messages a process sends to itself, and messages within one
// node, are never affected; f.Only narrows the faults to the messages it
// selects. A later SetFaults replaces f (SetFaults(Faults{}) ends the
// faults); the budgets count over the whole iteration.
func (e *Env) SetFaults(f Faults) {
	e.net.f = f
	e.net.on = true
}

// fate is what happens to one message.
type fate uint8

const (
	fateDeliver fate = iota
	fateDrop
	fateDuplicate
	fateDelay
)

// decide draws a message's fate: one controlled choice, made only for a
// message Only selects while some fault can still strike. The choice is a
// fault decision in the trace (trace.FlagFault): it names the receiver and
// the fault that struck, so that renderings say what happened.
func (e *Env) decide(from, to *process, msg any, pc uintptr) fate {
	n := &e.net
	if !n.on || to == nil || from == nil || from.node == to.node {
		return fateDeliver
	}
	f := &n.f
	drop := f.Drop > 0 && (f.MaxDrops == 0 || n.drops < f.MaxDrops)
	dup := f.Duplicate > 0 && (f.MaxDuplicates == 0 || n.dups < f.MaxDuplicates)
	delay := f.Delay > 0 && (f.MaxDelays == 0 || n.delays < f.MaxDelays)
	if !drop && !dup && !delay && !f.Reorder {
		return fateDeliver
	}
	if f.Only != nil && !f.Only(Msg{From: PID{from}, To: PID{to}, Body: msg}) {
		return fateDeliver
	}
	if !drop && !dup && !delay {
		return fateDelay // Reorder
	}
	r := e.run
	v := float64(r.Choose(r.Current(), faultResolution, pc)) / faultResolution
	fa, struck := fateDeliver, trace.Flag(0)
	switch {
	case drop && v < f.Drop:
		n.drops++
		fa, struck = fateDrop, trace.FlagDropped
	case dup && v >= f.Drop && v < f.Drop+f.Duplicate:
		n.dups++
		fa, struck = fateDuplicate, trace.FlagDuplicated
	case delay && v >= f.Drop+f.Duplicate && v < f.Drop+f.Duplicate+f.Delay:
		n.delays++
		fa, struck = fateDelay, trace.FlagDelayed
	case f.Reorder:
		fa = fateDelay
	}
	ev := r.Event()
	ev.Obj = to.task.ID
	ev.Flag |= trace.FlagFault | struck
	return fa
}

// route carries a sent message according to its fate.
func (e *Env) route(from, to *process, msg any, id int64, fa fate, ev *trace.Event, pc uintptr) {
	switch fa {
	case fateDrop:
		ev.Flag |= trace.FlagDropped
	case fateDeliver, fateDuplicate:
		if e.severed(from, to) || !e.deliver(from, to, msg, id) {
			ev.Flag |= trace.FlagDropped
			return
		}
		if fa == fateDuplicate {
			e.inFlight(from, to, msg, e.run.AddMsg(msg), pc)
		}
	case fateDelay:
		e.inFlight(from, to, msg, id, pc)
	}
}

// inFlight holds a message in the network until the strategy delivers it (or
// DelayFor has passed and then the strategy delivers it).
func (e *Env) inFlight(from, to *process, msg any, id int64, pc uintptr) {
	r := e.run
	n := &e.net
	n.inFlight++
	deadline := r.Now() + int64(n.f.DelayFor)
	t := r.SpawnTimer(r.Current(), "net", trace.KindDeliver, deadline, pc, fireInFlight)
	t.Ext = e.newTimed(timedMsg{e: e, from: from, to: to, msg: msg, id: id})
}

// fireInFlight is the delivery of a message the network held.
func fireInFlight(t *core.Task) {
	m := t.Ext.(*timedMsg)
	e := m.e
	ev := e.run.Event()
	ev.Val, ev.Obj, ev.Res = m.id, m.to.task.ID, m.to.res
	if e.severed(m.from, m.to) || !e.deliver(m.from, m.to, m.msg, m.id) {
		ev.Flag |= trace.FlagDropped
	}
}

// severed reports whether a partition separates the nodes of from and to.
func (e *Env) severed(from, to *process) bool {
	if len(e.net.cut) == 0 || from == nil || to == nil {
		return false
	}
	return e.net.cut[[2]int{from.node.index, to.node.index}]
}

// Partition cuts the network between every node of a and every node of b,
// both ways, until Heal. Messages sent across the cut, and messages in flight
// when they arrive, are dropped.
//
//go:noinline
func (e *Env) Partition(a, b []*Node) {
	r := e.run
	n := &e.net
	n.nparts++
	r.Do(r.Current(), core.Op{Kind: trace.KindPartition, Obj: -1, Res: e.netRes(), Val: int64(n.nparts), PC: goruntime.CallerPC()})
	if n.cut == nil {
		n.cut = map[[2]int]bool{}
	}
	for _, x := range a {
		for _, y := range b {
			if x != y {
				n.cut[[2]int{x.index, y.index}] = true
				n.cut[[2]int{y.index, x.index}] = true
			}
		}
	}
}

// Heal removes every partition.
//
//go:noinline
func (e *Env) Heal() {
	r := e.run
	r.Do(r.Current(), core.Op{Kind: trace.KindHeal, Obj: -1, Res: e.netRes(), PC: goruntime.CallerPC()})
	clear(e.net.cut)
}

func (e *Env) netRes() uint32 {
	if e.net.res == 0 {
		e.net.res = e.run.NewResource()
	}
	return e.net.res
}

// Chaos starts a process on the harness node that crashes nodes: up to
// crashes times it chooses (a controlled choice) one of nodes to crash, or to
// stop; with restart, each crashed node is restarted by a later step. Its
// steps interleave with the system's like any process's, so strategies
// explore when the crashes strike.
func (e *Env) Chaos(nodes []*Node, crashes int, restart bool) PID {
	h := e.nodes[0]
	return e.spawn(h, "chaos", func(e *Env) {
		for range crashes {
			i := e.Choose(len(nodes) + 1)
			if i == len(nodes) {
				return
			}
			n := nodes[i]
			if !n.up {
				continue
			}
			n.Crash()
			if restart {
				e.Yield()
				n.Restart()
			}
		}
	}, goruntime.CallerPC())
}
