//go:build unix

package rt_test

import (
	"syscall"
	"testing"
	"unsafe"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/rt"
)

// Plain memory outside Go's heap (mmap, as VictoriaMetrics/fastcache keeps
// its chunks) is accessed as any other: its locations are held by address,
// and races on it are found. Before, the access asked Go's runtime for a
// weak pointer to it, which stopped the process ("getWeakHandle on invalid
// pointer").
func TestOffHeapMemory(t *testing.T) {
	data, err := rt.Mapped(syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE))
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer func() { syscall.Munmap(rt.Unmapped(data)) }()
	chunk := (*[4096]byte)(unsafe.Pointer(&data[0]))
	locked := func() {
		var mu csync.Mutex
		rt.Go(func() { mu.Lock(); *rt.Write(&chunk[1], "chunk[1]")++; mu.Unlock() })
		mu.Lock()
		*rt.Write(&chunk[1], "chunk[1]")++
		mu.Unlock()
	}
	res, err := morpheus.Explore(func(*morpheus.Env) { locked() }, morpheus.Iterations(50), morpheus.Workers(1))
	if err != nil || res.Failure != nil {
		t.Fatalf("%v %v", err, res.Failure)
	}
	res, err = morpheus.Explore(func(*morpheus.Env) {
		rt.Go(func() { *rt.Write(&chunk[2], "chunk[2]") = 1 })
		*rt.Write(&chunk[2], "chunk[2]") = 2
	}, morpheus.Iterations(50), morpheus.Workers(1))
	if err != nil || res.Failure == nil || res.Failure.Kind != "race" {
		t.Fatalf("want a race on the mapped memory: %v %v", err, res.Failure)
	}
}

// Memory outside Go's heap that no Mapped call recorded (ristretto's z grows
// its mappings with a raw SYS_MREMAP; cgo's and a raw mmap's are alike) is
// held by address too: any location in no heap object is. Before, an access
// to it asked for a weak pointer and the runtime stopped the process.
func TestOffHeapMemoryUnrecorded(t *testing.T) {
	data, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer func() { syscall.Munmap(data) }()
	chunk := (*[4096]byte)(unsafe.Pointer(&data[0]))
	res, err := morpheus.Explore(func(*morpheus.Env) {
		rt.Go(func() { *rt.Write(&chunk[3], "chunk[3]") = 1 })
		*rt.Write(&chunk[3], "chunk[3]") = 2
	}, morpheus.Iterations(50), morpheus.Workers(1))
	if err != nil || res.Failure == nil || res.Failure.Kind != "race" {
		t.Fatalf("want a race on the unrecorded mapped memory: %v %v", err, res.Failure)
	}
}
