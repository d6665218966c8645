package outside

import (
	"sync/atomic"
	"testing"
)

// A pool made at package initialization, outside control: its state is
// plain memory (an atomic flag), its done channel a channel made there.
// Release closes the channel and sets the flag; Reboot waits for the
// channel when the flag says closed, then opens a new one. Every schedule
// but the first finds the flag set by the one before: the channel must be
// closed too, as it stays across go test -count runs.
type rebootPool struct {
	closed  atomic.Bool
	allDone chan struct{}
}

var defaultPool = &rebootPool{allDone: make(chan struct{})}

func (p *rebootPool) release() {
	if p.closed.CompareAndSwap(false, true) {
		close(p.allDone)
	}
}

func (p *rebootPool) reboot() {
	if p.closed.Load() {
		<-p.allDone
		p.allDone = make(chan struct{})
		p.closed.Store(false)
	}
}

func TestPackageChan(t *testing.T) {
	defer defaultPool.release()
	defaultPool.reboot()
	done := make(chan struct{})
	go func() { close(done) }()
	<-done
	defaultPool.release()
	defaultPool.reboot()
}

// A channel closed outside control (here in init; in the pool's case by
// its last worker, a real goroutine of a test that ran outside control) is
// closed for the schedules too.
var initDone = make(chan struct{})

func init() { close(initDone) }

func TestInitClosed(t *testing.T) {
	<-initDone
	if _, ok := <-initDone; ok {
		t.Fatal("a value from a closed channel")
	}
}
