package morpheus

import (
	"fmt"
	"strconv"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/trace"
)

// Reason is why a process exited. Any value may be a reason; these are the
// ones morpheus itself uses.
type Reason string

// Exit reasons.
const (
	ReasonNormal   Reason = "normal"   // the body returned, or Exit(ReasonNormal)
	ReasonKilled   Reason = "killed"   // Kill with ReasonKilled: cannot be trapped
	ReasonNoProc   Reason = "noproc"   // the process was not alive when watched or linked
	ReasonNodeDown Reason = "nodedown" // its node crashed
)

func isNormal(reason any) bool { return reason == nil || reason == ReasonNormal }

// Ref identifies a watch (Env.Watch).
type Ref struct{ id int64 }

// String returns the ref as "#n".
func (r Ref) String() string { return "#" + strconv.FormatInt(r.id, 10) }

// Down is the message a watching process receives when the watched process
// exits, its node crashes, or it was already dead when watched (Erlang's
// monitor 'DOWN' message).
type Down struct {
	Ref    Ref
	PID    PID
	Reason any
}

// ExitSignal is the message a process that traps exits receives when a linked
// process exits with a reason other than ReasonNormal, or when it is sent an
// exit signal by Kill.
type ExitSignal struct {
	From   PID
	Reason any
}

// watch is a process's watch on another (Env.Watch).
type watch struct {
	ref    Ref
	owner  *process
	target *process
}

// Watch starts watching pid (Erlang's monitor/2): when it exits, the caller
// receives a Down message. If pid is already dead the Down message arrives at
// once with ReasonNoProc. (Specification monitors, which observe the whole
// system, are another thing: see AddMonitor.)
//
//go:noinline
func (e *Env) Watch(pid PID) Ref {
	r := e.run
	self := e.self()
	r.Do(r.Current(), pid.op(kindWatch, goruntime.CallerPC()))
	e.nref++
	ref := Ref{e.nref}
	if pid.p != nil && pid.p.alive {
		pid.p.watchers = append(pid.p.watchers, &watch{ref: ref, owner: self, target: pid.p})
		return ref
	}
	e.notify(self, Down{Ref: ref, PID: pid, Reason: ReasonNoProc})
	return ref
}

// Unwatch cancels a watch. A Down message already delivered stays in the
// mailbox.
//
//go:noinline
func (e *Env) Unwatch(ref Ref) {
	r := e.run
	r.Do(r.Current(), core.Op{Kind: kindUnwatch, Obj: -1, PC: goruntime.CallerPC()})
	for _, p := range e.procs {
		if p == nil {
			continue
		}
		for i, m := range p.watchers {
			if m.ref == ref {
				p.watchers = append(p.watchers[:i], p.watchers[i+1:]...)
				return
			}
		}
	}
}

// Link links the caller and pid both ways: when either exits with a reason
// other than ReasonNormal, the other is killed with that reason, or receives
// an ExitSignal if it traps exits. Linking to a dead process signals
// ReasonNoProc at once.
//
//go:noinline
func (e *Env) Link(pid PID) {
	r := e.run
	self := e.self()
	r.Do(r.Current(), pid.op(kindLink, goruntime.CallerPC()))
	if pid.p == nil || !pid.p.alive {
		e.signal(self, pid.p, ReasonNoProc)
		e.settle()
		return
	}
	if pid.p == self || contains(self.links, pid.p) {
		return
	}
	self.links = append(self.links, pid.p)
	pid.p.links = append(pid.p.links, self)
}

// Unlink removes the link between the caller and pid.
//
//go:noinline
func (e *Env) Unlink(pid PID) {
	r := e.run
	self := e.self()
	r.Do(r.Current(), pid.op(kindUnlink, goruntime.CallerPC()))
	if pid.p != nil {
		self.links = remove(self.links, pid.p)
		pid.p.links = remove(pid.p.links, self)
	}
}

// TrapExits sets whether exit signals from linked processes arrive as
// ExitSignal messages instead of killing the caller. It is local state, not
// an op.
func (e *Env) TrapExits(on bool) { e.self().trap = on }

// Exit ends the calling process with reason: deferred calls run, then
// watchers and links are notified.
func (e *Env) Exit(reason any) { e.run.Exit(reason) }

// Kill sends an exit signal with reason to pid (Erlang's exit/2): a process
// that traps exits receives an ExitSignal message, unless the reason is
// ReasonKilled; otherwise it dies with that reason. ReasonNormal is ignored by
// other processes.
//
//go:noinline
func (e *Env) Kill(pid PID, reason any) {
	r := e.run
	self := e.self()
	r.Do(r.Current(), pid.op(kindKill, goruntime.CallerPC()))
	if pid.p == self {
		r.Exit(reason)
	}
	if reason == ReasonKilled && pid.p != nil && pid.p.alive {
		e.terminate(pid.p, reason)
		r.Kill(pid.p.task)
	} else {
		e.signal(pid.p, self, reason)
	}
	e.settle()
}

// signal delivers an exit signal from `from` to p.
func (e *Env) signal(p, from *process, reason any) {
	if p == nil || !p.alive {
		return
	}
	if p.trap {
		e.notify(p, ExitSignal{From: PID{from}, Reason: reason})
		return
	}
	if isNormal(reason) {
		return
	}
	e.terminate(p, reason)
	if p == e.self() {
		e.dying = true // killed at the end of the op, once its effects are done
		return
	}
	e.run.Kill(p.task)
}

// notify delivers a message from the runtime (Down, ExitSignal).
func (e *Env) notify(to *process, msg any) { e.deliver(nil, to, msg, e.newMsg(msg)) }

// settle ends the calling process if the op it just ran killed it.
func (e *Env) settle() {
	if e.dying {
		e.dying = false
		e.run.Kill(e.run.Current())
	}
}

// terminate runs the effects of p's end: registry, watchers, links. The
// caller then ends p's task (or p's task is ending by itself).
func (e *Env) terminate(p *process, reason any) {
	if !p.alive {
		return
	}
	if reason == nil {
		reason = ReasonNormal
	}
	p.alive, p.reason = false, reason
	for _, name := range p.names {
		if p.node.names[name] == p {
			delete(p.node.names, name)
		}
	}
	p.names = nil
	p.mbox, p.head = nil, 0
	if i := indexOf(p.node.procs, p); i >= 0 {
		p.node.procs = append(p.node.procs[:i], p.node.procs[i+1:]...)
	}
	watchers := p.watchers
	p.watchers = nil
	for _, m := range watchers {
		e.notify(m.owner, Down{Ref: m.ref, PID: PID{p}, Reason: reason})
	}
	links := p.links
	p.links = nil
	for _, l := range links {
		l.links = remove(l.links, p)
		e.signal(l, p, reason)
	}
}

func contains(ps []*process, p *process) bool { return indexOf(ps, p) >= 0 }

func indexOf(ps []*process, p *process) int {
	for i, q := range ps {
		if q == p {
			return i
		}
	}
	return -1
}

func remove(ps []*process, p *process) []*process {
	if i := indexOf(ps, p); i >= 0 {
		return append(ps[:i], ps[i+1:]...)
	}
	return ps
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// op describes an op that acts on process p: it touches p's resource, and
// names p in the trace.
func (p PID) op(kind trace.Kind, pc uintptr) core.Op {
	op := core.Op{Kind: kind, Obj: -1, PC: pc}
	if p.p != nil {
		op.Res, op.Obj = p.p.res, p.p.task.ID
	}
	return op
}
