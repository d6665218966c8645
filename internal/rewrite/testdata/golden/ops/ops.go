// Package ops holds every construct the rewriter changes.
package ops

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

type Server struct {
	sync.Mutex
	mu    sync.RWMutex
	wg    sync.WaitGroup
	once  sync.Once
	n     atomic.Int64
	count int64
	timer *time.Timer
}

type Events chan int

func (s *Server) Run(ctx context.Context, in <-chan int, out chan<- int, ev Events) {
	s.Lock()
	defer s.Unlock()
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for v := range in {
			out <- v * 2
		}
	}()
	s.wg.Add(1)
	go s.work(1, "x", ev)
	go func(k int) { ev <- k }(len(in))
L:
	for {
		select {
		case v, ok := <-in:
			if !ok {
				break L
			}
			out <- v
		case ev <- 1:
		case <-ctx.Done():
			return
		case <-time.After(time.Millisecond):
			runtime.Gosched()
		default:
			time.Sleep(time.Microsecond)
		}
	}
	<-done
	x, ok := <-ev
	_, _ = x, ok
	s.n.Add(1)
	atomic.AddInt64(&s.count, 1)
	atomic.StoreInt64(&s.count, 0)
	if s.n.Load() > 0 && cap(out) == 0 {
		s.once.Do(func() {})
	}
	s.wg.Wait()
}

func (s *Server) work(id int, name string, ev Events) {
	defer s.wg.Done()
	var v int
	for v = range ev {
		_ = v
	}
	s.timer = time.NewTimer(time.Duration(id))
	<-s.timer.C
	_ = name
}
