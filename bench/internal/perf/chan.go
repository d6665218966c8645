package perf

import (
	"fmt"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// ChanPingPong is the controlled ping-pong of PingPong over two unbuffered
// csync channels instead of actor messages: n round trips between the main
// task and one goroutine, four steps each, as many as with actors.
func ChanPingPong(n int) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		ping, pong := csync.Make[int](0), csync.Make[int](0)
		csync.Go(func() {
			for range n {
				pong.Send(ping.Recv())
			}
		})
		for i := range n {
			ping.Send(i)
			pong.Recv()
		}
	}
}

// RunChanPingPong runs the channel ping-pong once and returns its duration.
func RunChanPingPong(n int) (time.Duration, error) {
	res, err := morpheus.Explore(ChanPingPong(n), morpheus.Iterations(1), morpheus.Workers(1),
		morpheus.MaxSteps(4*n+100), morpheus.Name("chan-pingpong"), morpheus.Strategy("random"))
	if err != nil {
		return 0, err
	}
	if res.Failure != nil {
		return 0, fmt.Errorf("channel ping-pong failed: %v", res.Failure)
	}
	return res.Elapsed, nil
}

// SmallGo is Small written the Go way: a server goroutine answering two
// client goroutines' requests over csync channels, a WaitGroup for the
// clients, a Mutex-guarded counter, and the server stopped by closing its
// channel; about fifty steps.
func SmallGo(e *morpheus.Env) {
	type request struct{ reply *csync.Chan[int] }
	reqs := csync.Make[request](0)
	done := csync.Make[struct{}](0)
	csync.Go(func() {
		for q := range reqs.Range() {
			q.reply.Send(1)
		}
		done.Close()
	})
	var (
		wg    csync.WaitGroup
		mu    csync.Mutex
		total int
	)
	for range 2 {
		wg.Go(func() {
			reply := csync.Make[int](0)
			for range 2 {
				reqs.Send(request{reply})
				v := reply.Recv()
				mu.Lock()
				total += v
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	reqs.Close()
	done.Recv()
	e.Assert(total == 4, "total %d", total)
}

// RunSmallGo runs iterations of SmallGo on all cores and returns the
// iterations per second and the mean steps per iteration.
func RunSmallGo(iterations int) (perSecond, steps float64, err error) {
	res, err := morpheus.Explore(SmallGo, morpheus.Iterations(iterations), morpheus.Name("small-go"),
		morpheus.Strategy("random"))
	if err != nil {
		return 0, 0, err
	}
	if res.Failure != nil {
		return 0, 0, fmt.Errorf("small goroutine test failed: %v", res.Failure)
	}
	return float64(res.Iterations) / res.Elapsed.Seconds(), float64(res.Steps) / float64(res.Iterations), nil
}
