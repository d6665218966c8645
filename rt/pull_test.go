package rt_test

import (
	"bytes"
	"fmt"
	"iter"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/rt"
	"github.com/morpheus-go/morpheus/trace"
)

// count is a sequence of 0, 1, ..., n-1 that records, in *stopped, that
// it returned early (its yield said stop) and, in *ended, that it
// returned at all.
func count(n int, stopped, ended *bool) iter.Seq[int] {
	return func(yield func(int) bool) {
		defer func() { *ended = true }()
		for i := range n {
			if !yield(i) {
				*stopped = true
				return
			}
		}
	}
}

// A sequence's body runs on a goroutine of the schedule: its write, which
// nothing orders with another goroutine's read, is a race.
func TestPullSequenceRace(t *testing.T) {
	f := explore(t, 200, pullRace)
	if f == nil || f.Kind != "race" {
		t.Fatalf("want a race, got %v", f)
	}
	if !strings.Contains(f.Message, "pull_test.go:") {
		t.Errorf("the report does not name the accesses' lines: %s", f.Message)
	}
}

func pullRace() {
	x := new(int)
	next, stop := rt.Pull(func(yield func(int) bool) {
		*rt.Write(x, "x") = 1 // unordered with the reader's read
		yield(1)
	})
	defer stop()
	done := rt.Make[chan struct{}](0)
	rt.Go(func() {
		_ = *rt.Read(x, "x")
		rt.Close(done)
	})
	next()
	rt.Recv(done)
}

// The same seed gives the same trace, byte for byte.
func TestPullDeterministic(t *testing.T) {
	encode := func() []byte {
		res, err := morpheus.Explore(func(*morpheus.Env) { pullRace() }, morpheus.Iterations(200),
			morpheus.Workers(1), morpheus.Seed(3), morpheus.Strategy("random"))
		if err != nil {
			t.Fatal(err)
		}
		if res.Failure == nil {
			t.Fatal("no failure")
		}
		var b bytes.Buffer
		if err := trace.Encode(&b, res.Failure.Trace); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	if a, b := encode(), encode(); !bytes.Equal(a, b) {
		t.Error("two runs with the same seed gave different traces")
	}
}

// next and yield hand control over both ways: what the caller wrote before
// next the sequence reads, what the sequence wrote before yield the
// caller reads after next, and a goroutine the sequence synchronises with
// races with nobody. No schedule reports a race.
func TestPullHandOffOrders(t *testing.T) {
	prog := func() {
		x, y, z := new(int), new(int), new(int)
		var mu csync.Mutex
		next, stop := rt.Pull2(func(yield func(int, int) bool) {
			for i := range 3 {
				v := *rt.Read(x, "x")
				*rt.Write(y, "y") = v
				mu.Lock()
				*rt.Write(z, "z")++
				mu.Unlock()
				if !yield(i, v) {
					return
				}
			}
		})
		rt.Go(func() {
			mu.Lock()
			*rt.Write(z, "z")++
			mu.Unlock()
		})
		for i := range 3 {
			*rt.Write(x, "x") = i
			k, v, ok := next()
			if !ok || k != i || v != i || *rt.Read(y, "y") != i {
				panic(fmt.Sprintf("next = %d, %d, %v; y = %d", k, v, ok, *y))
			}
		}
		stop()
		*rt.Write(y, "y") = -1
	}
	for _, s := range []string{"random", "pos", "pct:3"} {
		res, err := morpheus.Explore(func(*morpheus.Env) { prog() }, morpheus.Iterations(200),
			morpheus.Workers(1), morpheus.Seed(7), morpheus.Strategy(s))
		if err != nil {
			t.Fatal(err)
		}
		if f := res.Failure; f != nil {
			t.Fatalf("%s: %s", s, f.Report())
		}
	}
}

// next and stop called from two goroutines that nothing orders race, as
// Go's race detector reports them (it sees every call write), whether or
// not the calls overlap.
func TestPullCallsRace(t *testing.T) {
	f := explore(t, 50, func() {
		var stopped, ended bool
		next, stop := rt.Pull(count(3, &stopped, &ended))
		done := rt.Make[chan struct{}](0)
		rt.Go(func() {
			next()
			rt.Close(done)
		})
		next()
		rt.Recv(done)
		stop()
	})
	if f == nil || f.Kind != "race" || !strings.Contains(f.Message, "data race on iter.Pull's next and stop") {
		t.Fatalf("want a race on the calls, got %v", f)
	}
}

// Go's semantics of next and stop: values in order, the end, stop in the
// middle (the pending yield returns false, stop returns after the
// sequence did), next after stop, stop twice, stop before next (the
// sequence never runs). None of these leaks a goroutine.
func TestPullStop(t *testing.T) {
	check := func(ok bool, format string, args ...any) {
		if !ok {
			panic(fmt.Sprintf(format, args...))
		}
	}
	cases := map[string]func(){
		"to the end": func() {
			var stopped, ended bool
			next, stop := rt.Pull(count(2, &stopped, &ended))
			for i := range 2 {
				v, ok := next()
				check(ok && v == i, "next = %d, %v; want %d", v, ok, i)
			}
			v, ok := next()
			check(!ok && v == 0 && ended && !stopped, "after the end: %d, %v, ended %v", v, ok, ended)
			v, ok = next()
			check(!ok && v == 0, "again after the end: %d, %v", v, ok)
			stop()
		},
		"stop in the middle": func() {
			var stopped, ended bool
			next, stop := rt.Pull(count(5, &stopped, &ended))
			next()
			stop()
			check(stopped && ended, "stop returned before the sequence did (stopped %v, ended %v)", stopped, ended)
			v, ok := next()
			check(!ok && v == 0, "next after stop: %d, %v", v, ok)
			stop()
		},
		"stop before next": func() {
			var stopped, ended bool
			next, stop := rt.Pull(count(5, &stopped, &ended))
			stop()
			_, ok := next()
			check(!ok && !ended, "next after an early stop: %v, the sequence ran: %v", ok, ended)
		},
		"from another goroutine": func() {
			var stopped, ended bool
			next, stop := rt.Pull(count(3, &stopped, &ended))
			done := rt.Make[chan int](0)
			rt.Go(func() {
				v, _ := next()
				rt.Send(done, v)
			})
			check(rt.Recv(done) == 0, "first value")
			v, _ := next()
			check(v == 1, "second value %d", v)
			stop()
		},
		"Pull2 to the end": func() {
			next, stop := rt.Pull2(func(yield func(string, int) bool) {
				_ = yield("a", 1) && yield("b", 2)
			})
			defer stop()
			k, v, ok := next()
			check(ok && k == "a" && v == 1, "first pair %q %d %v", k, v, ok)
			k, v, ok = next()
			check(ok && k == "b" && v == 2, "second pair %q %d %v", k, v, ok)
			k, v, ok = next()
			check(!ok && k == "" && v == 0, "after the end %q %d %v", k, v, ok)
		},
	}
	for name, prog := range cases {
		t.Run(name, func(t *testing.T) {
			if f := explore(t, 50, prog); f != nil {
				t.Fatal(f.Report())
			}
		})
	}
}

// An iterator kept past the schedule whose goroutine ran its sequence
// (in package-level memory) is over: next outside control, or in a later
// schedule, returns the zero value and false, and stop does nothing; it
// never takes the process down. One whose sequence never started starts
// it in the schedule that calls next.
func TestPullOutlivesSchedule(t *testing.T) {
	var kept, fresh func() (int, bool)
	var keptStop func()
	runs := 0
	res, err := morpheus.Explore(func(*morpheus.Env) {
		runs++
		if runs == 1 {
			var stopped, ended bool
			kept, keptStop = rt.Pull(count(3, &stopped, &ended))
			kept()
			fresh, _ = rt.Pull(count(3, &stopped, &ended))
			return
		}
		if v, ok := kept(); ok || v != 0 {
			panic(fmt.Sprintf("next in a later schedule = %d, %v", v, ok))
		}
		keptStop()
		if v, ok := fresh(); !ok || v != 0 {
			panic(fmt.Sprintf("first next in a later schedule = %d, %v", v, ok))
		}
	}, morpheus.Iterations(2), morpheus.Workers(1), morpheus.Seed(1), morpheus.AllowLeaks(true))
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil || runs != 2 {
		t.Fatalf("%d schedules, failure: %v", runs, res.Failure)
	}
	if v, ok := kept(); ok || v != 0 {
		t.Errorf("next outside control = %d, %v", v, ok)
	}
	keptStop()
}

// A pull iterator neither stopped nor read to its end leaves its sequence
// waiting in yield forever, as Go's coroutine does: a leak, which names
// the call of Pull.
func TestPullUnstoppedLeaks(t *testing.T) {
	f := explore(t, 5, func() {
		var stopped, ended bool
		next, _ := rt.Pull(count(3, &stopped, &ended))
		next()
	})
	if f == nil || f.Kind != "leak" {
		t.Fatalf("want a leak, got %v", f)
	}
	if !strings.Contains(f.Message, "pull_test.go:") {
		t.Errorf("the leak does not name the test's lines: %s", f.Message)
	}
}

// The misuses Go's iter.Pull panics on panic with its messages, and a
// runtime.Goexit in the sequence ends the goroutine that called next, as
// in Go.
func TestPullMisuseAndGoexit(t *testing.T) {
	f := explore(t, 5, func() {
		var next func() (int, bool)
		next, stop := rt.Pull(func(yield func(int) bool) {
			next() // from inside the sequence
		})
		defer stop()
		next()
	})
	if f == nil || f.Kind != "panic" || !strings.Contains(f.Message, "iter.Pull: next called again before yield") {
		t.Fatalf("want Go's panic, got %v", f)
	}

	if f := explore(t, 20, func() {
		after := false
		deferred := false
		done := rt.Make[chan struct{}](0)
		rt.Go(func() {
			defer rt.Close(done)
			defer func() { deferred = true }()
			next, stop := rt.Pull(func(yield func(int) bool) { runtime.Goexit() })
			defer stop()
			next()
			after = true
		})
		rt.Recv(done)
		if after || !deferred {
			panic(fmt.Sprintf("the caller of next went on past a Goexit (%v) or skipped its deferred calls (%v)", after, deferred))
		}
	}); f != nil {
		t.Fatal(f.Report())
	}
}

// A t.Fatalf in a sequence, on the *testing.T itself (code that is not
// rewritten reaches it so), fails the test as an assertion at its line, as
// a t.Fatalf in any goroutine of the test does, and the caller of next
// goes no further. Run in a child process: the test must fail.
func TestPullFatalInSequence(t *testing.T) {
	if os.Getenv("RT_FATAL_CHILD") != "" {
		rt.Test(t, func(t *testing.T) {
			next, stop := rt.Pull(func(yield func(int) bool) {
				yield(1)
				t.Fatalf("the sequence gave up") // at: fatal in sequence
			})
			defer stop()
			next()
			next()
			t.Errorf("went on past the sequence's t.Fatalf")
		})
		return
	}
	if testing.Short() {
		t.Skip("runs a child process")
	}
	r, log := child(t, "TestPullFatalInSequence")
	want := "pull_test.go:" + strconv.Itoa(lineOf(t, "// at: fatal in sequence"))
	if r.Kind != "assertion" || r.Location != want || !strings.Contains(r.Failure, "t.FailNow (t.Fatal, t.Fatalf) in task g1") {
		t.Fatalf("want an assertion at %s, got kind %q at %q:\n%s\n%s", want, r.Kind, r.Location, r.Failure, log)
	}
	if strings.Contains(log, "went on past") {
		t.Errorf("the caller of next went on:\n%s", log)
	}
}

// lineOf returns the line of this file that ends with suffix.
func lineOf(t *testing.T, suffix string) int {
	t.Helper()
	data, err := os.ReadFile("pull_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasSuffix(l, suffix) {
			return i + 1
		}
	}
	t.Fatalf("no line ends with %q", suffix)
	return 0
}
