//go:build !amd64

package core

// goroutineKey identifies the calling goroutine by its id, parsed from its
// stack header: portable, but a microsecond or two per call.
func goroutineKey() uint64 { return uint64(curGoid()) }

// goid returns the calling goroutine's id, parsed from its stack header.
func goid() int64 { return curGoid() }
