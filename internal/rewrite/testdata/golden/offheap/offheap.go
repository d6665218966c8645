//go:build unix

// Package offheap keeps its data in memory it maps itself, off Go's heap,
// as fastcache keeps its chunks: rt must know the region (its locations
// cannot be held weakly).
package offheap

import (
	"sync"
	"syscall"
	"unsafe"
)

const chunkSize = 4096

type store struct {
	mu     sync.Mutex
	chunks []*[chunkSize]byte
}

func (s *store) grow() error {
	data, err := syscall.Mmap(-1, 0, 4*chunkSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(data) > 0 {
		s.chunks = append(s.chunks, (*[chunkSize]byte)(unsafe.Pointer(&data[0])))
		data = data[chunkSize:]
	}
	return nil
}

func (s *store) put(i int, b byte) {
	s.mu.Lock()
	s.chunks[i][0] = b
	s.mu.Unlock()
}

func release(data []byte) error { return syscall.Munmap(data) }
