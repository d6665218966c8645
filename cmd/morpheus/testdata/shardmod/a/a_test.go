package a

import (
	"sync"
	"testing"
)

func TestFast(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() { defer wg.Done(); c.Add() }()
	}
	c.Add()
	wg.Wait()
	if c.n != 4 {
		t.Fatalf("n = %d", c.n)
	}
}

// TestLost loses an update in a few schedules only.
func TestLost(t *testing.T) {
	var n int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				mu.Lock()
				mu.Unlock()
			}
			mu.Lock()
			v := n
			mu.Unlock()
			mu.Lock()
			n = v + 1
			mu.Unlock()
		}()
	}
	wg.Wait()
	if n != 2 {
		t.Fatalf("n = %d", n)
	}
}
