package core

import (
	"runtime"
	"testing"
)

//go:noinline
func primitive() (fast, slow uintptr) {
	var pcs [1]uintptr
	runtime.Callers(2, pcs[:])
	return CallerPC(), pcs[0]
}

// inlinedCaller is small enough to be inlined into its own caller: the
// primitive's call site must still be its line.
func inlinedCaller() (uintptr, uintptr) { return primitive() }

func TestCallerPC(t *testing.T) {
	fast, slow := primitive()
	if fast != slow || Where(fast) != Where(slow) {
		t.Fatalf("CallerPC %#x (%s), runtime.Callers %#x (%s)", fast, Where(fast), slow, Where(slow))
	}
	fast, slow = inlinedCaller()
	if Where(fast) != Where(slow) {
		t.Fatalf("through an inlined caller: CallerPC %s, runtime.Callers %s", Where(fast), Where(slow))
	}
	t.Logf("%s %s", Where(fast), Where(slow))
}

func BenchmarkCallerPC(b *testing.B) {
	for b.Loop() {
		primitive()
	}
}
