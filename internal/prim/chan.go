package prim

import (
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/trace"
)

// Chan is csync.Chan's implementation: a channel whose sends, receives and
// closes are ops of the controlled scheduler, with the semantics of a Go
// channel (see csync.Chan). The zero Chan is an unbuffered channel; a nil
// *Chan is Go's nil channel.
//
// A value moves as in Go's runtime: a sender that finds a receiver waiting
// hands the value to it, a receiver that finds a sender waiting takes its
// value (and, on a full buffer, moves the sender's value into the freed slot),
// so every transfer is one step of each side and a woken task never finds
// its value taken. Every value sent gets an id, recorded in the send's and
// the receive's steps, from which the happens-before walk orders the send
// before the receive.
type Chan[T any] struct {
	o      ctl.Obj
	size   int
	buf    []chanItem[T] // ring of size slots
	head   int
	n      int
	closed bool
	timer  bool   // a timer's channel: Len and Cap report 0, as in Go 1.23
	seq    uint32 // values sent in this iteration, for ids
	// outClosed: code outside control closed the native channel (see
	// ClosedOutside).
	outClosed atomic.Bool
	// native is the runtime object of the channel of Go's type that
	// rewritten code holds (none for csync's own channels), held weakly as
	// rt's table holds it: outside control, ops work on it (see SetNative).
	native weak.Pointer[byte]
	recvq  []recvWaiter[T]
	sendq  []sendWaiter[T]
}

// chanItem is a buffered value.
type chanItem[T any] struct {
	v    T
	id   int64
	from int32 // the sending task
}

// Make returns a channel with a buffer of n values, created at pc.
func Make[T any](n int, pc uintptr) *Chan[T] {
	c := new(Chan[T])
	c.Init(n, pc)
	return c
}

// Init makes c a channel with a buffer of n values (0: unbuffered), created
// at pc, as make(chan T, n) does. It may be called outside a test (a
// package-level channel); the channel then binds to each iteration that
// uses it, in the state the iteration before left it (see bind).
func (c *Chan[T]) Init(n int, pc uintptr) {
	if n < 0 {
		panic(chanError("makechan: size out of range"))
	}
	c.size = n
	if n > 0 {
		c.buf = make([]chanItem[T], n)
	}
	c.o.SetSite(pc)
	if t := core.CurrentTask(); t != nil {
		c.bind(t.Run(), pc) // number channels in creation order
	}
}

// chanError is the panic value of channel misuse: a runtime.Error, as Go's.
type chanError string

func (e chanError) Error() string { return string(e) }
func (e chanError) RuntimeError() {}

// bind attaches c to r's iteration. A channel that outlives an iteration (a
// package-level one, or one kept in package-level memory) meets the next
// iteration as memory does, in the state the last one left: closed if it
// was closed, with the values left in its buffer (renumbered as sent before
// the iteration, by no task); closed too if code outside control closed it
// (ClosedOutside), and with the values code outside control left in the
// native channel's buffer after those (takeNative). The tasks that waited
// on it ended with their iteration. A timer's channel starts empty, as its
// timer starts stopped.
func (c *Chan[T]) bind(r *core.Run, pc uintptr) {
	if !c.o.Bind(r, pc) {
		return
	}
	c.seq = 0
	if c.outClosed.Load() {
		c.closed = true
	}
	if c.timer {
		clear(c.buf)
		c.head, c.n, c.closed = 0, 0, false
	}
	for i := range c.n {
		it := &c.buf[(c.head+i)%c.size]
		it.id, it.from = c.newID(), -1
	}
	if !c.timer {
		c.takeNative()
	}
	clear(c.recvq)
	c.recvq = c.recvq[:0]
	clear(c.sendq)
	c.sendq = c.sendq[:0]
}

// SetNative records n, the native channel that rewritten code holds for c,
// whose buffer code outside control sends to and receives from.
func (c *Chan[T]) SetNative(n chan T) {
	c.native = weak.Make(*(**byte)(unsafe.Pointer(&n)))
}

// takeNative moves the values that code outside control left in the native
// channel's buffer (package initialization filling a semaphore's tokens,
// TestMain, a test run outside control) into c's buffer, behind the values
// c holds, as sent before the iteration by no task: the channel has one
// buffer, which the iteration that binds it next takes over, as it takes
// over the memory that code wrote. Values that do not fit stay in the
// native channel. A native channel that turns out closed closes c.
func (c *Chan[T]) takeNative() {
	p := c.native.Value()
	if p == nil {
		return
	}
	n := *(*chan T)(unsafe.Pointer(&p))
	for c.n < c.size {
		select {
		case v, ok := <-n:
			if !ok {
				c.closed = true
				return
			}
			c.buf[(c.head+c.n)%c.size] = chanItem[T]{v: v, id: c.newID(), from: -1}
			c.n++
		default:
			return
		}
	}
}

// ClosedOutside notes that code outside control (package initialization,
// TestMain, a test run outside control, a goroutine started there) closed
// c's native channel: the next iteration that binds c finds it closed, as
// it finds that code's writes to memory (a pool's state flag set by a
// Release outside control, whose done channel its last worker closed).
func (c *Chan[T]) ClosedOutside() { c.outClosed.Store(true) }

// chanOn names a channel in deadlock reports without allocating.
type chanOn[T any] Chan[T]

func (c *chanOn[T]) String() string { return c.o.Name("chan") }

func (c *Chan[T]) on() *chanOn[T] { return (*chanOn[T])(c) }

// nilChan is what an op on a nil channel waits for.
const nilChan = ctl.String("nil channel (forever)")

// Outside is called by an op on c from outside control, located at pc,
// which goes on on the native channel (see ctl.Obj.Outside).
func (c *Chan[T]) Outside(what string, pc uintptr) {
	if c != nil {
		c.o.Outside(what, pc)
	}
}

// Send sends v on c, located at pc, blocking until a receiver takes it or
// the buffer has room. It panics if c is closed.
func (c *Chan[T]) Send(v T, pc uintptr) { c.send(v, pc) }

// Recv receives a value from c, located at pc, blocking until one arrives;
// ok is false once c is closed and drained. what names the caller's
// primitive ("Chan.Recv") for the panic of a call outside a task.
func (c *Chan[T]) Recv(pc uintptr, what string) (v T, ok bool) { return c.recv(pc, what) }

// Close closes c, located at pc: blocked and future receivers get the
// remaining values, then the zero value and false; blocked and future
// senders panic. It panics if c is nil or already closed.
func (c *Chan[T]) Close(pc uintptr) {
	t, r := ctl.Self("Chan.Close")
	if c == nil {
		panic(chanError("close of nil channel"))
	}
	c.bind(r, pc)
	r.Do(t, core.Op{Kind: trace.KindChanClose, Res: c.o.Res, Obj: -1, PC: pc})
	if c.closed {
		panic(chanError("close of closed channel"))
	}
	c.closed = true
	var zero T
	for i := range c.recvq {
		w := &c.recvq[i]
		if !w.done && ctl.Blocked(w.t) {
			w.v, w.ok, w.id, w.from, w.done = zero, false, trace.ValClosed, -1, true
			r.Unblock(w.t)
		}
	}
	for i := range c.sendq {
		if s := &c.sendq[i]; !s.done && ctl.Blocked(s.t) {
			r.Unblock(s.t) // to panic
		}
	}
}

// Len returns the number of values in c's buffer, located at pc. It is a
// read op: its result depends on what other tasks sent and received before
// it.
func (c *Chan[T]) Len(pc uintptr) int {
	t, r := ctl.Self("Chan.Len")
	if c == nil {
		return 0
	}
	c.bind(r, pc)
	r.Do(t, core.Op{Kind: trace.KindChanLen, Res: c.o.Res, Read: true, Obj: -1, PC: pc})
	if c.timer {
		return 0
	}
	return c.n
}

// Cap returns the size of c's buffer (0 for a nil or unbuffered channel).
func (c *Chan[T]) Cap() int {
	if c == nil || c.timer {
		return 0
	}
	return c.size
}

func (c *Chan[T]) send(v T, pc uintptr) {
	t, r := ctl.Self("Chan.Send")
	if c == nil {
		blockForever(t, r, trace.KindChanSend, pc)
	}
	c.bind(r, pc)
	op := core.Op{Kind: trace.KindChanSend, Res: c.o.Res, Obj: -1, PC: pc}
	for {
		if c.sendReady() {
			r.Do(t, op)
			if id, ok := c.put(t, r, v); ok {
				r.Event().Val = id
				return
			}
			ctl.NoEffect(r) // another sender took the last slot first
		}
		c.sendq = append(c.sendq, sendWaiter[T]{t: t, v: v, id: c.newID()})
		blocked := op
		blocked.Blocked, blocked.On = true, c.on()
		c.block(t, r, blocked)
		if id, ok := c.sendDone(t); ok {
			r.Event().Val = id
			return
		}
	}
}

func (c *Chan[T]) recv(pc uintptr, what string) (T, bool) {
	t, r := ctl.Self(what)
	if c == nil {
		blockForever(t, r, trace.KindChanRecv, pc)
	}
	c.bind(r, pc)
	op := core.Op{Kind: trace.KindChanRecv, Res: c.o.Res, Obj: -1, PC: pc}
	for {
		if c.recvReady() {
			r.Do(t, op)
			if v, ok, id, from, done := c.take(r); done {
				recorded(r, id, from)
				return v, ok
			}
			ctl.NoEffect(r) // another receiver took the last value first
		}
		c.recvq = append(c.recvq, recvWaiter[T]{t: t})
		blocked := op
		blocked.Blocked, blocked.On = true, c.on()
		c.block(t, r, blocked)
		if w, ok := c.recvDone(t); ok {
			recorded(r, w.id, w.from)
			return w.v, w.ok
		}
	}
}

// recorded records a receive's outcome in its step.
func recorded(r *core.Run, id int64, from int32) {
	ev := r.Event()
	ev.Val, ev.Obj = id, from
}

// blockForever blocks t in an op that nothing enables, as an op on a nil
// channel does. It returns only by unwinding.
func blockForever(t *core.Task, r *core.Run, kind trace.Kind, pc uintptr) {
	r.Do(t, core.Op{Kind: kind, Obj: -1, Blocked: true, PC: pc, On: nilChan})
	panic("csync: an op on a nil channel was woken")
}

func (c *Chan[T]) newID() int64 {
	c.seq++
	return int64(c.o.Res)<<32 | int64(c.seq)
}
