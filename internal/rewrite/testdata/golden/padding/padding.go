// Package padding pads structs that hold locks to a cache line, as
// lock-striped maps and queues do: unsafe.Sizeof of a struct that holds a
// sync.Mutex, a WaitGroup or a time.Timer keeps Go's value under the
// rewriter (their replacements are larger: the padding would be negative).
package padding

import (
	"sync"
	"time"
	"unsafe"
)

const cacheLine = 64

type bucket struct {
	mu sync.Mutex
	n  int
}

type paddedBucket struct {
	pad [cacheLine - unsafe.Sizeof(bucket{})]byte
	bucket
}

type slot struct {
	wg sync.WaitGroup
	t  time.Timer
}

const slotPad = 2*cacheLine - unsafe.Sizeof(slot{})

type paddedSlots [4]struct {
	slot
	_ [slotPad % cacheLine]byte
}

// Padded is the size of a padded bucket as Go gives it: one cache line.
func Padded() uintptr {
	var b paddedBucket // used by Sizeof only
	return unsafe.Sizeof(b)
}

// Slots is the size of the padded slots as Go gives it.
func Slots() uintptr { return unsafe.Sizeof(paddedSlots{}) }

// Plain sizes stay as they are: a pointer to a lock, a lock's own fields.
func Plain() uintptr {
	return unsafe.Sizeof(struct{ p *sync.Mutex }{}) + unsafe.Sizeof(bucket{}.n)
}
