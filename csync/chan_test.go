package csync_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// Values arrive in order through unbuffered and buffered channels, whatever
// the schedule, and a close is seen after the values sent before it.
func TestChanOrderAndClose(t *testing.T) {
	for _, size := range []int{0, 1, 3} {
		res := explore(t, func(e *morpheus.Env) {
			c := csync.Make[int](size)
			e.Assert(c.Cap() == size, "cap %d", c.Cap())
			csync.Go(func() {
				for i := range 5 {
					c.Send(i)
				}
				c.Close()
			})
			var got []int
			for v := range c.Range() {
				got = append(got, v)
			}
			e.Assert(slices.Equal(got, []int{0, 1, 2, 3, 4}), "got %v", got)
			v, ok := c.RecvOK()
			e.Assert(v == 0 && !ok, "after close: %v %v", v, ok)
			e.Assert(c.Recv() == 0, "Recv after close")
		}, morpheus.Iterations(300))
		mustPass(t, res)
	}
}

// A buffered channel holds values without a receiver; Len reports them.
func TestChanBuffer(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		c := csync.Make[string](2)
		c.Send("a")
		c.Send("b")
		e.Assert(c.Len() == 2, "len %d", c.Len())
		e.Assert(c.Recv() == "a" && c.Len() == 1, "first")
		c.Close()
		e.Assert(c.Recv() == "b", "buffered value after close")
		var zero csync.Chan[int] // the zero Chan: unbuffered, open
		e.Assert(zero.Cap() == 0, "zero chan cap")
	}, morpheus.Iterations(10)))
}

// An unbuffered send completes only when a receiver took the value: the
// sender cannot run ahead of the receiver.
func TestChanUnbufferedRendezvous(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		c := csync.Make[int](0)
		var received csync.Var[bool]
		csync.Go(func() {
			c.Recv()
			received.Store(true)
		})
		c.Send(1)
		// The receive is done; its Store may still be pending, but a second
		// send cannot complete without a second receive.
		done := csync.Make[int](1)
		csync.Go(func() { done.Send(1) })
		e.Assert(done.Recv() == 1, "helper")
	}, morpheus.Iterations(200)))
}

// Senders blocked on a full buffer move in as receivers take values; with
// several senders and receivers nothing is lost or duplicated.
func TestChanManySendersReceivers(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		c := csync.Make[int](1)
		out := csync.Make[int](6)
		var wg csync.WaitGroup
		for s := range 3 {
			wg.Go(func() {
				c.Send(2 * s)
				c.Send(2*s + 1)
			})
		}
		for range 2 {
			csync.Go(func() {
				for v := range c.Range() {
					out.Send(v)
				}
			})
		}
		wg.Wait()
		c.Close()
		var got []int
		for range 6 {
			got = append(got, out.Recv())
		}
		slices.Sort(got)
		e.Assert(slices.Equal(got, []int{0, 1, 2, 3, 4, 5}), "got %v", got)
	}, morpheus.Iterations(500)))
}

// Misuse panics with Go's messages, reported as panic failures.
func TestChanPanics(t *testing.T) {
	tests := []struct {
		name string
		body func(e *morpheus.Env)
		msg  string
	}{
		{"send on closed", func(*morpheus.Env) {
			c := csync.Make[int](1)
			c.Close()
			c.Send(1)
		}, "send on closed channel"},
		{"blocked sender sees close", func(*morpheus.Env) {
			c := csync.Make[int](0)
			csync.Go(func() { c.Send(1) })
			csync.Sleep(1)
			c.Close()
			csync.Sleep(1)
		}, "send on closed channel"},
		{"close of closed", func(*morpheus.Env) {
			c := csync.Make[int](0)
			c.Close()
			c.Close()
		}, "close of closed channel"},
		{"close of nil", func(*morpheus.Env) {
			var c *csync.Chan[int]
			c.Close()
		}, "close of nil channel"},
		{"negative size", func(*morpheus.Env) { csync.Make[int](-1) }, "makechan: size out of range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := mustFail(t, explore(t, tc.body, morpheus.Iterations(20)), "panic", tc.msg)
			if f.Message != tc.msg {
				t.Errorf("message %q, want exactly Go's %q", f.Message, tc.msg)
			}
		})
	}
}

// A deadlock report names each blocked task, the op, the channel with its
// creation site, and where the task waits.
func TestChanDeadlockReport(t *testing.T) {
	f := mustFail(t, explore(t, func(e *morpheus.Env) {
		c := csync.Make[int](0) // created here
		d := csync.Make[int](1)
		csync.Go(func() { d.Send(1); d.Send(2) })
		c.Recv()
	}, morpheus.Iterations(5)), "deadlock", "blocked")
	for _, want := range []string{
		"main: blocked in chan-recv on chan#",
		" created at chan_test.go:",
		"g1: blocked in chan-send on chan#",
	} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("report lacks %q:\n%s", want, f.Message)
		}
	}
	t.Log(f.Message)
}

// A nil channel blocks forever; the report says so.
func TestNilChanBlocks(t *testing.T) {
	mustFail(t, explore(t, func(e *morpheus.Env) {
		var c *csync.Chan[int]
		e.Assert(c.Len() == 0 && c.Cap() == 0, "nil len/cap")
		c.Recv()
	}, morpheus.Iterations(3)), "deadlock", "main: blocked in chan-recv on nil channel (forever)")
	// A goroutine blocked on it when main has returned is a leak.
	stuck := func(e *morpheus.Env) {
		var c *csync.Chan[int]
		csync.Go(func() { c.Send(1) })
	}
	mustFail(t, explore(t, stuck, morpheus.Iterations(3)), "leak", "g1: blocked in chan-send on nil channel (forever)")
	mustPass(t, explore(t, stuck, morpheus.Iterations(3), morpheus.AllowLeaks(true)))
}
