package sctplain

import (
	"sync"
	"testing"
)

// deadlock01: two goroutines take locks a and b in opposite orders; if each
// takes its first lock before the other takes its second, both wait forever,
// and so does the test, waiting for them. Fixed: both take a first.
func deadlock01(t *testing.T, fixed bool) {
	var a, b sync.Mutex
	counter := 1 // guarded by a and b
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		a.Lock()
		b.Lock()
		counter++
		b.Unlock()
		a.Unlock()
	}()
	go func() {
		defer wg.Done()
		first, second := &b, &a
		if fixed {
			first, second = &a, &b
		}
		first.Lock()
		second.Lock()
		counter--
		second.Unlock()
		first.Unlock()
	}()
	wg.Wait()
	if counter != 1 {
		t.Errorf("deadlock01: counter %d", counter)
	}
}

func TestDeadlock01(t *testing.T)      { deadlock01(t, false) }
func TestDeadlock01Fixed(t *testing.T) { deadlock01(t, true) }
