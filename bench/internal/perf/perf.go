// Package perf measures the controlled runtime's speed: message round trips
// between two actors against the same ping-pong on plain goroutines,
// iterations per second of a small test, and how the cost of a step grows
// with the tasks and the steps of an iteration (Scale). The CLI's "bench
// perf" and "bench scale" and the Go benchmarks of this package run the
// same code.
package perf

import (
	"fmt"
	"runtime"
	"time"

	"github.com/morpheus-go/morpheus"
)

// Result is what "morpheus bench perf -json" prints.
type Result struct {
	Roundtrips          int     `json:"roundtrips"`
	ControlledSeconds   float64 `json:"controlled_seconds"`
	UncontrolledSeconds float64 `json:"uncontrolled_seconds"`
	Ratio               float64 `json:"ratio"`
	Iterations          int     `json:"iterations"`
	IterationsPerSecond float64 `json:"iterations_per_second"`
	StepsPerIteration   float64 `json:"steps_per_iteration"`
	PeakRSSMB           float64 `json:"peak_rss_mb"`
	Workers             int     `json:"workers"`
	// ChanRoundtrips is the duration in seconds of the same number of round
	// trips over two unbuffered csync channels (ChanPingPong), ChanRatio its
	// ratio to the actor ping-pong's.
	ChanRoundtrips float64 `json:"chan_roundtrips"`
	ChanRatio      float64 `json:"chan_ratio"`
	// GoIterationsPerSecond is the iterations per second of SmallGo, the
	// small test written with goroutines, channels, a WaitGroup and a
	// Mutex (as many iterations as of Small, on all cores); GoSteps its
	// mean steps per iteration.
	GoIterationsPerSecond float64 `json:"go_iterations_per_second"`
	GoSteps               float64 `json:"go_steps_per_iteration"`
}

// PingPong is the controlled ping-pong: n round trips between two processes,
// in one iteration, recorded as any iteration is (past 65,536 events, its
// latest events and its schedule: see core.Config.Window).
func PingPong(n int) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		main := e.Self()
		pong := e.NewNode("n1", nil).Spawn("pong", func(e *morpheus.Env) {
			for range n {
				e.Receive(nil)
				e.Send(main, 0)
			}
		})
		for range n {
			e.Send(pong, 0)
			e.Receive(nil)
		}
	}
}

// RunPingPong runs the controlled ping-pong once and returns its duration.
func RunPingPong(n int) (time.Duration, error) {
	res, err := morpheus.Explore(PingPong(n), morpheus.Iterations(1), morpheus.Workers(1),
		morpheus.MaxSteps(4*n+100), morpheus.Name("pingpong"), morpheus.Strategy("random"))
	if err != nil {
		return 0, err
	}
	if res.Failure != nil {
		return 0, fmt.Errorf("ping-pong failed: %v", res.Failure)
	}
	return res.Elapsed, nil
}

// RunGoroutines runs the same ping-pong with plain goroutines and unbuffered
// channels.
func RunGoroutines(n int) time.Duration {
	start := time.Now()
	ping, pong := make(chan int), make(chan int)
	go func() {
		for range n {
			v := <-ping
			pong <- v
		}
	}()
	for i := range n {
		ping <- i
		<-pong
	}
	return time.Since(start)
}

// Small is a test of three processes and about thirty ops: a server and two
// clients doing request/reply rounds.
func Small(e *morpheus.Env) {
	n := e.NewNode("n1", nil)
	main := e.Self()
	srv := n.Spawn("server", func(e *morpheus.Env) {
		for {
			p := e.Receive(nil).(morpheus.PID)
			e.Send(p, 1)
		}
	})
	for range 2 {
		n.Spawn("client", func(e *morpheus.Env) {
			for range 2 {
				e.Send(srv, e.Self())
				e.Receive(nil)
			}
			e.Send(main, 0)
		})
	}
	e.Receive(nil)
	e.Receive(nil)
}

// RunSmall runs iterations of Small on all cores and returns the iterations
// per second and the mean steps per iteration.
func RunSmall(iterations int) (perSecond, steps float64, err error) {
	res, err := morpheus.Explore(Small, morpheus.Iterations(iterations), morpheus.Name("small"), morpheus.Strategy("random"))
	if err != nil {
		return 0, 0, err
	}
	if res.Failure != nil {
		return 0, 0, fmt.Errorf("small test failed: %v", res.Failure)
	}
	return float64(res.Iterations) / res.Elapsed.Seconds(), float64(res.Steps) / float64(res.Iterations), nil
}

// Run measures everything. The controlled ping-pong runs first so that the
// process's peak RSS, read right after it, is that run's.
func Run(roundtrips, iterations int) (*Result, error) {
	r := &Result{Roundtrips: roundtrips, Iterations: iterations, Workers: runtime.GOMAXPROCS(0)}
	c, err := RunPingPong(roundtrips)
	if err != nil {
		return nil, err
	}
	r.PeakRSSMB = peakRSSMB()
	ch, err := RunChanPingPong(roundtrips)
	if err != nil {
		return nil, err
	}
	r.ChanRoundtrips = ch.Seconds()
	r.ChanRatio = ch.Seconds() / c.Seconds()
	u := RunGoroutines(roundtrips)
	r.ControlledSeconds, r.UncontrolledSeconds = c.Seconds(), u.Seconds()
	r.Ratio = r.ControlledSeconds / r.UncontrolledSeconds
	r.IterationsPerSecond, r.StepsPerIteration, err = RunSmall(iterations)
	if err != nil {
		return nil, err
	}
	r.GoIterationsPerSecond, r.GoSteps, err = RunSmallGo(iterations)
	return r, err
}
