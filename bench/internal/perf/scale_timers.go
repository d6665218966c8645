package perf

import (
	"time"

	"github.com/morpheus-go/morpheus"
)

// Timers is an iteration in which n processes wait for a message with a
// time-out far beyond the iteration's end (each a timed op: a timer that
// could fire) while two processes make steps in a ping-pong of rounds
// round trips. A step's cost that grows with the timers waiting (a walk of
// every pending op at every step) shows as a row that climbs.
func Timers(n, rounds int) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		waiting := e.NewNode("waiting", nil)
		for range n {
			waiting.Spawn("w", func(e *morpheus.Env) { e.ReceiveTimeout(nil, timersWait) })
		}
		PingPong(rounds)(e)
	}
}

// timersWait is how long Timers's processes wait: longer than any iteration
// of it, so that none times out.
const timersWait = 1000 * time.Hour

// TimersRounds returns the round trips that make an iteration of Timers
// with n waiting processes about steps steps long, or 0 if starting them
// takes more than half of them.
func TimersRounds(n, steps int) int {
	setup := 2*n + 10 // spawns and starts, the ping-pong's setup
	if 2*setup > steps {
		return 0
	}
	return (steps - setup) / 4 // a round trip: two sends, two receives
}
