package mtest

import (
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/internal/programs"
)

// The library's own subjects, for its tests that need a known bug or a
// known correct program (the benchmark suites, in the bench module, have
// more): one copy for the face's tests and the strategies'.

// Program is a named test with the options it runs under.
type Program struct {
	Name    string
	Test    func(e *morpheus.Env)
	Options []morpheus.Option
}

// Bug is a program with a bug and its fix: Test(false) fails under some
// schedules, Test(true) under none.
type Bug struct {
	Name    string
	Test    func(fixed bool) func(*morpheus.Env)
	Options []morpheus.Option
}

// Bugs cover goroutines, channels, selects, locks, atomics, shared
// variables, timers, actors, faults and crashes (conflict analysis's checks
// run them all).
var Bugs = []Bug{
	{Name: "wronglock", Test: WrongLock},
	{Name: "pipeline", Test: Pipeline},
	{Name: "ping-crash", Test: PingCrash, Options: []morpheus.Option{morpheus.ClockLimit(time.Second)}},
}

// WrongLock: three goroutines add to a counter, two under one mutex and
// the third under another, so its read-modify-write can interleave with
// theirs and an increment is lost (fixed: one mutex for all).
func WrongLock(fixed bool) func(e *morpheus.Env) {
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
				v := n.Load()
				n.Store(v + 1)
				mu.Unlock()
			})
		}
		wg.Wait()
		e.Assert(n.Load() == 3, "count %d, want 3", n.Load())
	}
}

// HandOff: a producer publishes a value and then a ready flag, in the
// wrong order unless fixed; the consumer that sees the flag reads the value.
func HandOff(fixed bool) func(e *morpheus.Env) {
	return func(e *morpheus.Env) {
		var val, ready csync.Int
		done := csync.Make[bool](1)
		csync.Go(func() {
			if fixed {
				val.Store(5)
				ready.Store(1)
			} else {
				ready.Store(1)
				val.Store(5)
			}
		})
		csync.Go(func() {
			if ready.Load() == 1 {
				e.Assert(val.Load() == 5, "value %d after the flag", val.Load())
			}
			done.Send(true)
		})
		done.Recv()
	}
}

// Pipeline: two workers take numbers from a channel and add them to a sum
// with a load and a store, unless fixed (an atomic add); the main task
// collects their echoes with a time-out.
func Pipeline(fixed bool) func(*morpheus.Env) {
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
}

// PingCrash: a client pings a server three times with a time-out; the
// server's node may crash for good (Chaos) unless fixed, and then the
// client's assertion fails.
func PingCrash(fixed bool) func(*morpheus.Env) {
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
}

// PingLiveness is programs.PingLiveness (the benchmarks' sweep runs it too)
// with its clock limit.
var PingLiveness = Program{"chaos/ping-liveness", programs.PingLiveness, []morpheus.Option{morpheus.ClockLimit(programs.PingLivenessLimit)}}
