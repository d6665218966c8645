package checkact

import (
	"sync"
	"testing"
)

func takeTwice(take func() bool) (taken int) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if take() {
				mu.Lock()
				taken++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return taken
}

func TestTake(t *testing.T) {
	p := NewPool(1)
	if n := takeTwice(p.Take); n != 1 || p.Free() != 0 {
		t.Fatalf("%d tokens taken from a pool of 1, %d free", n, p.Free())
	}
}

func TestTakeLocked(t *testing.T) {
	p := NewPool(1)
	if n := takeTwice(p.TakeLocked); n != 1 || p.Free() != 0 {
		t.Fatalf("%d tokens taken from a pool of 1, %d free", n, p.Free())
	}
}
