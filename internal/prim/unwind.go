package prim

import "github.com/morpheus-go/morpheus/internal/core"

// A task that is blocked in a channel op when its iteration ends is killed
// (core's teardown): it unwinds from the blocked op and never takes its
// entry out of the channel's wait queue. A channel may outlive its
// iteration (a package-level one, or one that rewritten code keeps in a
// table of its own), and an entry left in its queue would keep the task,
// and through it the iteration's whole world and the worker that ran it,
// for as long as the channel lives. So the blocked ops below take their
// entries out as they unwind.

// block blocks t, whose entry is in c.sendq or c.recvq, in op.
func (c *Chan[T]) block(t *core.Task, r *core.Run, op core.Op) {
	woke := false
	defer func() {
		if !woke {
			c.leave(t)
		}
	}()
	r.Do(t, op)
	woke = true
}

// blockSelect blocks t, whose entries are in the queues of the cases'
// channels, in op.
func blockSelect(t *core.Task, r *core.Run, cases []Case, op core.Op) {
	woke := false
	defer func() {
		if !woke {
			for i := range cases {
				if c := cases[i].c; c != nil {
					c.leave(t)
				}
			}
		}
	}()
	r.Do(t, op)
	woke = true
}

// leave takes every entry of t out of c's queues.
func (c *Chan[T]) leave(t *core.Task) {
	for i := len(c.sendq) - 1; i >= 0; i-- {
		if c.sendq[i].t == t {
			c.removeSend(i)
		}
	}
	for i := len(c.recvq) - 1; i >= 0; i-- {
		if c.recvq[i].t == t {
			c.removeRecv(i)
		}
	}
}
