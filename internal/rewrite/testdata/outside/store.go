// Package outside has code that runs outside the goroutines a test starts:
// a store whose sweeper goroutine a finalizer stops, and a channel that
// package initialization uses.
package outside

import (
	"runtime"
	"sync"
	"time"
)

// Store is a map with a sweeper goroutine. Users hold a *Store; the sweeper
// holds only the inner store, so a Store nobody holds is garbage, and its
// finalizer stops the sweeper.
type Store struct{ *store }

type store struct {
	mu    sync.Mutex
	items map[string]int
	stop  chan bool
}

// NewStore returns a store whose sweeper empties it every interval.
func NewStore(interval time.Duration) *Store {
	s := &store{items: map[string]int{}, stop: make(chan bool)}
	go s.sweep(interval)
	S := &Store{s}
	runtime.SetFinalizer(S, func(S *Store) { S.stop <- true })
	return S
}

func (s *store) sweep(interval time.Duration) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			s.mu.Lock()
			clear(s.items)
			s.mu.Unlock()
		case <-s.stop:
			return
		}
	}
}

// Set stores v under k.
func (s *Store) Set(k string, v int) {
	s.mu.Lock()
	s.items[k] = v
	s.mu.Unlock()
}

// Get returns the value under k.
func (s *Store) Get(k string) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.items[k]
	return v, ok
}

// Handle is a resource whose cleanup, unless stopped, reports on a channel.
type Handle struct{ id int }

// Open returns a handle whose cleanup sends its id on closed when it is
// garbage, and the cleanup's handle.
func Open(id int, closed chan int) (*Handle, runtime.Cleanup) {
	h := &Handle{id: id}
	return h, runtime.AddCleanup(h, func(id int) { closed <- id }, id)
}

// Ready is made and used by package initialization, outside any test.
var Ready = make(chan int, 1)

func init() {
	done := make(chan bool)
	go func() {
		Ready <- 1
		done <- true
	}()
	<-done
}
