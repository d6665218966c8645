package rt_test

import (
	"testing"
	"unsafe"

	"github.com/morpheus-go/morpheus/rt"
)

// Memhash, the stand-in of a linked runtime.memhash, is a function of the
// bytes and the seed alone (the same in every process: a fixed value), and
// tells different bytes and seeds apart.
func TestMemhashHasNoProcessSeed(t *testing.T) {
	hash := func(s string, h uintptr) uintptr {
		b := []byte(s)
		return rt.Memhash(unsafe.Pointer(unsafe.SliceData(b)), h, uintptr(len(b)))
	}
	if got, want := uint64(hash("key", 0)), uint64(0x65fffa960ea4d92b); got != want {
		t.Errorf("Memhash(key, 0) = %#x, want %#x in every process", got, want)
	}
	if hash("key", 0) == hash("kez", 0) || hash("key", 0) == hash("key", 1) || hash("", 0) == hash("", 1) {
		t.Error("different bytes or seeds hash alike")
	}
}
