package goruntime

import (
	"fmt"
	"runtime"
	"testing"
)

// where returns the file:line of the call a return address pc returns
// from.
func where(pc uintptr) string {
	f, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	return fmt.Sprintf("%s:%d", f.File, f.Line)
}

//go:noinline
func primitive() (fast, slow uintptr) {
	var pcs [1]uintptr
	runtime.Callers(2, pcs[:])
	return CallerPC(), pcs[0]
}

// inlinedCaller is small enough to be inlined into its own caller: the
// primitive's call site must still be its line.
func inlinedCaller() (uintptr, uintptr) { return primitive() }

// deepCaller calls primitive from a frame of its own, which has locals on
// its stack.
//
//go:noinline
func deepCaller(n int) (uintptr, uintptr) {
	var pad [16]int
	pad[n%16] = n
	if n > 0 {
		return deepCaller(n - 1 + pad[0]*0)
	}
	return primitive()
}

// TestCallerPC is the canary of the frame pointer read: CallerPC must be
// the return address runtime.Callers gives.
func TestCallerPC(t *testing.T) {
	fast, slow := primitive()
	if fast != slow {
		t.Fatalf("CallerPC %#x (%s), runtime.Callers %#x (%s): the frame layout (return address one word above the frame pointer) has changed in this Go release; every op would name a wrong line",
			fast, where(fast), slow, where(slow))
	}
	fast, slow = inlinedCaller()
	if where(fast) != where(slow) {
		t.Fatalf("through an inlined caller: CallerPC %s, runtime.Callers %s", where(fast), where(slow))
	}
	fast, slow = deepCaller(5)
	if fast != slow {
		t.Fatalf("from a deep stack: CallerPC %#x (%s), runtime.Callers %#x (%s)", fast, where(fast), slow, where(slow))
	}
	done := make(chan [2]uintptr)
	go func() {
		f, s := deepCaller(3)
		done <- [2]uintptr{f, s}
	}()
	if got := <-done; got[0] != got[1] {
		t.Fatalf("on another goroutine: CallerPC %s, runtime.Callers %s", where(got[0]), where(got[1]))
	}
}

//go:noinline
func fastPC() uintptr { return CallerPC() }

//go:noinline
func slowPC() uintptr {
	var pcs [1]uintptr
	runtime.Callers(2, pcs[:])
	return pcs[0]
}

// BenchmarkCallerPC and BenchmarkCallers compare CallerPC with the
// runtime.Callers it replaces (and falls back to elsewhere).
func BenchmarkCallerPC(b *testing.B) {
	for b.Loop() {
		fastPC()
	}
}

func BenchmarkCallers(b *testing.B) {
	for b.Loop() {
		slowPC()
	}
}
