package neighbours

import (
	"runtime"
	"sync"
	"testing"

	"example.com/neighbours/assert"
)

// TestChanLen reads a channel's length by reflection, as testify's
// assert.Len does: it is the length of the values sent and not received.
func TestChanLen(t *testing.T) {
	ch := make(chan struct{}, 2)
	ch <- struct{}{}
	assert.Len(t, ch, 1)
	done := make(chan bool)
	go func() {
		ch <- struct{}{}
		close(done)
	}()
	<-done
	assert.Len(t, ch, 2)
	<-ch
	assert.Len(t, ch, 1)
}

// TestAllocs counts the allocations of code that locks, reads a map and
// receives, with testing.AllocsPerRun and with runtime.ReadMemStats as
// tests that check their code allocates nothing do: none.
func TestAllocs(t *testing.T) {
	var mu sync.Mutex
	m := map[int]int{1: 2}
	ch := make(chan int, 1)
	get := func() {
		mu.Lock()
		ch <- m[1]
		<-ch
		mu.Unlock()
	}
	if n := testing.AllocsPerRun(10, get); n != 0 {
		t.Errorf("AllocsPerRun: %v allocations, want 0", n)
	}
	if n := mallocs(get); n != 0 {
		t.Errorf("ReadMemStats: %d allocations, want 0", n)
	}
}

// mallocs returns how many allocations f makes, by runtime.ReadMemStats.
func mallocs(f func()) uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.Mallocs
	f()
	runtime.ReadMemStats(&ms)
	return ms.Mallocs - before
}
