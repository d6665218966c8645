package core

import (
	"runtime"
	"strconv"
	"testing"
)

// LocKey gives the key of "function:line" whether the cache has the program
// counter or not, also for two counters that share a slot of the cache.
func TestLocKeyCache(t *testing.T) {
	pcs := make([]uintptr, 8)
	pcs = pcs[:runtime.Callers(1, pcs)]
	if len(pcs) < 2 {
		t.Fatal("no program counters")
	}
	a := pcs[0]
	b := a + 1 // a second counter in a's slot
	for locSlot(b) != locSlot(a) {
		b++
	}
	for _, pc := range []uintptr{a, b, a, b, a} {
		f, _ := runtime.CallersFrames([]uintptr{pc}).Next()
		want := TextKey(f.Function + ":" + strconv.Itoa(f.Line))
		if got := LocKey(pc); got != want {
			t.Fatalf("LocKey(%#x) = %#x, want %#x (%s:%d)", pc, got, want, f.Function, f.Line)
		}
		if key, ok := cachedLocKey(pc); !ok || key != want {
			t.Fatalf("after LocKey(%#x), the cache has %#x %v", pc, key, ok)
		}
	}
	if LocKey(0) != 0 {
		t.Error("LocKey(0) is not 0")
	}
}
