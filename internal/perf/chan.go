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
