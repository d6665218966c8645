package goruntime

import (
	"runtime"
	"slices"
	"testing"
)

// functions returns the names of the functions on the calling goroutine's
// stack, as runtime.Frame spells them.
func functions() []string {
	var pcs [64]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs[:])])
	var names []string
	for {
		f, more := frames.Next()
		names = append(names, f.Function)
		if !more {
			return names
		}
	}
}

// TestGopanicFrame: a deferred function recovering a panic sees Gopanic on
// its stack.
func TestGopanicFrame(t *testing.T) {
	var names []string
	func() {
		defer func() {
			names = functions()
			recover()
		}()
		var m map[int]int
		//lint:ignore SA5000 a panic raised inside the runtime, on purpose
		m[0] = 1
	}()
	if !slices.Contains(names, Gopanic) {
		t.Fatalf("no %s on the stack of a panic's deferred call: panics would be located at their task's last op\n%q", Gopanic, names)
	}
}

// goexitStack returns the functions on the stack of a deferred call run by
// the Goexit that end calls, on a goroutine of its own.
func goexitStack(end func()) []string {
	ch := make(chan []string)
	go func() {
		defer func() { ch <- functions() }()
		end()
	}()
	return <-ch
}

// TestGoexitFrames: a goroutine ending in runtime.Goexit, t.FailNow or
// t.SkipNow shows Goexit, with FailNow or SkipNow below it, on the stack of
// its deferred calls. The *testing.T is one of the test's own making (its
// failed mark is no test's).
func TestGoexitFrames(t *testing.T) {
	for _, c := range []struct {
		end  func()
		want []string
	}{
		{runtime.Goexit, []string{Goexit}},
		{new(testing.T).FailNow, []string{Goexit, FailNow}},
		{new(testing.T).SkipNow, []string{Goexit, SkipNow}},
	} {
		names := goexitStack(c.end)
		i := slices.Index(names, Goexit)
		if i < 0 || len(c.want) > 1 && !slices.Contains(names[i:], c.want[1]) {
			t.Errorf("want %q on the stack of a deferred call after a Goexit: a t.Fatal in a goroutine would not be told from a bare Goexit\n%q", c.want, names)
		}
	}
}

// TestClearFailed is the canary of the write into testing.T's private
// failed mark (counting mode).
func TestClearFailed(t *testing.T) {
	ft := new(testing.T)
	ft.Fail()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("%v: testing.T's fields failed or mu have moved", p)
		}
	}()
	ClearFailed(ft)
	if ft.Failed() {
		t.Fatal("ClearFailed left the failed mark set")
	}
}
