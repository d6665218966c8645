package mtest

import (
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// PingLiveness: a client pings a server on a node that chaos may crash
// for good; the client retries after each time-out, so it waits forever
// once the server is gone: a liveness failure ("pong" stays hot).
var PingLiveness = Program{"chaos/ping-liveness", func(e *morpheus.Env) {
	e.AddMonitor("pong", morpheus.MonitorFunc(func(m *morpheus.Mon, ev any) {
		if ev == "ping" {
			m.Hot("waiting")
		} else {
			m.Cold("answered")
		}
	}))
	n2 := e.NewNode("n2", nil)
	srv := n2.Spawn("server", func(e *morpheus.Env) {
		for {
			e.Send(morpheus.Recv[morpheus.PID](e), "pong")
		}
	})
	e.NewNode("n1", nil).Spawn("client", func(e *morpheus.Env) {
		e.Announce("ping")
		for {
			e.Send(srv, e.Self())
			if _, ok := morpheus.RecvTimeout[string](e, 100*time.Millisecond); ok {
				e.Announce("pong")
				return
			}
		}
	})
	e.Chaos([]*morpheus.Node{n2}, 1, false)
}, []morpheus.Option{morpheus.ClockLimit(time.Second)}}

// SpinStrategies are the strategies the spin-wait fixtures run under: every
// kind morpheus has, with and without conflict analysis where it applies.
var SpinStrategies = []string{"random", "pct:3", "pct:8", "pos", "pos*", "rapos", "pos+ca", "pos*+ca", "dfs"}

// SpinCorrect are spin-waiting programs that end under every fair schedule.
var SpinCorrect = []Program{
	{Name: "spin-lock", Test: func(e *morpheus.Env) {
		var lock, n csync.Int
		var wg csync.WaitGroup
		for range 3 {
			wg.Go(func() {
				for !lock.CompareAndSwap(0, 1) {
				}
				n.Store(n.Load() + 1)
				lock.Store(0)
			})
		}
		wg.Wait()
		e.Assert(n.Load() == 3, "count %d", n.Load())
	}},
	{Name: "flag-handshake", Test: func(e *morpheus.Env) {
		var data, ready csync.Int
		var wg csync.WaitGroup
		wg.Go(func() {
			for ready.Load() == 0 {
			}
			e.Assert(data.Load() == 7, "data %d", data.Load())
		})
		wg.Go(func() {
			data.Store(7)
			ready.Store(1)
		})
		wg.Wait()
	}},
}

// SpinLivelock: each goroutine waits for the other to go first, for ever.
func SpinLivelock(e *morpheus.Env) {
	var a, b csync.Int
	var wg csync.WaitGroup
	wg.Go(func() {
		for b.Load() == 0 {
		}
		a.Store(1)
	})
	wg.Go(func() {
		for a.Load() == 0 {
		}
		b.Store(1)
	})
	wg.Wait()
}
