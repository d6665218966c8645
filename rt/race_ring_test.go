package rt_test

import (
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/rt"
)

// ring runs n goroutines in a ring of unbuffered channels passing two
// tokens on, each for hops hops; at each hop the holder writes its token's
// counter, ordered by the handoffs that brought the token (the data-race
// detector takes each handoff's three notes as one). With stray, the
// first goroutine also reads the other token's counter: a race.
func ring(n, hops int, stray bool) func(*morpheus.Env) {
	return func(*morpheus.Env) {
		ring := make([]chan [2]int, n)
		for i := range ring {
			ring[i] = rt.Make[chan [2]int](0)
		}
		done := rt.Make[chan struct{}](2)
		var counts [2]int
		for i := range n {
			in, out := ring[i], ring[(i+1)%n]
			rt.Go(func() {
				for {
					tok, ok := rt.RecvOK(in)
					if !ok {
						return
					}
					k, h := tok[0], tok[1]
					*rt.Write(&counts[k], "counts[k]") = *rt.Read(&counts[k], "counts[k]") + 1
					if stray && i == 0 {
						_ = *rt.Read(&counts[1-k], "counts[1-k]")
					}
					if h == 0 {
						rt.Send(done, struct{}{})
						continue
					}
					rt.Send(out, [2]int{k, h - 1})
				}
			})
		}
		rt.Send(ring[0], [2]int{0, hops})
		rt.Send(ring[n/2], [2]int{1, hops})
		rt.Recv(done)
		rt.Recv(done)
		for _, c := range ring {
			rt.Close(c)
		}
	}
}

// TestRaceRing: tokens passed around a ring race with nothing, under every
// strategy; a read of the other token's counter races.
func TestRaceRing(t *testing.T) {
	for _, s := range []string{"random", "pos", "pct:3", "pos+ca"} {
		res, err := morpheus.Explore(ring(7, 20, false), morpheus.Iterations(100),
			morpheus.Workers(1), morpheus.Seed(3), morpheus.Strategy(s))
		if err != nil {
			t.Fatal(err)
		}
		if f := res.Failure; f != nil {
			t.Fatalf("%s: %s", s, f.Report())
		}
	}
	res, err := morpheus.Explore(ring(7, 20, true), morpheus.Iterations(100),
		morpheus.Workers(1), morpheus.Seed(3), morpheus.Strategy("random"))
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Failure; f == nil || f.Kind != "race" {
		t.Fatalf("a stray read of the other token's counter: want a race, got %v", f)
	}
}
