//go:build race

package core

import (
	"sync/atomic"
	"unsafe"
)

// Under the race detector a worker's progress is published with atomic
// stores, which the detector sees ordered with the watchdog's loads (see
// beat.go).

func beat(p *int64, step int64) { atomic.StoreInt64(p, step) }
func loadBeat(p *int64) int64   { return atomic.LoadInt64(p) }

func publishTask(p **Task, t *Task) {
	atomic.StorePointer((*unsafe.Pointer)(unsafe.Pointer(p)), unsafe.Pointer(t))
}

func loadTask(p **Task) *Task {
	return (*Task)(atomic.LoadPointer((*unsafe.Pointer)(unsafe.Pointer(p))))
}
