package mem

import (
	"sync"
	"sync/atomic"
)

type Cache struct {
	mu    sync.Mutex
	rw    *sync.RWMutex
	once  sync.Once
	hits  atomic.Int64
	count int64
	items []string
}

// Guarded: synchronisation values are never ops of plain memory (their
// operations are ops already), nor the operands of atomic calls; what
// they guard is.
func (c *Cache) Guarded(s string) {
	c.mu.Lock()
	c.items = append(c.items, s)
	c.mu.Unlock()
	c.rw.RLock()
	defer c.rw.RUnlock()
	c.once.Do(func() { c.hits.Store(0) })
	c.hits.Add(1)
	atomic.AddInt64(&c.count, 1)
}
