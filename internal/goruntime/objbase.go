package goruntime

import (
	"unsafe"
	_ "unsafe" // go:linkname
)

// ObjectBase returns the start of the heap object that holds p (p itself
// for its first byte), or nil if p is not in Go's heap (a package variable,
// a goroutine's stack, memory from mmap). It reads the runtime's findObject,
// which the runtime keeps reachable by //go:linkname for the packages that
// use it.
//
// A weak pointer (weak.Make) to an address inside an object gets a record
// of its own in the object's span, and the runtime finds one by walking the
// span's list of records: one weak pointer per field or element accessed
// made that walk, and so each access's first look-up in a schedule, grow
// with the object (a slice of n elements cost O(n) per element). A weak
// pointer to the object's start is one record for all of them, and says the
// same: whether the object is still alive.
func ObjectBase(p unsafe.Pointer) unsafe.Pointer {
	base, _, _ := findObject(uintptr(p), 0, 0)
	if base == 0 {
		return nil
	}
	return unsafe.Add(p, -int(uintptr(p)-base)) // derived from p: p keeps the object alive
}

//go:linkname findObject runtime.findObject
func findObject(p, refBase, refOff uintptr) (base uintptr, s unsafe.Pointer, objIndex uintptr)
