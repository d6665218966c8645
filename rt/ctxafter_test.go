package rt_test

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/rt"
)

// propagateGoroutines counts the goroutines Go's context package started to
// wait for a parent of a type it does not know.
func propagateGoroutines() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	return strings.Count(string(buf), "created by context.(*cancelCtx).propagateCancel")
}

// Code that is not rewritten (net/http, a vendored x/net) derives contexts
// from a stand-in with Go's own context package. Outside control (a test
// run as go test runs it, TestMain) that starts no goroutine of the
// standard library while both contexts live (an application's leak check
// would count them), and the children are cancelled with the stand-in.
func TestContextStandInRealChildren(t *testing.T) {
	before := propagateGoroutines()
	parent, cancel := rt.WithCancel(context.Background())
	child, stopChild := context.WithCancel(parent)
	timed, stopTimed := context.WithTimeout(parent, time.Hour)
	defer stopTimed()
	ran := make(chan struct{})
	context.AfterFunc(parent, func() { close(ran) })
	stopped := context.AfterFunc(parent, func() { t.Error("a stopped AfterFunc ran") })
	gone, stopGone := context.WithCancel(parent)
	stopGone() // the child leaves its parent's callbacks
	if n := propagateGoroutines() - before; n != 0 {
		t.Fatalf("%d goroutines of context.propagateCancel wait for the stand-in", n)
	}
	if !stopped() || stopped() {
		t.Error("stop: want true, then false")
	}
	cancel()
	for _, c := range []context.Context{child, timed, gone} {
		select {
		case <-c.Done():
		case <-time.After(time.Minute):
			t.Fatal("a child of the stand-in was not cancelled with it")
		}
	}
	if child.Err() != context.Canceled || timed.Err() != context.Canceled {
		t.Errorf("errors: %v, %v", child.Err(), timed.Err())
	}
	<-ran
	stopChild()
	late, stopLate := context.WithCancel(parent)
	defer stopLate()
	if late.Err() != context.Canceled {
		t.Error("a child of a cancelled stand-in is not done at once")
	}
}

// Under control, cancelling a stand-in closes its controlled channel, not
// the native one a goroutine of Go's context package would wait on: a
// context that code which is not rewritten derived from it is cancelled
// with it all the same.
func TestContextStandInRealChildUnderControl(t *testing.T) {
	if f := explore(t, 10, func() {
		parent, cancel := rt.WithCancel(context.Background())
		child, stop := context.WithCancel(parent)
		defer stop()
		rt.Go(cancel)
		rt.Recv(parent.Done())
		if child.Err() != context.Canceled {
			panic("the real child was not cancelled with the stand-in")
		}
	}); f != nil {
		t.Fatal(f.Report())
	}
}
