package rt_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/rt"
)

// explore runs test for n schedules and returns the first failure's report.
func explore(t *testing.T, n int, test func()) *morpheus.Failure {
	t.Helper()
	res, err := morpheus.Explore(func(*morpheus.Env) { test() }, morpheus.Iterations(n), morpheus.Workers(1), morpheus.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	return res.Failure
}

// Channels made by Make are controlled: values arrive in order, a select
// takes ready cases, and a receive nobody will satisfy is a deadlock
// located at the user's line, not at rt's.
func TestChannels(t *testing.T) {
	if f := explore(t, 50, func() {
		ch := rt.Make[chan int](1)
		done := rt.Make[chan struct{}](0)
		rt.Go(func() {
			for i := range 3 {
				rt.Send(ch, i)
			}
			rt.Close(ch)
		})
		rt.Go(func() {
			want := 0
			for {
				v, ok := rt.RecvOK(ch)
				if !ok {
					break
				}
				if v != want {
					panic("out of order")
				}
				want++
			}
			rt.Close(done)
		})
		c := rt.OnRecv(done)
		if rt.Select(false, c) != 0 || c.OK {
			panic("select on a closed channel")
		}
	}); f != nil {
		t.Fatal(f.Report())
	}
	f := explore(t, 1, func() {
		ch := rt.Make[chan int](0)
		rt.Recv(ch)
	})
	if f == nil || f.Kind != "deadlock" || !strings.Contains(f.Message, "rt_test.go:") {
		t.Fatalf("want a deadlock at rt_test.go, got %+v", f)
	}
}

// A foreign channel (not made by Make) is polled: a controlled goroutine
// that makes it ready lets the receiver go on.
func TestForeign(t *testing.T) {
	if f := explore(t, 20, func() {
		ch := make(chan int, 1)
		rt.Go(func() { ch <- 7 })
		if v := rt.Recv(ch); v != 7 {
			panic("wrong value")
		}
	}); f != nil {
		t.Fatal(f.Report())
	}
	if !slices.ContainsFunc(rt.Foreign(), func(at string) bool { return strings.HasPrefix(at, "rt_test.go:") }) {
		t.Errorf("foreign uses: %v", rt.Foreign()) // (other tests of the package add theirs)
	}
}

// Contexts are cancelled on the virtual clock and through their parents,
// and their Done channels are controlled.
func TestContext(t *testing.T) {
	if f := explore(t, 20, func() {
		parent, cancel := rt.WithCancel(context.Background())
		ctx, stop := rt.WithTimeout(parent, time.Second)
		defer stop()
		start := rt.Now()
		rt.Recv(ctx.Done())
		if ctx.Err() != context.DeadlineExceeded || rt.Since(start) <= time.Second {
			panic("deadline")
		}
		child, _ := rt.WithCancelCause(parent)
		cancel()
		rt.Recv(child.Done())
		if rt.Cause(child) != context.Canceled {
			panic("cause")
		}
	}); f != nil {
		t.Fatal(f.Report())
	}
}

// doneCtx is a context of a program's own type (a mock clock's deadline
// context) whose Done channel rewritten code made.
type doneCtx struct {
	context.Context
	done chan struct{}
	err  error
}

func (c *doneCtx) Done() <-chan struct{} { return c.done }
func (c *doneCtx) Err() error {
	if rt.Select(true, rt.OnRecv(c.done)) == 0 {
		return c.err
	}
	return nil
}

// A context made under such a parent is cancelled with it, as Go's
// context package watches such a parent with a goroutine: at once if the
// parent is done already, else when it is; the watcher of a parent nobody
// cancels is no leak.
func TestContextCustomParent(t *testing.T) {
	if f := explore(t, 30, func() {
		parent := &doneCtx{Context: context.Background(), done: rt.Make[chan struct{}](0), err: context.DeadlineExceeded}
		child, cancel := rt.WithCancel(parent)
		defer cancel()
		rt.Go(func() { rt.Close(parent.done) })
		rt.Recv(child.Done())
		if child.Err() != context.DeadlineExceeded {
			panic("child's error is not its parent's")
		}
		late, stop := rt.WithCancel(parent)
		defer stop()
		if late.Err() != context.DeadlineExceeded {
			panic("a child of a done parent is not done at once")
		}
		never := &doneCtx{Context: context.Background(), done: rt.Make[chan struct{}](0)}
		rt.WithCancel(never) // its watcher waits past the test: no leak
		c2, cancel2 := rt.WithCancel(never)
		cancel2()
		rt.Recv(c2.Done())
	}); f != nil {
		t.Fatal(f.Report())
	}
}

// A channel made in one schedule and kept for the next (a sync.Pool, a
// global) stays controlled.
func TestChannelOutlivesSchedule(t *testing.T) {
	var kept chan int
	before := len(rt.Foreign())
	if f := explore(t, 5, func() {
		if kept == nil {
			kept = rt.Make[chan int](1)
		}
		rt.Send(kept, 1)
		if rt.Recv(kept) != 1 {
			panic("lost value")
		}
	}); f != nil {
		t.Fatal(f.Report())
	}
	if after := len(rt.Foreign()); after != before {
		t.Errorf("the kept channel became foreign: %v", rt.Foreign())
	}
}
