package core

import "sync"

// Drop-in primitives (goroutines, channels, mutexes) have Go's signatures, so
// they cannot be handed the task that calls them: they ask CurrentTask. Each
// carrier registers its goroutine once; a lookup is a goroutine key read and a
// sync.Map load.

var carriers sync.Map // goroutineKey -> *carrier

func (c *carrier) register() {
	c.gkey = goroutineKey()
	carriers.Store(c.gkey, c)
}

func (c *carrier) unregister() { carriers.Delete(c.gkey) }

// CurrentTask returns the controlled task running on the calling goroutine,
// or nil if the caller is not a task morpheus runs (a plain goroutine, or
// code outside any test).
func CurrentTask() *Task {
	v, ok := carriers.Load(goroutineKey())
	if !ok {
		return nil
	}
	return v.(*carrier).task
}

// Run returns the iteration the task belongs to.
func (t *Task) Run() *Run { return t.run }

// Gen returns a number that identifies the iteration among all iterations of
// the process: primitives that outlive an iteration (a package-level mutex)
// compare it to notice that they meet a new one and must reset.
func (r *Run) Gen() uint64 { return r.gen }

// Seed returns the iteration's own seed (Config.Seed): what a primitive
// whose values must be a function of the schedule (a controlled math/rand)
// seeds itself from. A replay runs with the seed of the iteration it
// replays.
func (r *Run) Seed() uint64 { return r.cfg.Seed }
