//go:build !amd64 && !arm64

package goruntime

import "runtime"

// CallerPC returns the return address into the code that called the function
// calling CallerPC: for a morpheus primitive, the user's call site.
//
//go:noinline
func CallerPC() uintptr {
	var pcs [1]uintptr
	if runtime.Callers(3, pcs[:]) == 0 {
		return 0
	}
	return pcs[0]
}
