// Package clock is a test module of shapes that tell virtual time from real
// time: a start time read at initialization, a sleeper's wake-up, polling
// and spinning on the clock while another goroutine sleeps, and a job queue
// long enough to pass the step limit with one goroutine.
package clock

import (
	"sync/atomic"
	"time"
)

// started is read when the package is initialized, outside any schedule.
var started = time.Now()

// Uptime is how long ago the package was initialized.
func Uptime() time.Duration { return time.Since(started) }

// Stopper is a worker that polls its stop channel between rounds of work.
type Stopper struct {
	stop   chan struct{}
	rounds atomic.Int64
}

// NewStopper starts the worker.
func NewStopper() *Stopper {
	s := &Stopper{stop: make(chan struct{})}
	go s.run()
	return s
}

func (s *Stopper) run() {
	for {
		select {
		case <-s.stop:
			return
		default:
		}
		s.rounds.Add(1)
	}
}

// StopAfter stops the worker d from now.
func (s *Stopper) StopAfter(d time.Duration) {
	time.Sleep(d)
	close(s.stop)
}

// Spin waits for d by reading the clock.
func Spin(d time.Duration) {
	t0 := time.Now()
	for time.Since(t0) < d {
	}
}

// Sum adds the numbers 1 to n through a queue that one goroutine fills and
// drains: as many steps as a pool fed that many jobs.
func Sum(n int) int {
	q := make(chan int, 64)
	total := 0
	for i := 1; i <= n; i++ {
		if len(q) == cap(q) {
			for len(q) > 0 {
				total += <-q
			}
		}
		q <- i
	}
	for len(q) > 0 {
		total += <-q
	}
	return total
}
