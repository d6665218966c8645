package programs

import (
	"time"

	"github.com/morpheus-go/morpheus"
)

// PingLivenessLimit is the clock limit PingLiveness runs with: its failures
// end in the fair tail at that limit.
const PingLivenessLimit = time.Second

// PingLiveness: a client pings a server on a node that Chaos may crash for
// good; the client retries after each time-out, so it waits forever once
// the server is gone: a liveness failure ("pong" stays hot). The main task
// returns at once.
func PingLiveness(e *morpheus.Env) {
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
}
