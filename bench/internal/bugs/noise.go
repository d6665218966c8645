package bugs

import (
	"fmt"
	"time"

	"github.com/morpheus-go/morpheus"
)

// WithBackground returns s with a background workload added to its test, the
// size of the rest of a real deployment: pairs of processes on their own
// nodes that exchange rounds ping-pong messages, pausing period between
// rounds, for as long as the scenario runs.
//
// The papers' bugs were found in full systems (Morpheus's gproc-1 test ran
// 6593 ops of which 326 conflicted) while the scenarios model only the few
// processes a bug involves, where most ops conflict. The background does not
// interact with the scenario and its own ops never race (each mailbox has a
// single sender whose messages are answered before the next one), so it
// changes no outcome; it only makes the system as large, and conflicts as
// rare, as in the papers. Every strategy runs the same workload.
func WithBackground(s Scenario, pairs, rounds int, period time.Duration) Scenario {
	if pairs <= 0 {
		return s
	}
	test := s.Test
	s.Test = func(fixed bool) func(*morpheus.Env) {
		inner := test(fixed)
		return func(e *morpheus.Env) {
			for i := range pairs {
				background(e, i, rounds, period)
			}
			inner(e)
		}
	}
	s.Name = fmt.Sprintf("%s+bg%d", s.Name, pairs)
	return s
}

// bgPing and bgPong are the background's messages.
type (
	bgPing struct{ From morpheus.PID }
	bgPong struct{}
)

// background starts pair i: a server on node bgN-s and a client on bgN-c.
func background(e *morpheus.Env, i, rounds int, period time.Duration) {
	srv := e.NewNode(fmt.Sprintf("bg%d-s", i), nil).Spawn("echo", func(e *morpheus.Env) {
		for range rounds {
			p := morpheus.Recv[bgPing](e)
			e.Send(p.From, bgPong{})
		}
	})
	e.NewNode(fmt.Sprintf("bg%d-c", i), nil).Spawn("pinger", func(e *morpheus.Env) {
		for range rounds {
			if period > 0 {
				e.Sleep(period)
			}
			e.Send(srv, bgPing{From: e.Self()})
			morpheus.Recv[bgPong](e)
		}
	})
}
