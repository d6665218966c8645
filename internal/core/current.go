package core

import (
	"sync"
	"sync/atomic"

	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// Drop-in primitives (goroutines, channels, mutexes, and in rewritten code
// every access to shared memory) have Go's signatures, so they cannot be
// handed the task that calls them: they ask CurrentTask. Each carrier
// registers its goroutine once; a lookup is a goroutine key read and a look
// in a direct-mapped cache of carriers by key, falling back to a sync.Map
// (whose lookup hashes the key as an interface, several times the cost of
// the rest of a channel op).

var carriers sync.Map // goruntime.GoroutineKey -> *carrier

// carrierCache holds a carrier per slot, the latest registered there; a
// carrier clears its slot when its goroutine ends, before the runtime can
// give the goroutine's key to another. carrierCount counts the live
// carriers whose key falls in each slot: where there is none, the caller
// is no carrier, and needs no look in the map. That is every lookup
// of code outside control (a test on the real network, TestMain, a
// package's init) in rewritten packages: a plain-memory access there cost
// a sync.Map lookup, several times plain Go's loop around it.
var (
	carrierCache [1 << 12]atomic.Pointer[carrier]
	carrierCount [1 << 12]atomic.Int32
)

func slotOf(key uint64) uint64 { return (key * 0x9e3779b97f4a7c15) >> 52 }

func carrierSlot(key uint64) *atomic.Pointer[carrier] { return &carrierCache[slotOf(key)] }

func (c *carrier) register() {
	c.gkey = goruntime.GoroutineKey()
	carriers.Store(c.gkey, c)
	carrierCount[slotOf(c.gkey)].Add(1)
	carrierSlot(c.gkey).Store(c)
}

func (c *carrier) unregister() {
	carrierSlot(c.gkey).CompareAndSwap(c, nil)
	carriers.Delete(c.gkey)
	carrierCount[slotOf(c.gkey)].Add(-1)
}

// CurrentTask returns the controlled task running on the calling goroutine,
// or nil if the caller is not a task morpheus runs (a plain goroutine, or
// code outside any test).
func CurrentTask() *Task {
	key := goruntime.GoroutineKey()
	slot := slotOf(key)
	c := carrierCache[slot].Load()
	if c != nil && c.gkey == key {
		return c.task
	}
	// A carrier asks about itself after its own register, so the count
	// holds it: where no live carrier's key falls in the slot, the caller
	// is none.
	if carrierCount[slot].Load() == 0 {
		return nil
	}
	v, ok := carriers.Load(key)
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
