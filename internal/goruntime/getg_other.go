//go:build !amd64 && !arm64

package goruntime

// readsG reports whether GoroutineKey and gWord read the g pointer; not on
// this architecture.
const readsG = false

// GoroutineKey identifies the calling goroutine by its id, parsed from its
// stack header: portable, but a microsecond or two per call.
func GoroutineKey() uint64 { return uint64(GoidFromStack()) }

// gWord is never called where readsG is false.
func gWord(off uintptr) uint64 { panic("goruntime: gWord without a g pointer") }
