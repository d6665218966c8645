package prim

import (
	"fmt"
	"strings"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/trace"
)

// Case is one case of a Select: made by RecvCase, SendCase or DefaultCase.
type Case struct {
	c   selChan // nil for the default case and for a nil channel
	dir caseDir
	fn  any // func(T, bool) for a receive, func() otherwise; may be nil
	v   any // the value to send
}

type caseDir uint8

const (
	caseRecv caseDir = iota
	caseSend
	caseDefault
)

// RecvCase is a receive case: if Select takes it, f runs with the value
// received and ok false if the channel was closed (case v, ok := <-c). f may
// be nil. A nil channel's case is never ready.
func RecvCase[T any](c *Chan[T], f func(v T, ok bool)) Case {
	cs := Case{dir: caseRecv}
	if c != nil {
		cs.c = c
	}
	if f != nil {
		cs.fn = f
	}
	return cs
}

// SendCase is a send case: if Select takes it, v was sent on c and then f
// runs (case c <- v). f may be nil. A nil channel's case is never ready; a
// closed channel's case is ready, and taking it panics, as in Go.
func SendCase[T any](c *Chan[T], v T, f func()) Case {
	cs := Case{dir: caseSend, v: v}
	if c != nil {
		cs.c = c
	}
	if f != nil {
		cs.fn = f
	}
	return cs
}

// DefaultCase is the default case: Select takes it, and runs f, if no other
// case is ready. f may be nil.
func DefaultCase(f func()) Case {
	cs := Case{dir: caseDefault}
	if f != nil {
		cs.fn = f
	}
	return cs
}

// Select runs one case, located at pc, as a select statement: it waits until
// some case is ready, unless there is a default case, then performs that one
// case and runs its function. With no case at all it blocks forever.
//
// Select is one op, enabled as soon as any case is ready. Which ready case
// it takes is a controlled choice, as Go's uniform pseudo-random one: before
// the op, a choose step draws a rotation of the cases (only when there are
// two or more channel cases), and the op takes the first ready case in that
// rotation.
func Select(cases []Case, pc uintptr) {
	t, r := ctl.Self("Select")
	comm, def := 0, -1
	firstRes := uint32(0)
	for i := range cases {
		cs := &cases[i]
		switch {
		case cs.dir == caseDefault:
			if def >= 0 {
				panic("csync: Select with two default cases")
			}
			def = i
		case cs.c != nil:
			res := cs.c.selBind(r, pc)
			if comm == 0 {
				firstRes = res
			}
			comm++
		}
	}
	rot := 0
	if comm >= 2 {
		rot = r.Choose(t, comm, pc)
	}
	op := core.Op{Kind: trace.KindSelect, Obj: -1, PC: pc}
	for {
		if i := readyCase(cases, rot); i >= 0 || def >= 0 {
			op.Res, op.Read, op.Poll = firstRes, true, true // a default to take: a poll
			if i >= 0 {
				op.Res, op.Read, op.Poll = cases[i].c.selBind(r, pc), false, false
			} else {
				r.NotePoll()
			}
			r.Do(t, op)
			if i = readyCase(cases, rot); i >= 0 && perform(t, r, &cases[i]) {
				return
			}
			if def >= 0 {
				ev := r.Event()
				ev.Res, ev.Val, ev.Flag = firstRes, trace.ValNone, ev.Flag|trace.FlagRead
				if f := cases[def].fn; f != nil {
					f.(func())()
				}
				return
			}
			ctl.NoEffect(r)
		}
		for i := range cases {
			if cs := &cases[i]; cs.c != nil {
				cs.c.selWait(t, cs.dir == caseSend, cs.v)
			}
		}
		blocked := core.Op{Kind: trace.KindSelect, Obj: -1, PC: pc, Blocked: true, On: describeSelect(cases)}
		blockSelect(t, r, cases, blocked)
		if woken(t, r, cases, rot) {
			return
		}
	}
}

// selChan is what Select needs of a *Chan[T].
type selChan interface {
	selBind(r *core.Run, pc uintptr) uint32
	recvReady() bool
	sendReady() bool
	// selRecv and selSend perform the case now if they can, record it in
	// the select's step and run f.
	selRecv(r *core.Run, f any) bool
	selSend(t *core.Task, r *core.Run, v, f any) bool
	// selWait queues t as a waiter of the case; selDone reports whether the
	// waiter was served; selCancel takes it out of the queue; selFinish
	// takes a served waiter out, records the case and runs f.
	selWait(t *core.Task, send bool, v any)
	selDone(t *core.Task, send bool) bool
	selCancel(t *core.Task, send bool)
	selFinish(t *core.Task, r *core.Run, send bool, f any)
	// leave takes every entry of t out of the queues (unwind.go).
	leave(t *core.Task)
	isClosed() bool
	fmt.Stringer
}

// readyCase returns the first ready case in the rotation rot of the channel
// cases, or -1.
func readyCase(cases []Case, rot int) int {
	n := 0
	for i := range cases {
		if cases[i].c != nil {
			n++
		}
	}
	for k := range n {
		j := (rot + k) % n
		for i := range cases {
			cs := &cases[i]
			if cs.c == nil {
				continue
			}
			if j == 0 {
				if cs.dir == caseSend && cs.c.sendReady() || cs.dir == caseRecv && cs.c.recvReady() {
					return i
				}
				break
			}
			j--
		}
	}
	return -1
}

// perform runs a ready case now.
func perform(t *core.Task, r *core.Run, cs *Case) bool {
	if cs.dir == caseSend {
		return cs.c.selSend(t, r, cs.v, cs.fn)
	}
	return cs.c.selRecv(r, cs.fn)
}

// woken finishes a select that was blocked: it leaves every queue and runs
// the case that was served, if any (there is at most one: the first channel
// to serve a waiter of the select woke it, and the others skip woken tasks).
// It panics if no case was served and a send case's channel was closed.
func woken(t *core.Task, r *core.Run, cases []Case, rot int) bool {
	fired, closedSend := -1, false
	for i := range cases {
		cs := &cases[i]
		if cs.c == nil {
			continue
		}
		send := cs.dir == caseSend
		if fired < 0 && cs.c.selDone(t, send) {
			fired = i
			continue
		}
		cs.c.selCancel(t, send)
		closedSend = closedSend || send && cs.c.isClosed()
	}
	if fired >= 0 {
		cs := &cases[fired]
		cs.c.selFinish(t, r, cs.dir == caseSend, cs.fn)
		return true
	}
	if closedSend {
		panic(chanError("send on closed channel"))
	}
	return false
}

// selectOn describes a blocked select for deadlock reports.
type selectOn []selChan

func describeSelect(cases []Case) fmt.Stringer {
	var s selectOn
	for i := range cases {
		if cases[i].c != nil {
			s = append(s, cases[i].c)
		}
	}
	if len(s) == 0 {
		return ctl.String("select with no ready case (forever)")
	}
	return s
}

func (s selectOn) String() string {
	names := make([]string, len(s))
	for i, c := range s {
		names[i] = c.String()
	}
	return "select of " + strings.Join(names, ", ")
}
