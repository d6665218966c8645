package morpheus

import (
	"fmt"
	"strconv"
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/trace"
)

// PID identifies a process of the iteration. The zero PID refers to no
// process; sending to it, like sending to a dead process, drops the message.
type PID struct{ p *process }

// String returns the process's name, "name@node" for processes on a node.
func (p PID) String() string {
	if p.p == nil {
		return "<nil>"
	}
	return p.p.task.Name
}

// IsZero reports whether p refers to no process.
func (p PID) IsZero() bool { return p.p == nil }

// Node returns the node the process runs on (the harness node for the test's
// main task and processes it spawned without a node).
func (p PID) Node() *Node {
	if p.p == nil {
		return nil
	}
	return p.p.node
}

// Alive reports whether the process is running. It is a plain read of the
// harness's view, not an op: use it in assertions, not in protocol logic.
func (p PID) Alive() bool { return p.p != nil && p.p.alive }

// process is the actor state of a task.
type process struct {
	env      *Env
	task     *core.Task
	node     *Node
	name     string // the name given to Spawn (see Named)
	res      uint32 // the process's resource: its mailbox and its life
	mbox     []envelope
	head     int
	match    matcher // the pending receive's match (nil: any message)
	waiting  bool    // blocked in receive
	alive    bool
	reason   any
	trap     bool
	links    []*process
	watchers []*watch    // watches held on this process
	names    []string    // registered names
	mbuf     [2]envelope // the mailbox's first backing array
}

// newProcess returns a zeroed process from the iteration's slab: processes
// are allocated a few at a time, not one by one.
func (e *Env) newProcess() *process {
	if len(e.slab) == 0 {
		n := 4
		if len(e.procs) >= 8 {
			n = 32
		}
		e.slab = make([]process, n)
	}
	p := &e.slab[0]
	e.slab = e.slab[1:]
	return p
}

type envelope struct {
	from *process // nil for runtime messages (timers fire with their creator as sender)
	msg  any
	id   int64
}

// Spawn starts a process running body on the node of the calling process.
//
//go:noinline
func (e *Env) Spawn(name string, body func(e *Env)) PID {
	return e.spawn(e.self().node, name, body, goruntime.CallerPC())
}

// Self returns the calling process.
func (e *Env) Self() PID { return PID{e.self()} }

func (e *Env) self() *process {
	if id := int(e.run.Current().ID); id < len(e.procs) {
		return e.procs[id]
	}
	return nil
}

func (e *Env) spawn(n *Node, name string, body func(*Env), pc uintptr) PID {
	r := e.run
	r.Do(r.Current(), core.Op{Kind: kindSpawn, Obj: -1, Res: n.res, PC: pc})
	return e.start(n, name, body)
}

// start creates the process (the effect of a spawn op).
func (e *Env) start(n *Node, name string, body func(*Env)) PID {
	r := e.run
	parent := r.Current()
	key := core.ChildKey(parent)
	var full string
	if name != "" {
		full, key = e.names().of(n.name, name, n.countSpawn(name))
	} else {
		full = "p" + strconv.Itoa(len(r.Tasks()))
		if n.name != "" {
			full += "@" + n.name
		}
	}
	p := e.newProcess()
	*p = process{env: e, node: n, name: name, res: r.NewResource(), alive: n.up}
	p.mbox = p.mbuf[:0]
	p.task = r.Spawn(parent, full, key, func() { body(e) })
	p.task.Ext = p
	p.task.Daemon = true // a server: a process still waiting at the end is no leak
	p.task.SetOnExit(p.res, processExit)
	e.addProc(p)
	if r.Event().Kind == kindSpawn {
		r.Event().Obj = p.task.ID
	}
	if !n.up {
		r.Kill(p.task) // spawned on a down node: dead at once
	} else {
		n.procs = append(n.procs, p)
	}
	return PID{p}
}

// processExit is every process's exit hook: its task has ended.
func processExit(t *core.Task, reason any) {
	p := t.Ext.(*process)
	p.env.terminate(p, reason)
}

func (e *Env) addProc(p *process) {
	for int(p.task.ID) >= len(e.procs) {
		e.procs = append(e.procs, nil)
	}
	e.procs[p.task.ID] = p
}

// Send sends msg to the process to, asynchronously. Messages from one
// process to another arrive in the order they were sent (unless SetFaults
// says otherwise); a message to a dead process, or to a process on a node
// that is down, is dropped.
//
//go:noinline
func (e *Env) Send(to PID, msg any) {
	r := e.run
	pc := goruntime.CallerPC()
	from := e.self()
	fa := e.decide(from, to.p, msg, pc)
	r.Do(r.Current(), to.op(kindSend, pc))
	id := e.newMsg(msg)
	ev := r.Event()
	ev.Val = id
	e.route(from, to.p, msg, id, fa, ev, pc)
}

func (e *Env) newMsg(msg any) int64 {
	return e.run.AddMsg(msg)
}

// deliver puts msg into to's mailbox and wakes a receive waiting for it.
func (e *Env) deliver(from, to *process, msg any, id int64) bool {
	if to == nil || !to.alive || !to.node.up {
		return false
	}
	to.mbox = append(to.mbox, envelope{from: from, msg: msg, id: id})
	if to.waiting && (to.match == nil || to.match.matches(msg)) {
		to.waiting = false
		e.run.Unblock(to.task)
	}
	return true
}

// Receive takes the first message in the calling process's mailbox for which
// match returns true (any message if match is nil), waiting until one
// arrives. Messages that do not match stay in the mailbox, in order.
//
//go:noinline
func (e *Env) Receive(match func(msg any) bool) any {
	m, _ := e.receive(matcherOf(match), -1, goruntime.CallerPC())
	return m
}

// ReceiveTimeout is Receive with a time-out of d virtual time: it returns
// false if no matching message arrived in time. A time-out fires only when
// nothing else can run (see Sleep), so d is a lower bound, not a race.
//
//go:noinline
func (e *Env) ReceiveTimeout(match func(msg any) bool, d time.Duration) (any, bool) {
	return e.receive(matcherOf(match), max(d, 0), goruntime.CallerPC())
}

func (e *Env) receive(match matcher, d time.Duration, pc uintptr) (any, bool) {
	r := e.run
	p := e.self()
	i := p.find(match)
	op := core.Op{Kind: kindRecv, Obj: -1, Res: p.res, PC: pc, Blocked: i < 0}
	if d >= 0 {
		op.HasDeadline, op.Deadline = true, r.Now()+int64(d)
	}
	p.match, p.waiting = match, i < 0
	timedOut := r.Do(r.Current(), op)
	p.match, p.waiting = nil, false
	if timedOut {
		r.Event().Flag |= trace.FlagTimeout
		return nil, false
	}
	m := p.take(p.find(match))
	ev := r.Event()
	ev.Val = m.id
	if m.from != nil {
		ev.Obj = m.from.task.ID
	}
	return m.msg, true
}

// Recv receives the first message of type T (see Env.Receive).
//
//go:noinline
func Recv[T any](e *Env) T {
	m, _ := e.receive(typeMatch[T]{}, -1, goruntime.CallerPC())
	return m.(T)
}

// RecvTimeout receives the first message of type T, or times out after d
// (see Env.ReceiveTimeout).
//
//go:noinline
func RecvTimeout[T any](e *Env, d time.Duration) (T, bool) {
	m, ok := e.receive(typeMatch[T]{}, max(d, 0), goruntime.CallerPC())
	if !ok {
		var zero T
		return zero, false
	}
	return m.(T), true
}

// A matcher says which messages a receive takes. Recv's typeMatch is a
// value of no size, so a typed receive costs no allocation (a generic
// function's value would: it carries its dictionary).
type matcher interface{ matches(m any) bool }

// typeMatch takes the messages of type T.
type typeMatch[T any] struct{}

func (typeMatch[T]) matches(m any) bool {
	_, ok := m.(T)
	return ok
}

// funcMatch takes the messages a Receive's match function takes; nil takes
// any message (see matcherOf).
type funcMatch func(any) bool

func (f funcMatch) matches(m any) bool { return f(m) }

// matcherOf returns the matcher of a Receive's match function: nil (any
// message) for nil.
func matcherOf(f func(any) bool) matcher {
	if f == nil {
		return nil
	}
	return funcMatch(f)
}

// find returns the index of the first matching message, or -1.
func (p *process) find(match matcher) int {
	for i := p.head; i < len(p.mbox); i++ {
		if match == nil || match.matches(p.mbox[i].msg) {
			return i
		}
	}
	return -1
}

// take removes and returns message i of the mailbox.
func (p *process) take(i int) envelope {
	m := p.mbox[i]
	if i == p.head {
		p.mbox[i] = envelope{}
		p.head++
		if p.head == len(p.mbox) {
			p.mbox, p.head = p.mbox[:0], 0
		}
		return m
	}
	copy(p.mbox[i:], p.mbox[i+1:])
	p.mbox[len(p.mbox)-1] = envelope{}
	p.mbox = p.mbox[:len(p.mbox)-1]
	return m
}

// Timer is a message scheduled by SendAfter.
type TimerRef struct {
	t *core.Task
}

// SendAfter sends msg to `to` after d of virtual time, as if the calling
// process sent it then. The timer is its own task: strategies may fire it
// at any point once its deadline is reached.
//
//go:noinline
func (e *Env) SendAfter(d time.Duration, to PID, msg any) TimerRef {
	r := e.run
	pc := goruntime.CallerPC()
	self := r.Current()
	r.Do(self, core.Op{Kind: kindSpawn, Obj: -1, PC: pc})
	tk := r.SpawnTimer(self, r.TimerName(self), kindTimer, r.Now()+int64(max(d, 0)), pc, fireSendAfter)
	tk.Ext = e.newTimed(timedMsg{e: e, from: e.self(), to: to.p, msg: msg})
	r.Event().Obj = tk.ID
	return TimerRef{tk}
}

// fireSendAfter is the firing of every SendAfter timer: the message is sent
// now, from the timer's creator.
func fireSendAfter(t *core.Task) {
	m := t.Ext.(*timedMsg)
	e := m.e
	id := e.newMsg(m.msg)
	ev := e.run.Event()
	ev.Val = id
	if m.to != nil {
		ev.Obj, ev.Res = m.to.task.ID, m.to.res
	}
	if !e.deliver(m.from, m.to, m.msg, id) {
		ev.Flag |= trace.FlagDropped
	}
}

// timedMsg is a message a timer task delivers when it fires (SendAfter, or
// a delay the network imposes): its task's Ext.
type timedMsg struct {
	e        *Env
	from, to *process
	msg      any
	id       int64 // the message's id, if it has one already
}

// newTimed returns m in memory taken from a slab: a test's timers come by
// the dozen an iteration.
func (e *Env) newTimed(m timedMsg) *timedMsg {
	if len(e.timedSlab) == 0 {
		e.timedSlab = make([]timedMsg, 8)
	}
	p := &e.timedSlab[0]
	e.timedSlab = e.timedSlab[1:]
	*p = m
	return p
}

// Cancel stops the timer if it has not fired; it reports whether it stopped it.
//
//go:noinline
func (e *Env) Cancel(t TimerRef) bool {
	r := e.run
	r.Do(r.Current(), core.Op{Kind: kindCancel, Obj: t.t.ID, PC: goruntime.CallerPC()})
	if t.t.Done() {
		return false
	}
	r.Cancel(t.t)
	return true
}

// describeWait tells, for a deadlock report, what a blocked task waits for.
func (e *Env) describeWait(t *core.Task) string {
	op, _ := t.PendingOp()
	if int(t.ID) >= len(e.procs) || e.procs[t.ID] == nil || op.Kind != kindRecv {
		return "" // the runtime's own description serves
	}
	p := e.procs[t.ID]
	where := core.Where(op.PC)
	if n := len(p.mbox) - p.head; n > 0 {
		return fmt.Sprintf("waits in receive at %s (%d messages in mailbox, none matching)", where, n)
	}
	return fmt.Sprintf("waits in receive at %s (mailbox empty)", where)
}
