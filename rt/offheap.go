package rt

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// Memory outside Go's heap. A location of plain memory is held weakly
// (mem.go), so that an address the garbage collector freed and gave to
// another object is a new location; but Go's runtime cannot make a weak
// pointer to memory it did not allocate, and stops the process if asked
// ("getWeakHandle on invalid pointer"). Caches that keep their data off the
// heap (VictoriaMetrics/fastcache's chunks) take it from mmap; the rewriter
// turns syscall.Mmap(…) and golang.org/x/sys/unix.Mmap(…) into
// Mapped(….Mmap(…)), and Munmap(b) into Munmap(Unmapped(b)), so that a
// location in such a region is held by its address: the collector never
// frees it.

// region is a range [start, end) of addresses mmap gave the program.
type region struct{ start, end uintptr }

var offHeap struct {
	mu      sync.Mutex
	regions []region
	n       atomic.Int32 // len(regions), read without mu
}

// Mapped stands around a call of Mmap: it records the region b, which Go's
// heap does not hold, and returns its arguments.
func Mapped(b []byte, err error) ([]byte, error) {
	if err == nil && cap(b) > 0 {
		start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		offHeap.mu.Lock()
		offHeap.regions = append(offHeap.regions, region{start, start + uintptr(cap(b))})
		offHeap.n.Store(int32(len(offHeap.regions)))
		offHeap.mu.Unlock()
	}
	return b, err
}

// Unmapped stands for the argument of a call of Munmap: it forgets the
// region b starts, and returns b.
func Unmapped(b []byte) []byte {
	if cap(b) == 0 {
		return b
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	offHeap.mu.Lock()
	defer offHeap.mu.Unlock()
	for i, r := range offHeap.regions {
		if r.start == start {
			offHeap.regions = append(offHeap.regions[:i], offHeap.regions[i+1:]...)
			offHeap.n.Store(int32(len(offHeap.regions)))
			break
		}
	}
	return b
}

// isOffHeap reports whether p lies outside Go's heap: in no heap object (a
// package variable, which is never freed either; memory that mmap, mremap
// or a raw system call gave the program, as ristretto's z grows its
// mappings with SYS_MREMAP) or in a region Mapped recorded.
func isOffHeap(p unsafe.Pointer) bool {
	if goruntime.ObjectBase(p) == nil {
		return true
	}
	if offHeap.n.Load() == 0 {
		return false
	}
	offHeap.mu.Lock()
	defer offHeap.mu.Unlock()
	for _, r := range offHeap.regions {
		if r.start <= uintptr(p) && uintptr(p) < r.end {
			return true
		}
	}
	return false
}
