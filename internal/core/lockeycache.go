package core

import "sync/atomic"

// locCache is a direct-mapped cache in front of locByPC, for LocKey: a
// strategy that learns (conflict analysis) needs the stable key of every
// op's location, and a sync.Map lookup hashes the program counter as an
// interface, several times the cost of the rest of the op's bookkeeping.
// A slot holds one program counter and its key, immutable once stored;
// two counters that share a slot take turns, each falling back to locByPC.
var locCache [1 << 12]atomic.Pointer[locCached]

type locCached struct {
	pc  uintptr
	key uint64
}

func locSlot(pc uintptr) *atomic.Pointer[locCached] {
	return &locCache[(uint64(pc)*0x9e3779b97f4a7c15)>>52]
}

// cachedLocKey returns the key of pc if the cache has it.
func cachedLocKey(pc uintptr) (uint64, bool) {
	if c := locSlot(pc).Load(); c != nil && c.pc == pc {
		return c.key, true
	}
	return 0, false
}

// cacheLocKey remembers key as the key of pc.
func cacheLocKey(pc uintptr, key uint64) { locSlot(pc).Store(&locCached{pc: pc, key: key}) }
