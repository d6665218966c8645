// Package linked reaches the runtime's clock, generator and hash by
// //go:linkname, as a cache's utility package does.
package linked

import "unsafe"

//go:linkname cputicks runtime.cputicks
func cputicks() int64

//go:linkname fastrand runtime.fastrand
func fastrand() uint32

//go:noescape
//go:linkname memhash runtime.memhash
func memhash(p unsafe.Pointer, h, s uintptr) uintptr

// Hash hashes a key as the runtime's maps do.
func Hash(key string) uint64 {
	return uint64(memhash(unsafe.Pointer(unsafe.StringData(key)), 0, uintptr(len(key))))
}

// Sample draws a shard and reads the cycle counter.
func Sample(shards uint32) (uint32, int64) { return fastrand() % shards, cputicks() }
