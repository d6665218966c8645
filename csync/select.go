package csync

import (
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// Case is one case of a Select: made by Recv, Send or Default.
type Case struct{ c prim.Case }

// Recv is a receive case: if Select takes it, f runs with the value received
// and ok false if the channel was closed (case v, ok := <-c). f may be nil. A
// nil channel's case is never ready.
func Recv[T any](c *Chan[T], f func(v T, ok bool)) Case {
	return Case{prim.RecvCase(c.impl(), f)}
}

// Send is a send case: if Select takes it, v was sent on c and then f runs
// (case c <- v). f may be nil. A nil channel's case is never ready; a closed
// channel's case is ready, and taking it panics, as in Go.
func Send[T any](c *Chan[T], v T, f func()) Case {
	return Case{prim.SendCase(c.impl(), v, f)}
}

// Default is the default case: Select takes it, and runs f, if no other case
// is ready. f may be nil.
func Default(f func()) Case { return Case{prim.DefaultCase(f)} }

// Select runs one case, as a select statement: it waits until some case is
// ready, unless there is a default case, then performs that one case and
// runs its function. With no case at all it blocks forever.
//
// Select is one op, enabled as soon as any case is ready. Which ready case
// it takes is a controlled choice, as Go's uniform pseudo-random one: before
// the op, a choose step draws a rotation of the cases (only when there are
// two or more channel cases), and the op takes the first ready case in that
// rotation. The choice is in the trace, so a replay takes the same case, and
// every strategy can take every ready case.
//
//go:noinline
func Select(cases ...Case) {
	pc := goruntime.CallerPC()
	var buf [4]prim.Case
	cs := buf[:0]
	for _, c := range cases {
		cs = append(cs, c.c)
	}
	prim.Select(cs, pc)
}
