package perf

import (
	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/rt"
)

// Goroutines is Ring written the Go way, as morpheus test's rewriter
// leaves a plain test: n goroutines in a ring of unbuffered channels pass
// ringTokens tokens on, each hops times, and every hop reads and writes
// the token's counter, plain memory shared by whichever goroutine holds
// the token (ordered by the channels, so no race). With it the data-race
// detector runs: its clocks join at every channel handoff. Tokens that
// have made their hops go back to the main task, which then closes the
// ring, so that every goroutine returns.
//
// Running it turns the data-race detector on for the rest of the process
// (rt.Rewritten, as a rewritten package's initialisation does).
func Goroutines(n, hops int) func(*morpheus.Env) {
	rt.Rewritten()
	type token struct{ k, h int }
	return func(*morpheus.Env) {
		ring := make([]chan token, n)
		for i := range ring {
			ring[i] = rt.Make[chan token](0)
		}
		done := rt.Make[chan int](ringTokens)
		var counts [ringTokens]int
		for i := range n {
			in, out := ring[i], ring[(i+1)%n]
			rt.Go(func() {
				for {
					t, ok := rt.RecvOK(in)
					if !ok {
						return
					}
					*rt.Write(&counts[t.k], "counts[t.k]") = *rt.Read(&counts[t.k], "counts[t.k]") + 1
					if t.h == 0 {
						rt.Send(done, t.k)
						continue
					}
					rt.Send(out, token{t.k, t.h - 1})
				}
			})
		}
		for k := range ringTokens {
			rt.Send(ring[k*n/ringTokens], token{k, hops})
		}
		for range ringTokens {
			rt.Recv(done)
		}
		for _, c := range ring {
			rt.Close(c)
		}
	}
}

// GoroutineHops returns the hops per token that make an iteration of
// Goroutines with n goroutines about steps steps long, or 0 if starting
// and closing the ring alone takes more than half of them.
func GoroutineHops(n, steps int) int {
	setup := 5*n + 2*ringTokens + 4 // go and start ops, closes, the goroutines' ends
	if 2*setup > steps {
		return 0
	}
	return (steps - setup) / (4 * ringTokens) // a hop: a receive, a read, a write and a send
}
