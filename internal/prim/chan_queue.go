package prim

import (
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/trace"
)

// The wait queues of a channel, as in Go's runtime: a blocked receiver waits
// in recvq for a sender to hand it a value (or for the close); a blocked
// sender waits in sendq, its value with it, for a receiver to take it. A
// waiter stays in its queue, marked done, until its task runs and takes its
// entry out; waiters of a select are in the queues of all its channels, and
// the first channel to complete one of them wakes the select, after which
// the others leave its entries alone (ctl.Blocked is false).

type recvWaiter[T any] struct {
	t    *core.Task
	sel  bool // a select's case
	done bool // a value (or the close) was handed over
	ok   bool
	v    T
	id   int64 // the value's id, or trace.ValClosed
	from int32 // the sender's task, or -1
}

type sendWaiter[T any] struct {
	t    *core.Task
	sel  bool
	done bool // a receiver took the value
	v    T
	id   int64
}

// firstReceiver returns the index of the first receiver still waiting, or -1.
func (c *Chan[T]) firstReceiver() int {
	for i := range c.recvq {
		if w := &c.recvq[i]; !w.done && ctl.Blocked(w.t) {
			return i
		}
	}
	return -1
}

// firstSender returns the index of the first sender still waiting, or -1.
func (c *Chan[T]) firstSender() int {
	for i := range c.sendq {
		if s := &c.sendq[i]; !s.done && ctl.Blocked(s.t) {
			return i
		}
	}
	return -1
}

// sendReady reports whether a send can complete (or panic) now.
func (c *Chan[T]) sendReady() bool {
	return c.closed || c.n < c.size || c.firstReceiver() >= 0
}

// recvReady reports whether a receive can complete now.
func (c *Chan[T]) recvReady() bool {
	return c.n > 0 || c.closed || c.firstSender() >= 0
}

// put sends v from t if it can now: to a waiting receiver, or into the
// buffer. It returns the value's id. It panics if c is closed.
func (c *Chan[T]) put(t *core.Task, r *core.Run, v T) (int64, bool) {
	if c.closed {
		panic(chanError("send on closed channel"))
	}
	if i := c.firstReceiver(); i >= 0 {
		w := &c.recvq[i]
		id := c.newID()
		w.v, w.ok, w.id, w.from, w.done = v, true, id, t.ID, true
		c.raceHandoff(r, t, w.t, c.head)
		r.Unblock(w.t)
		return id, true
	}
	if c.n < c.size {
		id := c.newID()
		r.RaceSync(t.ID, c.slotKey(c.tail()))
		c.push(v, id, t.ID)
		return id, true
	}
	return 0, false
}

// take receives a value if it can now: from the buffer (refilled from the
// first waiting sender), from a waiting sender, or the close.
func (c *Chan[T]) take(r *core.Run) (v T, ok bool, id int64, from int32, done bool) {
	var zero T
	if c.n > 0 {
		self := r.Current()
		r.RaceSync(self.ID, c.slotKey(c.head))
		it := c.buf[c.head]
		c.buf[c.head] = chanItem[T]{}
		c.head++
		if c.head == c.size {
			c.head = 0
		}
		c.n--
		if i := c.firstSender(); i >= 0 {
			s := &c.sendq[i]
			// The blocked sender's value fills the slot just emptied:
			// its send completes after this receive.
			r.RaceSync(s.t.ID, c.slotKey(c.tail()))
			c.push(s.v, s.id, s.t.ID)
			s.v, s.done = zero, true
			r.Unblock(s.t)
		}
		return it.v, true, it.id, it.from, true
	}
	if i := c.firstSender(); i >= 0 {
		s := &c.sendq[i]
		c.raceHandoff(r, r.Current(), s.t, c.head)
		v, id, from := s.v, s.id, s.t.ID
		s.v, s.done = zero, true
		r.Unblock(s.t)
		return v, true, id, from, true
	}
	if c.closed {
		return zero, false, trace.ValClosed, -1, true
	}
	return zero, false, 0, -1, false
}

func (c *Chan[T]) push(v T, id int64, from int32) {
	c.buf[c.tail()] = chanItem[T]{v: v, id: id, from: from}
	c.n++
}

// tail returns the index of the buffer slot the next push fills.
func (c *Chan[T]) tail() int {
	i := c.head + c.n
	if i >= c.size {
		i -= c.size
	}
	return i
}

// Happens-before edges for the data-race detector (core.Run.RaceSync), as
// Go's race detector has them: every handoff of an unbuffered channel
// synchronises sender and receiver on the channel (slot 0), in both
// directions, since the receive completes before the send does; a buffered
// channel's send and receive synchronise on the slot they fill or empty,
// so the k-th receive happens before the (k+capacity)-th send completes
// (a channel used as a semaphore orders its critical sections).

// slotKey names slot i of c as a synchronisation object.
func (c *Chan[T]) slotKey(i int) uint64 { return uint64(c.o.Res)<<32 | uint64(i) }

// raceHandoff synchronises the step's task and the blocked task it hands a
// value to, or takes one from, on slot i.
func (c *Chan[T]) raceHandoff(r *core.Run, self, other *core.Task, i int) {
	k := c.slotKey(i)
	r.RaceSync(self.ID, k)
	r.RaceSync(other.ID, k)
	r.RaceSync(self.ID, k)
}

// recvDone takes t's entry out of recvq and returns it if it was served.
func (c *Chan[T]) recvDone(t *core.Task) (recvWaiter[T], bool) {
	for i := range c.recvq {
		if c.recvq[i].t == t {
			w := c.recvq[i]
			c.removeRecv(i)
			return w, w.done
		}
	}
	return recvWaiter[T]{}, false
}

// sendDone takes t's entry out of sendq and returns its value's id if a
// receiver took it. It panics if the value was not taken and c is closed.
func (c *Chan[T]) sendDone(t *core.Task) (int64, bool) {
	for i := range c.sendq {
		if c.sendq[i].t == t {
			s := c.sendq[i]
			c.removeSend(i)
			if !s.done && c.closed {
				panic(chanError("send on closed channel"))
			}
			return s.id, s.done
		}
	}
	return 0, false
}
