package morpheus_test

import (
	"bytes"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/rt"
	"github.com/morpheus-go/morpheus/strategy"
)

// Built-in strategies with LocalFirst turned off: the runtime builds every
// enabled set and asks Next, as for a strategy of the user's.
type (
	slowRandom  struct{ *strategy.Random }
	slowPOS     struct{ *strategy.POS }
	slowPOSStar struct{ *strategy.POSStar }
	slowRAPOS   struct{ *strategy.RAPOS }
	slowPCT     struct{ *strategy.PCT }
	slowDFS     struct{ *strategy.DFS }
)

func (slowRandom) LocalFirst() bool  { return false }
func (slowPOS) LocalFirst() bool     { return false }
func (slowPOSStar) LocalFirst() bool { return false }
func (slowRAPOS) LocalFirst() bool   { return false }
func (slowPCT) LocalFirst() bool     { return false }
func (slowDFS) LocalFirst() bool     { return false }

// spawner starts goroutines in loops while others run: a ring of channels
// whose goroutines pass tokens on, each spawning a helper on the way, and
// a timer; every iteration ends in a failure, so that its trace is kept.
func spawner(e *morpheus.Env) {
	const n = 12
	ring := make([]chan int, n)
	for i := range ring {
		ring[i] = rt.Make[chan int](0)
	}
	done := rt.Make[chan int](n)
	for i := range n {
		in, out := ring[i], ring[(i+1)%n]
		rt.Go(func() {
			h := rt.Recv(in)
			rt.Go(func() { rt.Send(done, h) })
			if h > 0 {
				rt.Send(out, h-1)
			}
		})
	}
	rt.Go(func() { rt.Send(ring[0], n-1) })
	e.Sleep(1)
	for range n {
		rt.Recv(done)
	}
	e.Assert(false, "end")
}

// The runtime's shortcut for a LocalFirst strategy (a local op run without
// an enabled set or a call to Next) takes the steps Next would: the same
// schedules, byte for byte, as with LocalFirst off, for every built-in
// strategy and conflict analysis around them.
func TestLocalFirstSameSchedules(t *testing.T) {
	type mk = func() strategy.Strategy
	pairs := []struct {
		name       string
		fast, slow mk
	}{
		{"random", func() strategy.Strategy { return strategy.NewRandom() }, func() strategy.Strategy { return slowRandom{strategy.NewRandom()} }},
		{"pos", func() strategy.Strategy { return strategy.NewPOS() }, func() strategy.Strategy { return slowPOS{strategy.NewPOS()} }},
		{"pos*", func() strategy.Strategy { return strategy.NewPOSStar() }, func() strategy.Strategy { return slowPOSStar{strategy.NewPOSStar()} }},
		{"rapos", func() strategy.Strategy { return strategy.NewRAPOS() }, func() strategy.Strategy { return slowRAPOS{strategy.NewRAPOS()} }},
		{"pct", func() strategy.Strategy { return strategy.NewPCT(3, 0) }, func() strategy.Strategy { return slowPCT{strategy.NewPCT(3, 0)} }},
		{"dfs", func() strategy.Strategy { return strategy.NewDFS() }, func() strategy.Strategy { return slowDFS{strategy.NewDFS()} }},
		{"pos+ca", func() strategy.Strategy { return strategy.WithCA(strategy.NewPOS(), nil) }, func() strategy.Strategy { return strategy.WithCA(slowPOS{strategy.NewPOS()}, nil) }},
		{"random+ca", func() strategy.Strategy { return strategy.WithCA(strategy.NewRandom(), nil) }, func() strategy.Strategy { return strategy.WithCA(slowRandom{strategy.NewRandom()}, nil) }},
	}
	for _, p := range pairs {
		if lf, ok := p.fast().(strategy.LocalFirst); !ok || !lf.LocalFirst() {
			t.Fatalf("%s is not a LocalFirst", p.name)
		}
		for seed := range uint64(8) {
			trace := func(s mk) []byte {
				res := explore(t, spawner, morpheus.Strategy(s), morpheus.Seed(seed), morpheus.Iterations(1), morpheus.Shrink(0))
				return encode(t, mustFail(t, res, "assertion", "end").Trace)
			}
			if fast, slow := trace(p.fast), trace(p.slow); !bytes.Equal(fast, slow) {
				t.Fatalf("%s, seed %d: the schedules differ with LocalFirst on and off", p.name, seed)
			}
		}
	}
}
