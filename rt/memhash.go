package rt

import "unsafe"

// Memhash stands for runtime.memhash reached by //go:linkname (a cache's
// hash of its keys): the hash of the s bytes at p, from seed h. The
// runtime's is seeded at random per process, so what a program makes of
// it (which keys collide, which shard a key lands in) differs from one
// process to the next, and a trace recorded in one does not replay in
// another. This one has no per-process seed: FNV-1a over the bytes, from
// h, with a final mix; the same bytes and h hash alike in every process.
func Memhash(p unsafe.Pointer, h, s uintptr) uintptr {
	x := uint64(h) ^ 0xcbf29ce484222325
	for _, b := range unsafe.Slice((*byte)(p), s) {
		x ^= uint64(b)
		x *= 0x100000001b3
	}
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return uintptr(x)
}
