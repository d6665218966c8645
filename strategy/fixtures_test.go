package strategy_test

import (
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// caFixture is a program with a bug and its fix, for the checks of
// conflict analysis (the benchmark suites, in the bench module, have more).
type caFixture struct {
	name string
	test func(fixed bool) func(*morpheus.Env)
	opts []morpheus.Option
}

// caFixtures cover goroutines, channels, selects, locks, atomics, shared
// variables, timers, actors, faults and crashes.
var caFixtures = []caFixture{
	{name: "wronglock", test: func(fixed bool) func(*morpheus.Env) {
		return func(e *morpheus.Env) {
			var a, b csync.Mutex
			var n csync.Var[int]
			var wg csync.WaitGroup
			for i := range 3 {
				mu := &a
				if i == 2 && !fixed {
					mu = &b
				}
				wg.Go(func() {
					mu.Lock()
					n.Store(n.Load() + 1)
					mu.Unlock()
				})
			}
			wg.Wait()
			e.Assert(n.Load() == 3, "count %d", n.Load())
		}
	}},
	{name: "pipeline", test: func(fixed bool) func(*morpheus.Env) {
		return func(e *morpheus.Env) {
			in, out := csync.Make[int](1), csync.Make[int](0)
			var sum csync.Int
			var wg csync.WaitGroup
			for range 2 {
				wg.Go(func() {
					for {
						v := in.Recv()
						if v < 0 {
							return
						}
						if fixed {
							sum.Add(v)
						} else {
							sum.Store(sum.Load() + v)
						}
						out.Send(v)
					}
				})
			}
			csync.Go(func() {
				for i := 1; i <= 3; i++ {
					in.Send(i)
				}
				in.Send(-1)
				in.Send(-1)
			})
			for range 3 {
				csync.Select(csync.Recv(out, func(int, bool) {}), csync.Recv(csync.After(time.Second), func(time.Time, bool) {}))
			}
			wg.Wait()
			e.Assert(sum.Load() == 6, "sum %d", sum.Load())
		}
	}},
	{name: "ping-crash", test: func(fixed bool) func(*morpheus.Env) {
		return func(e *morpheus.Env) {
			srv := e.NewNode("srv", nil)
			pid := srv.Spawn("server", func(e *morpheus.Env) {
				for {
					e.Send(morpheus.Recv[morpheus.PID](e), "pong")
				}
			})
			e.NewNode("cli", nil).Spawn("client", func(e *morpheus.Env) {
				for range 3 {
					e.Send(pid, e.Self())
					if _, ok := morpheus.RecvTimeout[string](e, 50*time.Millisecond); ok {
						return
					}
				}
				e.Assert(false, "no pong in three tries")
			})
			if !fixed {
				e.Chaos([]*morpheus.Node{srv}, 1, false)
			}
		}
	}, opts: []morpheus.Option{morpheus.ClockLimit(time.Second)}},
}
