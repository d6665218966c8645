package csync_test

//lint:file-ignore SA2001 a lock and unlock is the op measured

import (
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// The benchmarks run b.N ops in one iteration: what an op costs, scheduling
// and trace recording included. Allocations per op must stay at zero (the
// trace grows by whole chunks, which shows as bytes, not allocations).

func benchIteration(b *testing.B, test func(e *morpheus.Env)) {
	b.ReportAllocs()
	res, err := morpheus.Explore(test, morpheus.Iterations(1), morpheus.Workers(1), morpheus.MaxSteps(8*b.N+100))
	if err != nil {
		b.Fatal(err)
	}
	if res.Failure != nil {
		b.Fatal(res.Failure)
	}
}

func BenchmarkChanPingPong(b *testing.B) {
	benchIteration(b, func(e *morpheus.Env) {
		ping, pong := csync.Make[int](0), csync.Make[int](0)
		csync.Go(func() {
			for range b.N {
				pong.Send(ping.Recv())
			}
		})
		for i := range b.N {
			ping.Send(i)
			pong.Recv()
		}
	})
}

func BenchmarkChanBuffered(b *testing.B) {
	benchIteration(b, func(e *morpheus.Env) {
		c := csync.Make[int](16)
		for i := range b.N {
			c.Send(i)
			c.Recv()
		}
	})
}

func BenchmarkMutex(b *testing.B) {
	benchIteration(b, func(e *morpheus.Env) {
		var mu csync.Mutex
		var wg csync.WaitGroup
		for range 2 {
			wg.Go(func() {
				for range b.N / 2 {
					mu.Lock()
					mu.Unlock()
				}
			})
		}
		wg.Wait()
	})
}

func BenchmarkVar(b *testing.B) {
	benchIteration(b, func(e *morpheus.Env) {
		var v csync.Var[int]
		for i := range b.N {
			v.Store(v.Load() + i)
		}
	})
}

func BenchmarkSelect(b *testing.B) {
	benchIteration(b, func(e *morpheus.Env) {
		a, c := csync.Make[int](1), csync.Make[int](1)
		for i := range b.N {
			a.Send(i)
			csync.Select(csync.Recv(a, nil), csync.Recv(c, nil))
		}
	})
}
