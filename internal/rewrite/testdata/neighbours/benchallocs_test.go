package neighbours

import (
	"sync"
	"testing"
)

// TestBenchmarkAllocs checks that a cache it made allocates nothing per
// Get, with testing.Benchmark's result, as caches' tests check their Get and
// Set: testing runs the benchmark on a goroutine of its own, and counts.
func TestBenchmarkAllocs(t *testing.T) {
	c := newCache()
	c.set(1, 2)
	r := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			c.get(1)
		}
	})
	if n := r.AllocsPerOp(); n != 0 {
		t.Errorf("Benchmark: %d allocations per Get, want 0", n)
	}
}

// cache is a map under a lock whose hits are counted by a goroutine of
// its own.
type cache struct {
	mu   sync.Mutex
	m    map[int]int
	hits chan int
}

func newCache() *cache {
	return &cache{m: map[int]int{}, hits: make(chan int, 1)}
}

func (c *cache) set(k, v int) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}

func (c *cache) get(k int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hits <- k
	<-c.hits
	return c.m[k]
}
