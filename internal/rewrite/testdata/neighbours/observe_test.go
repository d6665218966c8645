package neighbours

import (
	"reflect"
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

// TestReflectChan moves values through channels by reflection, as a
// generic fan-in or tee does: reflect.Select over the inputs, a
// reflect.Value's Send, Recv, TrySend, TryRecv and Close. The goroutines
// block on each other through those calls: under control they are ops of
// the channels, so each waits for the other as it would under go test.
func TestReflectChan(t *testing.T) {
	a, b, out := make(chan int), make(chan int), make(chan int)
	go func() {
		cases := []reflect.SelectCase{
			{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(a)},
			{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(b)},
		}
		for open := 2; open > 0; {
			i, v, ok := reflect.Select(cases)
			if !ok {
				cases[i].Chan = reflect.Value{}
				open--
				continue
			}
			reflect.ValueOf(out).Send(v)
		}
		reflect.ValueOf(out).Close()
	}()
	go func() { a <- 1; close(a) }()
	go func() { reflect.ValueOf(b).Send(reflect.ValueOf(2)); reflect.ValueOf(b).Close() }()
	sum := 0
	for {
		v, ok := reflect.ValueOf(out).Recv()
		if !ok {
			break
		}
		sum += int(v.Int())
	}
	if sum != 3 {
		t.Fatalf("received %d in all, want 3", sum)
	}
	buf := make(chan int, 1)
	if !reflect.ValueOf(buf).TrySend(reflect.ValueOf(4)) || reflect.ValueOf(buf).TrySend(reflect.ValueOf(5)) {
		t.Fatal("TrySend on a channel with one free slot")
	}
	if v, ok := reflect.ValueOf(buf).TryRecv(); !ok || v.Int() != 4 {
		t.Fatalf("TryRecv: %v %v", v, ok)
	}
	if v, ok := reflect.ValueOf(buf).TryRecv(); ok || v.IsValid() {
		t.Fatalf("TryRecv of an empty channel: %v %v", v, ok)
	}
}
