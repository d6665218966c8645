package csync_test

import (
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// With two cases ready, a select takes each in some iterations: the choice
// is the strategy's.
func TestSelectFairness(t *testing.T) {
	for _, s := range []string{"random", "pos*", "pct:3"} {
		var first, second int
		res := explore(t, func(e *morpheus.Env) {
			a, b := csync.Make[int](1), csync.Make[int](1)
			a.Send(1)
			b.Send(2)
			csync.Select(
				csync.Recv(a, func(v int, ok bool) { first++ }),
				csync.Recv(b, func(v int, ok bool) { second++ }),
			)
		}, morpheus.Iterations(200), morpheus.Strategy(s), morpheus.Workers(1))
		mustPass(t, res)
		if first+second != 200 || first < 40 || second < 40 {
			t.Errorf("%s: first case %d times, second %d times in 200", s, first, second)
		}
	}
}

// Default runs only when nothing is ready; a ready case wins over it.
func TestSelectDefault(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		c := csync.Make[int](1)
		took := ""
		csync.Select(csync.Recv(c, nil), csync.Default(func() { took = "default" }))
		e.Assert(took == "default", "empty channel: took %q", took)
		c.Send(7)
		got := 0
		csync.Select(csync.Recv(c, func(v int, ok bool) { got = v }), csync.Default(func() { got = -1 }))
		e.Assert(got == 7, "ready case: got %d", got)
		// A send case to a full channel is not ready.
		c.Send(8)
		sent := true
		csync.Select(csync.Send(c, 9, nil), csync.Default(func() { sent = false }))
		e.Assert(!sent, "full channel took a send")
	}, morpheus.Iterations(20)))
}

// A blocked select is woken by whichever of its channels becomes ready, takes
// exactly that case, and leaves the other channel alone.
func TestSelectBlocking(t *testing.T) {
	for _, s := range []string{"random", "pos*"} {
		mustPass(t, explore(t, func(e *morpheus.Env) {
			a, b := csync.Make[int](0), csync.Make[string](0)
			out := csync.Make[int](0)
			csync.Go(func() { a.Send(1) })
			csync.Go(func() { b.Send("x") })
			csync.Go(func() {
				for range 2 {
					csync.Select(
						csync.Recv(a, func(v int, ok bool) { out.Send(v) }),
						csync.Recv(b, func(v string, ok bool) { out.Send(len(v) + 1) }),
					)
				}
			})
			sum := out.Recv() + out.Recv()
			e.Assert(sum == 3, "sum %d", sum)
		}, morpheus.Iterations(300), morpheus.Strategy(s)))
	}
}

// Send cases hand values to blocked receivers and to receivers that come
// later; a select over a send and a receive works both ways.
func TestSelectSendCases(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		in, out := csync.Make[int](0), csync.Make[int](0)
		csync.Go(func() { in.Send(10) })
		csync.Go(func() { e.Assert(out.Recv() == 20, "out") })
		got, sent := 0, false
		for !sent || got == 0 {
			cases := []csync.Case{}
			if got == 0 {
				cases = append(cases, csync.Recv(in, func(v int, ok bool) { got = v }))
			}
			if !sent {
				cases = append(cases, csync.Send(out, 20, func() { sent = true }))
			}
			csync.Select(cases...)
		}
		e.Assert(got == 10, "got %d", got)
	}, morpheus.Iterations(300)))
}

// A receive case sees a close; a send case on a closed channel panics.
func TestSelectClosed(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		c := csync.Make[int](0)
		csync.Go(c.Close)
		ok := true
		csync.Select(csync.Recv(c, func(v int, k bool) { ok = k }))
		e.Assert(!ok, "closed channel received ok")
	}, morpheus.Iterations(50)))
	mustFail(t, explore(t, func(e *morpheus.Env) {
		c := csync.Make[int](0)
		csync.Go(c.Close)
		var nilc *csync.Chan[int]
		csync.Select(csync.Send(c, 1, nil), csync.Recv(nilc, nil))
	}, morpheus.Iterations(50)), "panic", "send on closed channel")
}

// A select with no case, or only nil channels, blocks forever.
func TestSelectForever(t *testing.T) {
	mustFail(t, explore(t, func(e *morpheus.Env) { csync.Select() }, morpheus.Iterations(2)),
		"deadlock", "main: blocked in select on select with no ready case (forever)")
	f := mustFail(t, explore(t, func(e *morpheus.Env) {
		a := csync.Make[int](0)
		csync.Select(csync.Recv(a, nil), csync.Send(a, 1, nil))
	}, morpheus.Iterations(2)), "deadlock", "main: blocked in select on select of chan#")
	t.Log(f.Message)
}

// A select may name one channel in several cases; the value that woke it
// goes to exactly one of them.
func TestSelectSameChannelTwice(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		c := csync.Make[int](0)
		csync.Go(func() { c.Send(5); c.Send(6) })
		sum := 0
		for range 2 {
			csync.Select(
				csync.Recv(c, func(v int, ok bool) { sum += v }),
				csync.Recv(c, func(v int, ok bool) { sum += 10 * v }),
			)
		}
		e.Assert(sum == 11 || sum == 56 || sum == 65 || sum == 110, "sum %d", sum)
	}, morpheus.Iterations(300)))
}
