//go:build amd64 || arm64

package goruntime

// readsG reports whether GoroutineKey and gWord read the g pointer (in
// assembly) on this architecture.
const readsG = true

// GoroutineKey identifies the calling goroutine (its g pointer) in about two
// nanoseconds: a key that identifies the goroutine while it lives.
func GoroutineKey() uint64

// gWord returns the 8-byte word at offset off of the calling goroutine's g.
func gWord(off uintptr) uint64
