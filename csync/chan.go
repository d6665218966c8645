package csync

import (
	"iter"

	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// Chan is a channel whose sends, receives and closes are ops of the
// controlled scheduler. It has the semantics of a Go channel of capacity Cap:
// a send blocks until a receiver takes the value or a buffer slot is free, a
// receive blocks until a value or the close arrives, values arrive in order,
// and a send on a closed channel, a second close and the close of a nil
// channel panic with Go's messages.
//
// Make creates a channel; the zero Chan is an unbuffered channel ready to
// use; a nil *Chan is Go's nil channel: sends and receives block forever.
//
// A value moves as in Go's runtime: a sender that finds a receiver waiting
// hands the value to it, a receiver that finds a sender waiting takes its
// value (and, on a full buffer, moves the sender's value into the freed slot),
// so every transfer is one step of each side and a woken task never finds
// its value taken. Which of several ready tasks goes first is the strategy's
// choice at every step.
//
// Every value sent gets an id, recorded in the send's and the receive's
// steps, from which the happens-before walk orders the send before the receive.
type Chan[T any] struct{ c prim.Chan[T] }

// impl returns c's implementation, nil for a nil channel.
func (c *Chan[T]) impl() *prim.Chan[T] {
	if c == nil {
		return nil
	}
	return &c.c
}

// Make returns a channel with a buffer of n values (0: unbuffered), like
// make(chan T, n). It may be called outside a test (a package-level
// channel); the channel then binds to each iteration that uses it. A channel
// that outlives an iteration keeps, as memory does, what the iteration left:
// closed stays closed, values in the buffer stay there; the tasks that
// waited on it ended with their iteration.
//
//go:noinline
func Make[T any](n int) *Chan[T] {
	c := new(Chan[T])
	c.c.Init(n, goruntime.CallerPC())
	return c
}

// Send sends v on c, blocking until a receiver takes it or the buffer has
// room. It panics if c is closed.
//
//go:noinline
func (c *Chan[T]) Send(v T) { c.impl().Send(v, goruntime.CallerPC()) }

// Recv receives a value from c, blocking until one arrives; it returns the
// zero value once c is closed and drained.
//
//go:noinline
func (c *Chan[T]) Recv() T {
	v, _ := c.impl().Recv(goruntime.CallerPC(), "Chan.Recv")
	return v
}

// RecvOK is the two-value receive: ok is false if c is closed and drained.
//
//go:noinline
func (c *Chan[T]) RecvOK() (v T, ok bool) { return c.impl().Recv(goruntime.CallerPC(), "Chan.RecvOK") }

// Range returns an iterator over the values received from c until it is
// closed, like for v := range ch. Each receive is an op at the range's site.
//
//go:noinline
func (c *Chan[T]) Range() iter.Seq[T] {
	pc := goruntime.CallerPC()
	return func(yield func(T) bool) {
		for {
			v, ok := c.impl().Recv(pc, "Chan.Range")
			if !ok || !yield(v) {
				return
			}
		}
	}
}

// Close closes c: blocked and future receivers get the remaining values,
// then the zero value and false; blocked and future senders panic. It panics
// if c is nil or already closed.
//
//go:noinline
func (c *Chan[T]) Close() { c.impl().Close(goruntime.CallerPC()) }

// Len returns the number of values in c's buffer. It is a read op: its
// result depends on what other tasks sent and received before it.
//
//go:noinline
func (c *Chan[T]) Len() int { return c.impl().Len(goruntime.CallerPC()) }

// Cap returns the size of c's buffer (0 for a nil or unbuffered channel).
func (c *Chan[T]) Cap() int { return c.impl().Cap() }

// String names the channel as deadlock reports do: "chan#3 created at
// file.go:12", 3 being its resource number in the iteration.
func (c *Chan[T]) String() string { return c.impl().String() }
