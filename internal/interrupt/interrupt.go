// Package interrupt turns SIGINT and SIGTERM into a graceful stop for
// morpheus's explorations and commands, shared by everything in a process
// that watches for them.
//
// While at least one Watch is active, the first signal does not end the
// process: Done is closed (and stays closed for the life of the process),
// a line on stderr says what happens, and tracked child process groups are
// sent SIGINT (SIGTERM as it came) so that they too stop gracefully. Who
// watches stops starting work, finishes or abandons what runs, and reports
// what was done. A second signal kills the tracked process groups and exits
// at once with status 128+signal (130 for SIGINT). When the last Watch
// stops, the signals' default behaviour is back.
//
// Nothing here takes part in a scheduling decision: an interrupt decides only
// how many iterations run, as a time budget does.
package interrupt

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
)

var (
	done        = make(chan struct{})
	interrupted atomic.Bool

	mu     sync.Mutex
	users  int             // active Watch calls
	sigs   chan os.Signal  // non-nil while watching
	quit   chan struct{}   // closed to end the watching goroutine
	ended  chan struct{}   // closed when it has ended
	count  int             // signals received while watching
	groups = map[int]int{} // tracked process group -> its tracking count
)

// In a test binary, os/signal's goroutine starts now rather than at the
// first Watch, where tests that count goroutines around an exploration
// would take it for a leak. The handlers are removed at once: signals keep
// their default behaviour (or stay ignored).
func init() {
	if !testing.Testing() {
		return
	}
	c := make(chan os.Signal, 1)
	for _, s := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		if !signal.Ignored(s) {
			signal.Notify(c, s)
		}
	}
	signal.Stop(c)
}

// Watch starts handling SIGINT and SIGTERM, if nobody does yet; stop ends
// this watch. A signal that the process ignores (a background job's SIGINT)
// stays ignored.
func Watch() (stop func()) {
	mu.Lock()
	defer mu.Unlock()
	users++
	if users == 1 {
		sigs = make(chan os.Signal, 2)
		for _, s := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
			if !signal.Ignored(s) {
				signal.Notify(sigs, s)
			}
		}
		quit, ended = make(chan struct{}), make(chan struct{})
		go loop(sigs, quit, ended)
	}
	var once sync.Once
	return func() { once.Do(unwatch) }
}

func unwatch() {
	mu.Lock()
	users--
	if users > 0 {
		mu.Unlock()
		return
	}
	signal.Stop(sigs)
	q, e := quit, ended
	sigs, quit, ended = nil, nil, nil
	mu.Unlock()
	close(q)
	<-e
}

func loop(sigs chan os.Signal, quit, ended chan struct{}) {
	defer close(ended)
	for {
		select {
		case <-quit:
			return
		case s := <-sigs:
			handle(s)
		}
	}
}

// handle acts on one signal.
func handle(s os.Signal) {
	mu.Lock()
	count++
	n := count
	pgs := make([]int, 0, len(groups))
	for pg := range groups {
		pgs = append(pgs, pg)
	}
	mu.Unlock()
	if n == 1 && !interrupted.Load() {
		fmt.Fprintf(os.Stderr, "\nmorpheus: %v: finishing what runs and reporting what was done (interrupt again to stop at once)\n", s)
		interrupted.Store(true)
		close(done)
		for _, pg := range pgs {
			signalGroup(pg, s)
		}
		return
	}
	fmt.Fprintf(os.Stderr, "\nmorpheus: %v again: stopping at once\n", s)
	for _, pg := range pgs {
		killGroup(pg)
	}
	code := 130
	if s == syscall.SIGTERM {
		code = 143
	}
	os.Exit(code)
}

// Done returns a channel closed at the first interrupt.
func Done() <-chan struct{} { return done }

// Interrupted reports whether the process was interrupted while watching.
func Interrupted() bool { return interrupted.Load() }

// Watching reports whether a Watch is active.
func Watching() bool {
	mu.Lock()
	defer mu.Unlock()
	return users > 0
}
