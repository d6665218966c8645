package goruntime

import (
	"sync/atomic"
	"unsafe"
	"weak"
)

// WeakGone reports whether w's object was collected, as w.Value() == nil
// does, without making a strong pointer of it. A weak pointer is a pointer
// to the runtime's handle for its object, a word that holds the object's
// address until the garbage collector frees the object and clears it
// (before the memory can hold another object). Value also marks the object
// for a collection under way, so that the pointer it returns stays valid:
// that costs a span look-up, about as much as rt's whole check of an
// access that a cache of locations answers (rt's memLoc). Reading the
// handle's word says only whether the object is gone, which is all such a
// check asks.
func WeakGone[T any](w weak.Pointer[T]) bool {
	h := *(*unsafe.Pointer)(unsafe.Pointer(&w))
	return h == nil || atomic.LoadUintptr((*uintptr)(h)) == 0
}
