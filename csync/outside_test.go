package csync_test

import (
	"fmt"
	"testing"

	"github.com/morpheus-go/morpheus/csync"
)

// csync's own channels, goroutines and clock called outside a controlled
// task panic with a message that says what to do, instead of blocking for
// real.
func TestOutsideMorpheus(t *testing.T) {
	c := csync.Make[int](1) // making a channel is fine anywhere
	tests := map[string]func(){
		"Chan.Send": func() { c.Send(1) },
		"Go":        func() { csync.Go(func() {}) },
		"Now":       func() { csync.Now() },
	}
	for what, f := range tests {
		msg := func() (msg string) {
			defer func() { msg = fmt.Sprint(recover()) }()
			f()
			return ""
		}()
		want := "csync: " + what + " called outside a task morpheus controls; start goroutines with csync.Go"
		if msg != want {
			t.Errorf("%s: panic %q, want %q", what, msg, want)
		}
	}
}

// The locks (the types rewritten code uses for sync's) work outside
// control as sync's do, between plain goroutines: package initialization,
// TestMain and finalizers use them.
func TestOutsideLocks(t *testing.T) {
	var (
		mu   csync.Mutex
		rw   csync.RWMutex
		wg   csync.WaitGroup
		once csync.Once
		n    int // guarded by mu
		m    int // guarded by rw
	)
	cond := csync.NewCond(&mu)
	ready := false
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			once.Do(func() { n += 100 })
			mu.Lock()
			for !ready {
				cond.Wait()
			}
			n++
			mu.Unlock()
			rw.Lock()
			m++
			rw.Unlock()
			rw.RLock()
			_ = m
			rw.RUnlock()
		}()
	}
	mu.Lock()
	ready = true
	cond.Broadcast()
	mu.Unlock()
	wg.Wait()
	if n != 104 || m != 4 {
		t.Errorf("n, m = %d, %d, want 104, 4", n, m)
	}
	rw.Lock()
	if rw.TryRLock() {
		t.Error("a read lock taken under the write lock")
	}
	rw.Unlock()
	if !mu.TryLock() {
		t.Error("TryLock of a free mutex failed")
	}
	mu.Unlock()
	wg.Go(func() { n++ })
	wg.Wait()
	if n != 105 {
		t.Errorf("n = %d after WaitGroup.Go, want 105", n)
	}
}
