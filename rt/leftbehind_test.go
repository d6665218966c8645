package rt_test

import (
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/rt"
)

// A goroutine that a test on the real network started and left behind (a
// loop on a node the test never shut down, as hashicorp/raft's
// TestRaft_runFollower_State_Transition leaves) is that test's: when it
// reaches an object a later test's schedule uses (a channel the schedule
// made and kept in package-level memory, as raft's global metrics sink
// keeps one), it ends there, its deferred calls run, and the schedule is
// not failed; nor is one that it started in turn. Before, the schedule
// failed with "close … called outside control".
func TestRealTestLeftBehind(t *testing.T) {
	ready := make(chan chan int, 2)
	ended := make(chan string, 2)
	t.Run("real", func(t *testing.T) {
		rt.RealTest(t, "a test that leaves goroutines behind", func(t *testing.T) {
			leave := func(name string) {
				defer func() { ended <- name }()
				ch := <-ready // waits past the test's end, for real
				rt.Close(ch)
				ended <- name + " went on"
			}
			rt.Go(func() { leave("left") })
			rt.Go(func() {
				rt.Go(func() { leave("started by one left") })
			})
		})
	})
	if f := explore(t, 1, func() {
		a, b := rt.Make[chan int](0), rt.Make[chan int](1)
		ready <- a
		ready <- b
		got := []string{<-ended, <-ended} // real blocking, for the test only
		if strings.Contains(got[0]+got[1], "went on") {
			panic("a goroutine left behind went on: " + got[0] + ", " + got[1])
		}
		rt.Send(b, 1) // neither is closed in the schedule
		rt.Go(func() { rt.Recv(a) })
		rt.Send(a, 2)
	}); f != nil {
		t.Fatal(f.Report())
	}
}

// A goroutine that rewritten code started outside control and outside any
// real test (in a package's init or TestMain) runs beside every test: it is
// no test's, and its call on a schedule's object still fails that schedule.
func TestOutsideDaemonBound(t *testing.T) {
	ready, done := make(chan chan int, 1), make(chan bool)
	rt.Go(func() {
		rt.Close(<-ready)
		done <- true
	})
	f := explore(t, 1, func() {
		ch := rt.Make[chan int](0)
		ready <- ch
		<-done
		rt.Len(ch)
	})
	if f == nil || f.Kind != "uncontrolled-blocking" || !strings.Contains(f.Message, "close at leftbehind_test.go:") {
		t.Fatalf("want the alarm of a daemon's close, got %v", f)
	}
}
