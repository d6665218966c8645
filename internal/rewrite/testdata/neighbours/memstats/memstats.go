// Package memstats reads the runtime's memory statistics for a report, on a
// goroutine of its own, as a metrics library's collector does: no count of
// allocations that a test compares.
package memstats

import (
	"runtime"
	"sync"
	"time"
)

var (
	mu   sync.RWMutex
	heap uint64
)

// Start reads the statistics every interval until the returned function is
// called.
func Start(interval time.Duration) (stop func()) {
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(interval):
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			mu.Lock()
			heap = ms.HeapAlloc
			mu.Unlock()
		}
	}()
	return func() { close(done) }
}

// Heap returns the heap size the last reading saw.
func Heap() uint64 {
	mu.RLock()
	defer mu.RUnlock()
	return heap
}
