package sct

import (
	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// circular_buffer: a producer and a consumer each run 7 rounds; in a round,
// under the mutex, the producer inserts its round number if the send flag
// is up (then lowers it and raises receive), and the consumer, if receive is
// up, removes a value and asserts that it equals its own round number. A
// round in which a flag was down is lost, and the rounds fall out of step.
// Fixed: each side counts the values it actually moved.
func circularBuffer() Case {
	prog := func(fixed bool) func(*morpheus.Env) {
		return func(e *morpheus.Env) {
			const size, rounds = 10, 7
			var m csync.Mutex
			// Guarded by m.
			var buf [size]int
			first, next := 0, 0
			send, receive := true, false
			ts := []*csync.Chan[struct{}]{
				thread(func() {
					sent := 0
					for i := range rounds {
						m.Lock()
						if send {
							v := i
							if fixed {
								v = sent
							}
							buf[next] = v
							next = (next + 1) % size
							sent++
							send, receive = false, true
						}
						m.Unlock()
					}
				}),
				thread(func() {
					got := 0
					for i := range rounds {
						m.Lock()
						if receive {
							v := buf[first]
							first = (first + 1) % size
							want := i
							if fixed {
								want = got
							}
							got++
							receive, send = false, true
							if v != want {
								e.Fatalf("circular_buffer: removed %d in round %d", v, want)
							}
						}
						m.Unlock()
					}
				}),
			}
			join(ts)
		}
	}
	return Case{Name: "circular_buffer", Threads: 3, Steps: 31, Buggy: prog(false), Fixed: prog(true),
		Kind: "assertion", Prefix: "circular_buffer:"}
}
