package goruntime

import (
	"runtime"
	"testing"
	"unsafe"
	"weak"
)

type weakProbe [8]int64

// TestWeakGone is the canary of a weak pointer's layout: a pointer to the
// runtime's handle word, which holds the object's address until it is
// collected. WeakGone must agree with Value before and after.
func TestWeakGone(t *testing.T) {
	if unsafe.Sizeof(weak.Pointer[weakProbe]{}) != unsafe.Sizeof(uintptr(0)) {
		t.Fatalf("weak.Pointer is %d bytes, not one word: its layout changed", unsafe.Sizeof(weak.Pointer[weakProbe]{}))
	}
	if !WeakGone(weak.Pointer[weakProbe]{}) {
		t.Errorf("WeakGone(the zero weak.Pointer) = false, want true")
	}
	o := &weakProbe{}
	w := weak.Make(o)
	if WeakGone(w) || w.Value() != o {
		t.Fatalf("WeakGone(a live object's weak pointer) = %v, Value() = %p (want false, %p): a weak pointer's layout changed", WeakGone(w), w.Value(), o)
	}
	runtime.KeepAlive(o)
	o = nil
	for i := 0; i < 20 && w.Value() != nil; i++ {
		runtime.GC()
	}
	if w.Value() != nil {
		t.Skip("the object was not collected after 20 collections")
	}
	if !WeakGone(w) {
		t.Errorf("WeakGone(a collected object's weak pointer) = false, want true: the runtime's handle no longer clears")
	}
}
