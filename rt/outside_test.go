package rt_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/rt"
)

// Outside control (package initialization, TestMain, a finalizer, a
// goroutine the standard library started), rewritten channel ops and locks
// work as Go's, between plain goroutines, also on objects a schedule used
// before: each world keeps its own state.
func TestOutsideNative(t *testing.T) {
	ch := rt.Make[chan int](0)
	var mu csync.Mutex
	var tm *rt.Timer
	var tk *rt.Ticker
	if f := explore(t, 3, func() {
		tm, tk = rt.NewTimer(time.Hour), rt.NewTicker(time.Hour)
		mu.Lock()
		rt.Go(func() { rt.Send(ch, 1) })
		if rt.Recv(ch) != 1 {
			panic("lost")
		}
		mu.Unlock()
	}); f != nil {
		t.Fatal(f.Report())
	}
	done := make(chan bool)
	go func() {
		mu.Lock()
		rt.Send(ch, 2)
		mu.Unlock()
		rt.Close(ch)
		done <- true
	}()
	c := rt.OnRecv(ch)
	if rt.Select(false, c) != 0 || c.V != 2 {
		t.Fatalf("select outside control received %d", c.V)
	}
	if v, ok := rt.RecvOK(ch); ok || v != 0 {
		t.Fatalf("receive on the closed channel: %d, %v", v, ok)
	}
	<-done
	if rt.Len(ch) != 0 {
		t.Fatal("len of an empty channel")
	}
	// A schedule's timer and ticker are spent once it is over.
	if tm.Stop() || tm.Reset(time.Second) {
		t.Fatal("a timer of a schedule that ended was active")
	}
	tk.Reset(time.Second)
	tk.Stop()
}

// A goroutine outside control that operates on a channel the running
// schedule uses fails that schedule, naming the line and "outside
// control"; the process goes on.
func TestOutsideBound(t *testing.T) {
	ready, done := make(chan chan int, 1), make(chan bool)
	go func() {
		ch := <-ready
		rt.Send(ch, 2) // the native channel's buffer: does not block
		done <- true
	}()
	f := explore(t, 1, func() {
		ch := rt.Make[chan int](1)
		rt.Send(ch, 1)
		ready <- ch
		<-done // real blocking, for the test only: the schedule waits
		rt.Recv(ch)
	})
	if f == nil {
		t.Fatal("no failure")
	}
	if f.Kind != "uncontrolled-blocking" || !strings.Contains(f.Message, "send at outside_test.go:") ||
		!strings.Contains(f.Message, "called outside control") {
		t.Fatalf("failure %s: %s", f.Kind, f.Message)
	}
	t.Log(f.Report())
	// The next exploration is not disturbed.
	if f := explore(t, 2, func() { rt.Send(rt.Make[chan int](1), 1) }); f != nil {
		t.Fatal(f.Report())
	}
}

// context.AfterFunc's callback runs in a goroutine of the schedule once the
// context is cancelled; stop before the cancel prevents it; a callback
// waiting on a context nobody cancels is no leak.
func TestContextAfterFunc(t *testing.T) {
	if f := explore(t, 30, func() {
		ctx, cancel := rt.WithCancel(context.Background())
		ran := rt.Make[chan int](1)
		rt.ContextAfterFunc(ctx, func() { rt.Send(ran, 1) })
		stopped, cancel2 := rt.WithCancel(context.Background())
		stop := rt.ContextAfterFunc(stopped, func() { panic("a stopped callback ran") })
		rt.ContextAfterFunc(context.Background(), func() { panic("Background is never done") })
		never, _ := rt.WithCancel(context.Background())
		rt.ContextAfterFunc(never, func() {})
		rt.Go(cancel)
		if rt.Recv(ran) != 1 {
			panic("lost")
		}
		if !stop() || stop() {
			panic("stop: want true, then false")
		}
		cancel2()
	}); f != nil {
		t.Fatal(f.Report())
	}
}
