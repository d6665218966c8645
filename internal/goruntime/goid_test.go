package goruntime

import (
	"runtime"
	"sync"
	"testing"
)

// TestGoidFast is the canary of the goroutine id's offset in g: where g is
// read, calibration must find it, or every Goid silently parses a stack.
func TestGoidFast(t *testing.T) {
	if !readsG {
		t.Logf("on %s Goid parses a stack (no g pointer read)", runtime.GOARCH)
		return
	}
	if !GoidFast() {
		t.Fatal("calibration found no word of g holding the goroutine id: this Go release changed g's layout, and every Goid (every new carrier) now parses a stack")
	}
	t.Logf("goid at offset %d of g", goidOffset())
}

// TestGoid checks the fast goroutine id against the one the runtime prints,
// on this goroutine and on others.
func TestGoid(t *testing.T) {
	if g, want := Goid(), GoidFromStack(); g != want || want == 0 {
		t.Fatalf("Goid %d, the runtime says %d", g, want)
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if g, want := Goid(), GoidFromStack(); g != want || want == 0 {
				t.Errorf("Goid %d, the runtime says %d", g, want)
			}
		})
	}
	wg.Wait()
}

// TestGoroutineKey: a goroutine's key is the same on every call and
// differs from the keys of goroutines alive at the same time.
func TestGoroutineKey(t *testing.T) {
	const n = 20
	keys := make(chan uint64, n)
	var start, stop sync.WaitGroup
	start.Add(n)
	stop.Add(1)
	for range n {
		go func() {
			k := GoroutineKey()
			start.Done()
			stop.Wait() // all alive at once: no key reused
			if GoroutineKey() != k {
				t.Error("a goroutine's key changed between two calls")
			}
			keys <- k
		}()
	}
	start.Wait()
	stop.Done()
	seen := map[uint64]bool{GoroutineKey(): true}
	for range n {
		k := <-keys
		if k == 0 || seen[k] {
			t.Fatalf("key %#x is zero or another live goroutine's: the g pointer is no longer where GoroutineKey reads it", k)
		}
		seen[k] = true
	}
}

func BenchmarkGoroutineKey(b *testing.B) {
	for b.Loop() {
		GoroutineKey()
	}
}

func BenchmarkGoid(b *testing.B) {
	for b.Loop() {
		Goid()
	}
}

func BenchmarkGoidFromStack(b *testing.B) {
	for b.Loop() {
		GoidFromStack()
	}
}
