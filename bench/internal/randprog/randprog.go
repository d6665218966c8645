// Package randprog makes random concurrent programs, as morpheus tests, for
// checking morpheus itself: that every failure they show replays (morpheus
// bench replay), whatever mix of goroutines, actors, channels, locks,
// atomics, choices, timers and faults found it.
//
// A program is a function of its seed alone. It starts a few goroutines
// and actors that each run a short random list of steps, waits for them,
// and asserts that a shared counter counts every increment. Some increments
// are a racy load and store, so some interleavings lose one and fail the
// assertion; a program may also deadlock on its locks, leak a goroutine or
// time out, each a failure whose trace must replay like any other.
package randprog

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// step kinds.
const (
	lockedIncr = iota // increment under a lock
	racyIncr          // load, then store plus one: may lose an update
	send              // send on the shared buffered channel
	recv              // receive from it, or time out
	choose            // a controlled choice of how long to sleep
	sleep             // sleep on the virtual clock
	ask               // ask the echo actor and wait for its answer, or time out
	nestedLock        // take both locks, in an order given by the program
	numSteps
)

// program is the shape of a program, drawn from its seed.
type program struct {
	workers [][]int // each goroutine's steps
	orders  []bool  // per nestedLock step, in order: whether it takes b before a
	faults  bool    // the network may drop and reorder the echo messages
	chaos   bool    // the echo actor's node may crash (and restart)
}

// Program returns the test of the random program seed names.
func Program(seed uint64) func(*morpheus.Env) {
	rng := rand.New(rand.NewPCG(seed, 0x72616e64))
	p := &program{faults: rng.IntN(3) == 0, chaos: rng.IntN(4) == 0}
	for range 2 + rng.IntN(3) {
		var w []int
		for range 2 + rng.IntN(5) {
			k := rng.IntN(numSteps)
			if k == nestedLock {
				p.orders = append(p.orders, rng.IntN(2) == 0)
			}
			w = append(w, k)
		}
		p.workers = append(p.workers, w)
	}
	return p.run
}

// Name names the program of seed in reports.
func Name(seed uint64) string { return fmt.Sprintf("random-%d", seed) }

func (p *program) run(e *morpheus.Env) {
	if p.faults {
		e.SetFaults(morpheus.Faults{Drop: 0.2, MaxDrops: 1, Reorder: true})
	}
	n := e.NewNode("echo", nil)
	echo := n.Spawn("echo", func(e *morpheus.Env) {
		for {
			from := morpheus.Recv[morpheus.PID](e)
			e.Send(from, "pong")
		}
	})
	if p.chaos {
		e.Chaos([]*morpheus.Node{n}, 1, true)
	}
	var a, b csync.Mutex
	var count, want csync.Int
	ch := csync.Make[int](64)
	var wg csync.WaitGroup
	order := 0
	for _, w := range p.workers {
		orders := p.orders[order:]
		order += countOf(w, nestedLock)
		wg.Add(1)
		// Asking the echo actor needs a process; the other steps are a
		// goroutine's.
		e.Spawn("worker", func(e *morpheus.Env) {
			defer wg.Done()
			k := 0
			for _, s := range w {
				switch s {
				case lockedIncr:
					a.Lock()
					count.Store(count.Load() + 1)
					a.Unlock()
					want.Add(1)
				case racyIncr:
					v := count.Load()
					count.Store(v + 1)
					want.Add(1)
				case send:
					ch.Send(1)
				case recv:
					csync.Select(csync.Recv(ch, func(int, bool) {}), csync.Recv(csync.After(time.Millisecond), func(time.Time, bool) {}))
				case choose:
					e.Sleep(time.Duration(e.Choose(3)) * time.Millisecond)
				case sleep:
					csync.Sleep(time.Millisecond)
				case ask:
					e.Send(echo, e.Self())
					morpheus.RecvTimeout[string](e, 10*time.Millisecond)
				case nestedLock:
					first, second := &a, &b
					if orders[k] {
						first, second = &b, &a
					}
					k++
					first.Lock()
					second.Lock()
					second.Unlock()
					first.Unlock()
				}
			}
		})
	}
	wg.Wait()
	e.Assert(count.Load() == want.Load(), "counted %d of %d increments", count.Load(), want.Load())
}

func countOf(w []int, k int) int {
	n := 0
	for _, s := range w {
		if s == k {
			n++
		}
	}
	return n
}
