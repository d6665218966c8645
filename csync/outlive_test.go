package csync_test

import (
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// poolShape is a pool made once per process (at package initialization in
// the code it stands for): a state flag in plain memory and a channel its
// release closes, which its reboot waits for and then replaces. Memory and
// channel must tell the same story in every iteration.
type poolShape struct {
	closed  bool
	allDone *csync.Chan[struct{}]
}

func (p *poolShape) release() {
	if !p.closed {
		p.closed = true
		p.allDone.Close()
	}
}

func (p *poolShape) reboot() {
	if p.closed {
		p.allDone.Recv() // closed by the release that set p.closed
		p.closed = false
		p.allDone = csync.Make[struct{}](0)
	}
}

// A channel that outlives its iteration keeps its close: an earlier
// iteration's deferred release left the flag set and the channel closed, and
// the next iteration's reboot finds both so (it deadlocked when the channel
// came back open).
func TestChanCloseOutlivesIteration(t *testing.T) {
	p := &poolShape{allDone: csync.Make[struct{}](0)}
	mustPass(t, explore(t, func(e *morpheus.Env) {
		defer p.release()
		p.reboot()
		p.release()
		p.reboot()
	}, morpheus.Iterations(5), morpheus.Workers(1)))
}

// Values left in a channel's buffer stay for the next iteration, which
// receives them as sent before it; the tasks that waited on the channel are
// gone with their iteration.
func TestChanBufferOutlivesIteration(t *testing.T) {
	ch := csync.Make[int](2)
	iter := 0
	mustPass(t, explore(t, func(e *morpheus.Env) {
		iter++
		if iter > 1 {
			e.Assert(ch.Len() == 1, "iteration %d: %d values carried, want 1", iter, ch.Len())
			e.Assert(ch.Recv() == iter-1, "iteration %d: wrong value carried", iter)
		}
		ch.Send(iter)
	}, morpheus.Iterations(4), morpheus.Workers(1)))

	// An iteration that ends with a receiver blocked on the channel (a
	// deadlock) leaves no waiter behind: the next one's send is buffered.
	blocked := csync.Make[int](1)
	mustFail(t, explore(t, func(e *morpheus.Env) {
		blocked.Recv()
	}, morpheus.Iterations(1), morpheus.Shrink(0)), "deadlock", "")
	mustPass(t, explore(t, func(e *morpheus.Env) {
		blocked.Send(1)
		e.Assert(blocked.Len() == 1, "the send went to a waiter of an earlier iteration")
	}, morpheus.Iterations(1)))
}
