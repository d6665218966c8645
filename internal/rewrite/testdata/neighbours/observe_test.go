package neighbours

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"example.com/neighbours/assert"
	"example.com/neighbours/memstats"
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

// TestMemStats starts a library's collector of memory statistics, which
// reads runtime.ReadMemStats on a goroutine of its own for a report: no
// allocation count, so the test stays under control.
func TestMemStats(t *testing.T) {
	stop := memstats.Start(time.Millisecond)
	time.Sleep(5 * time.Millisecond)
	stop()
	_ = memstats.Heap()
}
