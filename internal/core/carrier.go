package core

import (
	"iter"

	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// A carrier is a pooled coroutine that runs task bodies one after another.
// Resuming a task is a coroutine switch into its carrier; the task yields back
// to whoever resumed it. Reusing carriers keeps an iteration free of goroutine
// creation and gives each carrier a goroutine id, recorded once, by which the
// watchdog finds the stack of a task that blocked outside morpheus's control.
type carrier struct {
	next  func() (struct{}, bool)
	stop  func()
	yield func(struct{}) bool
	task  *Task // the task it runs now, nil when idle
	goid  int64
	gkey  uint64 // goruntime.GoroutineKey of its goroutine
	// chained: it waits inside its resume of another carrier (the
	// hand-off's chain, sched.go): its task can be resumed only by a yield
	// down the chain.
	chained bool
	// dead: its task's body called runtime.Goexit, which ends the
	// carrier's goroutine; it waits in its last deferred call to end and
	// is never given another task (see goexit).
	dead bool
}

func newCarrier() *carrier {
	c := &carrier{}
	c.next, c.stop = iter.Pull(c.loop)
	c.next() // start it, so its goroutine id is known before its first task
	return c
}

// loop is the carrier's coroutine body: run the assigned task, report back,
// wait for the next assignment. It returns when the pool drains it.
func (c *carrier) loop(yield func(struct{}) bool) {
	c.yield = yield
	c.goid = goruntime.Goid()
	growStack(0)
	c.register()
	drained := false
	defer func() {
		if !drained {
			if p := recover(); p != nil {
				panic(p) // not morpheus's to handle
			}
			c.goexit()
		}
		c.unregister()
	}()
	for yield(struct{}{}) {
		c.task.main()
		c.task = nil
	}
	drained = true
}

// goexit ends the task whose body called runtime.Goexit: its deferred calls
// have run, and the Goexit, which nothing stops, reached the carrier's base.
// Here, in the carrier's last deferred call, the task ends as Task.main ends
// it (its exit op, the next task picked), and control goes back to whoever
// resumed the carrier. The carrier is dead: were it left to end, its
// coroutine would pass the Goexit on to the goroutine that resumed it (the
// worker, or another task's carrier). It waits here until discard ends it
// from a goroutine of its own, to which the Goexit then passes.
func (c *carrier) goexit() {
	if t := c.task; t != nil {
		t.end(t.endReason, t.endOK)
	}
	c.task = nil
	c.dead = true
	c.yield(struct{}{})
}

// pool holds the idle carriers of one worker. Iterations of a test are
// alike, so the pool keeps as many idle carriers as the last iteration had
// at once (at least minIdle): an iteration of 10,000 processes reuses the
// 10,000 carriers, with the stacks they grew, of the one before it, and the
// carriers of a single burst are let go when the iteration after it has
// not needed them (begin).
type pool struct {
	idle []*carrier
	all  int // carriers in all, idle or running a task
	peak int // the most carriers running tasks at once in this iteration
}

// minIdle is how many idle carriers a pool keeps whatever its iterations
// need.
const minIdle = 4096

// begin starts an iteration: idle carriers beyond what the last iteration
// needed at once (and minIdle) end.
func (p *pool) begin() {
	p.trim(max(minIdle, p.peak))
	p.peak = p.all - len(p.idle)
}

func (p *pool) get() *carrier {
	var c *carrier
	if n := len(p.idle); n > 0 {
		c = p.idle[n-1]
		p.idle[n-1] = nil
		p.idle = p.idle[:n-1]
	} else {
		p.all++
		c = newCarrier()
	}
	p.peak = max(p.peak, p.all-len(p.idle))
	return c
}

func (p *pool) put(c *carrier) { p.idle = append(p.idle, c) }

// discard lets a dead carrier (see carrier.goexit) end, on a goroutine of
// its own that the carrier's Goexit then ends too.
func (p *pool) discard(c *carrier) {
	p.all--
	go c.stop()
}

// drain ends every idle carrier's goroutine.
func (p *pool) drain() { p.trim(0) }

// trim ends the goroutines of the idle carriers beyond the first keep.
func (p *pool) trim(keep int) {
	if len(p.idle) <= keep {
		return
	}
	for i, c := range p.idle[keep:] {
		c.stop()
		p.idle[keep+i] = nil
	}
	p.all -= len(p.idle) - keep
	p.idle = p.idle[:keep]
}

// growStack grows a new carrier's stack from the 2 KiB a goroutine starts
// with to 4 KiB, which a task's frames (its body, an op, the switch) need.
// Here, a few frames deep, the runtime copies and adjusts four frames; grown
// inside the task's first op, it copies a dozen, each looked up in the
// function tables (about three times the work: see BENCHMARKS.md).
//
//go:noinline
func growStack(i int) byte {
	var frame [2048]byte // with the frames below it and the guard, past 2 KiB
	frame[i] = 1
	return frame[i/2]
}
