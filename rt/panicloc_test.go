package rt_test

import (
	"bufio"
	"context"
	"iter"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/rt"
)

// markedLine returns "panicloc_test.go:N" for the line of this file that
// ends with the comment "// at: name".
func markedLine(t *testing.T, name string) string {
	t.Helper()
	f, err := os.Open("panicloc_test.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.HasSuffix(sc.Text(), "// at: "+name) {
			return "panicloc_test.go:" + strconv.Itoa(n)
		}
	}
	t.Fatalf("no line marked %q", name)
	return ""
}

// The helpers that stand for Go's operators in rewritten code panic as Go
// does, and the failure is located at the rewritten line (the user's), not
// in rt or csync.
func TestPanicLocatedAtUserLine(t *testing.T) {
	tests := []struct {
		name string
		body func()
		msg  string
	}{
		{"send on closed", func() {
			ch := rt.Make[chan int](1)
			rt.Close(ch)
			rt.Send(ch, 1) // at: send on closed
		}, "send on closed channel"},
		{"close of closed", func() {
			ch := rt.Make[chan int](0)
			rt.Close(ch)
			rt.Close(ch) // at: close of closed
		}, "close of closed channel"},
		{"close of nil", func() {
			var ch chan int
			rt.Close(ch) // at: close of nil
		}, "close of nil channel"},
		{"negative WaitGroup", func() {
			var wg rt.WaitGroup
			wg.Done() // at: negative WaitGroup
		}, "sync: negative WaitGroup counter"},
		{"OnceFunc re-panics", func() {
			f := rt.OnceFunc(func() { panic("boom") })
			func() {
				defer func() { recover() }()
				f()
			}()
			f() // at: OnceFunc re-panics
		}, "boom"},
		{"iter.Pull re-panics", func() {
			next, stop := iter.Pull(func(yield func(int) bool) { panic("boom") })
			defer stop()
			next() // at: iter.Pull re-panics
		}, "boom"},
		{"rt.Pull re-panics", func() {
			next, stop := rt.Pull(func(yield func(int) bool) {
				yield(1)
				panic("boom")
			})
			defer stop()
			next()
			next() // at: rt.Pull re-panics
		}, "boom"},
		{"rt.Pull2 re-panics in stop", func() {
			next, stop := rt.Pull2(func(yield func(int, int) bool) {
				defer func() { panic("boom") }()
				yield(1, 2)
			})
			next()
			stop() // at: rt.Pull2 re-panics in stop
		}, "boom"},
		{"context from nil", func() {
			var parent context.Context
			rt.WithCancel(parent) // at: context from nil
		}, "cannot create context from nil parent"},
		{"ticker", func() {
			rt.NewTicker(-time.Second) // at: ticker
		}, "non-positive interval for NewTicker"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := explore(t, 5, tc.body)
			if f == nil || f.Kind != "panic" || !strings.Contains(f.Message, tc.msg) {
				t.Fatalf("want a panic %q, got %+v", tc.msg, f)
			}
			if want := markedLine(t, tc.name); f.Location != want {
				t.Errorf("location %q, want the user's line %q\n%s", f.Location, want, f.Report())
			}
		})
	}
}
