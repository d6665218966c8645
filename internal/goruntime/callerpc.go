//go:build amd64 || arm64

package goruntime

// CallerPC returns the return address into the code that called the function
// calling CallerPC: for a morpheus primitive, the user's call site. That
// function must not be inlined (mark it //go:noinline), or the address is one
// frame too high. It reads the frame pointer chain, a few nanoseconds
// instead of the ~100 ns of runtime.Callers on the hottest path of the
// scheduler.
func CallerPC() uintptr
