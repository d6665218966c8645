package prim

import (
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/trace"
)

// The side of *Chan[T] that Select uses (see selChan).

func (c *Chan[T]) selBind(r *core.Run, pc uintptr) uint32 {
	c.bind(r, pc)
	return c.o.Res
}

// String names the channel as deadlock reports do: "chan#3 created at
// file.go:12", 3 being its resource number in the iteration.
func (c *Chan[T]) String() string { return c.on().String() }

func (c *Chan[T]) isClosed() bool { return c.closed }

func (c *Chan[T]) selRecv(r *core.Run, f any) bool {
	v, ok, id, from, done := c.take(r)
	if !done {
		return false
	}
	c.selRecorded(r, id, from)
	if f != nil {
		f.(func(T, bool))(v, ok)
	}
	return true
}

func (c *Chan[T]) selSend(t *core.Task, r *core.Run, v, f any) bool {
	id, ok := c.put(t, r, caseValue[T](v))
	if !ok {
		return false
	}
	c.selRecorded(r, id, -1)
	if f != nil {
		f.(func())()
	}
	return true
}

// caseValue returns the value a send case carries as an any (Case.v) as
// the channel's element type again. A nil interface value (case errc <- nil
// on a chan error) is a nil any, which v.(T) rejects: it is T's zero value.
func caseValue[T any](v any) T {
	x, _ := v.(T)
	return x
}

// selRecorded records the case a select took in its step.
func (c *Chan[T]) selRecorded(r *core.Run, id int64, from int32) {
	ev := r.Event()
	ev.Res, ev.Val, ev.Obj = c.o.Res, id, from
	ev.Flag &^= trace.FlagRead
}

func (c *Chan[T]) selWait(t *core.Task, send bool, v any) {
	if send {
		c.sendq = append(c.sendq, sendWaiter[T]{t: t, sel: true, v: caseValue[T](v), id: c.newID()})
	} else {
		c.recvq = append(c.recvq, recvWaiter[T]{t: t, sel: true})
	}
}

// A select's waiters are found by task; a select that names one channel in
// two cases has two entries of its task in a queue, of which at most one is
// done (the one that woke it), so selFinish takes the done entry and
// selCancel the others.

func (c *Chan[T]) selDone(t *core.Task, send bool) bool {
	if send {
		for i := range c.sendq {
			if c.sendq[i].t == t && c.sendq[i].done {
				return true
			}
		}
		return false
	}
	for i := range c.recvq {
		if c.recvq[i].t == t && c.recvq[i].done {
			return true
		}
	}
	return false
}

func (c *Chan[T]) selCancel(t *core.Task, send bool) {
	if send {
		for i := range c.sendq {
			if c.sendq[i].t == t && !c.sendq[i].done {
				c.removeSend(i)
				return
			}
		}
		return
	}
	for i := range c.recvq {
		if c.recvq[i].t == t && !c.recvq[i].done {
			c.removeRecv(i)
			return
		}
	}
}

func (c *Chan[T]) selFinish(t *core.Task, r *core.Run, send bool, f any) {
	if send {
		for i := range c.sendq {
			if s := c.sendq[i]; s.t == t && s.done {
				c.removeSend(i)
				c.selRecorded(r, s.id, -1)
				break
			}
		}
		if f != nil {
			f.(func())()
		}
		return
	}
	for i := range c.recvq {
		if w := c.recvq[i]; w.t == t && w.done {
			c.removeRecv(i)
			c.selRecorded(r, w.id, w.from)
			if f != nil {
				f.(func(T, bool))(w.v, w.ok)
			}
			return
		}
	}
}

func (c *Chan[T]) removeSend(i int) {
	copy(c.sendq[i:], c.sendq[i+1:])
	c.sendq[len(c.sendq)-1] = sendWaiter[T]{}
	c.sendq = c.sendq[:len(c.sendq)-1]
}

func (c *Chan[T]) removeRecv(i int) {
	copy(c.recvq[i:], c.recvq[i+1:])
	c.recvq[len(c.recvq)-1] = recvWaiter[T]{}
	c.recvq = c.recvq[:len(c.recvq)-1]
}
