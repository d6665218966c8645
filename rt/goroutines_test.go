package rt_test

import (
	"os"
	"os/signal"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/rt"
)

// Inside a schedule, Stack(all) and NumGoroutine list the schedule's live
// goroutines as Go would show them (their own frames, the state of the op
// they wait in, their go statement) beside the goroutines that run no code
// of morpheus's, and none of morpheus's own: the exploration's worker, its
// watchdog, the carriers, this test's goroutine waiting in Explore.
func TestGoroutineListing(t *testing.T) {
	var base, during, after int
	var listing, self string
	// The counts include the process's goroutines that run no code of
	// morpheus's, which an earlier test may leave ending while this one
	// runs: the counts are read again (a new schedule) until no such
	// goroutine came or went during one, a few times at most.
	for try := 0; try < 5 && (try == 0 || during != base+1 || after != base); try++ {
		listing, self = goroutineListing(t, &base, &during, &after)
	}
	if during != base+1 || after != base {
		t.Errorf("goroutines: %d at the start, %d with one blocked, %d after; want n, n+1, n", base, during, after)
	}
	for _, want := range []string{"[chan receive]:\ngithub.com/morpheus-go/morpheus/rt_test.goroutineListing.func1.1()\n",
		"created by github.com/morpheus-go/morpheus/rt_test.goroutineListing.func1 in goroutine ", "goroutines_test.go:"} {
		if !strings.Contains(listing, want) {
			t.Errorf("listing lacks %q:\n%s", want, listing)
		}
	}
	// The caller's own stack has the id the listing gives it, one of its
	// own (not its carrier's, which other goroutines had and will have).
	head, _, _ := strings.Cut(self, "\n")
	if !strings.HasPrefix(listing, head+"\n") || len(head) < len("goroutine 1125899906842624 [running]:") {
		t.Errorf("the caller's stack begins %q; the listing:\n%s", head, listing)
	}
	for _, g := range strings.Split(listing, "\n\n") {
		if strings.Contains(g, "github.com/morpheus-go/morpheus/internal/") || strings.Contains(g, "github.com/morpheus-go/morpheus.") ||
			strings.Contains(g, "github.com/morpheus-go/morpheus/rt.") {
			t.Errorf("a goroutine of morpheus's is listed:\n%s", g)
		}
	}
	// Outside a schedule, only the goroutines that run no code of morpheus's.
	buf := make([]byte, 1<<20)
	if n := rt.Stack(buf, true); strings.Contains(string(buf[:n]), "morpheus/internal/core") {
		t.Errorf("outside a schedule, morpheus's goroutines are listed:\n%s", buf[:n])
	}
	if n := rt.NumGoroutine(); n > runtime.NumGoroutine() {
		t.Errorf("NumGoroutine %d > runtime's %d", n, runtime.NumGoroutine())
	}
}

// goroutineListing runs one schedule that reads the goroutine count at its
// start, with one more goroutine blocked, and after it ended, and returns
// Stack's listing of all goroutines and of the caller.
func goroutineListing(t *testing.T, base, during, after *int) (listing, self string) {
	t.Helper()
	f := explore(t, 1, func() {
		*base = rt.NumGoroutine()
		ch := rt.Make[chan int](0)
		rt.Go(func() { rt.Recv(ch) })
		rt.Sleep(time.Millisecond)
		*during = rt.NumGoroutine()
		buf := make([]byte, 1<<20)
		listing = string(buf[:rt.Stack(buf, true)])
		self = string(buf[:rt.Stack(buf, false)])
		rt.Send(ch, 1)
		rt.Sleep(time.Millisecond)
		*after = rt.NumGoroutine()
	})
	if f != nil {
		t.Fatal(f.Report())
	}
	return listing, self
}

// os/signal's goroutine, which morpheus's test binaries start at their
// initialization, is not in the listing until the program asks for signals
// itself (signal.Notify, rewritten to SignalNotify): go test would not
// have started it.
func TestSignalGoroutineHidden(t *testing.T) {
	listing := func(all func([]byte, bool) int) string {
		buf := make([]byte, 1<<20)
		return string(buf[:all(buf, true)])
	}
	if !strings.Contains(listing(runtime.Stack), "os/signal.loop(") {
		t.Skip("os/signal's goroutine did not start (both signals ignored)")
	}
	if l := listing(rt.Stack); strings.Contains(l, "os/signal.loop(") {
		t.Errorf("the listing shows os/signal's goroutine before the program asked for signals:\n%s", l)
	}
	c := make(chan os.Signal, 1)
	rt.SignalNotify(c, os.Interrupt)
	defer signal.Stop(c)
	if l := listing(rt.Stack); !strings.Contains(l, "os/signal.loop(") {
		t.Errorf("the listing hides os/signal's goroutine once the program asked for signals:\n%s", l)
	}
}

// Outside a schedule (TestMain after m.Run, a test run outside control),
// the listing has the caller's own goroutine first, as Go's has, without
// morpheus's frames: a TestMain that counts goroutines after m.Run and
// leaves its own out by its function's name (etcd's
// CheckLeakedGoroutine) must not find an empty entry instead.
func TestCallerListedOutsideControl(t *testing.T) {
	buf := make([]byte, 1<<20)
	listing := string(buf[:rt.Stack(buf, true)])
	first, _, _ := strings.Cut(listing, "\n\n")
	if !strings.HasPrefix(first, "goroutine ") || !strings.Contains(first, "rt_test.TestCallerListedOutsideControl(") {
		t.Errorf("the listing does not begin with the caller's goroutine:\n%s", listing)
	}
	if strings.Contains(first, "github.com/morpheus-go/morpheus/rt.") {
		t.Errorf("the caller's stack shows morpheus's frames:\n%s", first)
	}
	if n := rt.NumGoroutine(); n < 1 {
		t.Errorf("NumGoroutine %d outside a schedule: the caller is not counted", n)
	}
}
