package rt

import "github.com/morpheus-go/morpheus/internal/core"

// MemLookups returns how many accesses of the running schedule looked
// their location up in the table, past the cache.
func MemLookups() int { return state(core.CurrentTask().Run()).lookups }

// CachedLocationAlive reports whether the cache of the running schedule
// holds a location for address p whose object is alive.
func CachedLocationAlive(p uintptr) bool {
	s := state(core.CurrentTask().Run())
	c := &s.memCache[p>>memCacheShift&(memCacheSize-1)]
	return c.p == p && c.l.alive()
}
