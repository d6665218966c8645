package sctplain

import (
	"sync"
	"testing"
)

// wronglock: one goroutine does x := v; v++ and expects v == x+1, under lock
// la, while n others increment v under lock lb: an increment between its
// read and its check breaks it. Fixed: everybody uses la.
func wronglock(t *testing.T, n int, fixed bool) {
	var v int
	var la, lb sync.Mutex
	other := &lb
	if fixed {
		other = &la
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		la.Lock()
		x := v
		v++
		got := v
		la.Unlock()
		if got != x+1 {
			t.Errorf("wronglock: v=%d after incrementing %d", got, x)
		}
	}()
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			other.Lock()
			v++
			other.Unlock()
		}()
	}
	wg.Wait()
}

func TestWronglock(t *testing.T)       { wronglock(t, 7, false) }
func TestWronglockFixed(t *testing.T)  { wronglock(t, 7, true) }
func TestWronglock3(t *testing.T)      { wronglock(t, 3, false) }
func TestWronglock3Fixed(t *testing.T) { wronglock(t, 3, true) }
