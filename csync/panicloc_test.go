package csync_test

//lint:file-ignore SA2001 the lock and unlock show the mutex still works

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/csync/memnet"
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

// A panic raised by a primitive (Go raises it inside its runtime; csync
// inside its own files) is located at the user's line that called the
// primitive, with Go's message, and the stack says so at its top.
func TestPanicLocatedAtUserLine(t *testing.T) {
	tests := []struct {
		name string
		body func(e *morpheus.Env)
		msg  string
	}{
		{"send on closed", func(*morpheus.Env) {
			c := csync.Make[int](1)
			c.Close()
			c.Send(1) // at: send on closed
		}, "send on closed channel"},
		{"blocked sender sees close", func(*morpheus.Env) {
			c := csync.Make[int](0)
			csync.Go(func() {
				c.Send(1) // at: blocked sender sees close
			})
			csync.Sleep(1)
			c.Close()
			csync.Sleep(1)
		}, "send on closed channel"},
		{"select send on closed", func(*morpheus.Env) {
			c := csync.Make[int](1)
			c.Close()
			csync.Select(csync.Send(c, 1, nil)) // at: select send on closed
		}, "send on closed channel"},
		{"close of closed", func(*morpheus.Env) {
			c := csync.Make[int](0)
			c.Close()
			c.Close() // at: close of closed
		}, "close of closed channel"},
		{"close of nil", func(*morpheus.Env) {
			var c *csync.Chan[int]
			c.Close() // at: close of nil
		}, "close of nil channel"},
		{"negative size", func(*morpheus.Env) {
			csync.Make[int](-1) // at: negative size
		}, "makechan: size out of range"},
		{"negative WaitGroup", func(*morpheus.Env) {
			var wg csync.WaitGroup
			wg.Add(1)
			wg.Done()
			wg.Done() // at: negative WaitGroup
		}, "sync: negative WaitGroup counter"},
		{"unlock of unlocked", func(*morpheus.Env) {
			var mu csync.Mutex
			mu.Unlock() // at: unlock of unlocked
		}, "sync: unlock of unlocked mutex"},
		{"RUnlock of unlocked", func(*morpheus.Env) {
			var mu csync.RWMutex
			mu.RUnlock() // at: RUnlock of unlocked
		}, "sync: RUnlock of unlocked RWMutex"},
		{"Cond.Wait without the lock", func(*morpheus.Env) {
			c := csync.NewCond(&csync.Mutex{})
			c.Wait() // at: Cond.Wait without the lock
		}, "sync: unlock of unlocked mutex"},
		{"Once.Do(nil)", func(*morpheus.Env) {
			var once csync.Once
			once.Do(nil) // at: Once.Do(nil)
		}, "nil pointer dereference"},
		{"NewTicker(0)", func(*morpheus.Env) {
			csync.NewTicker(0) // at: NewTicker(0)
		}, "non-positive interval for NewTicker"},
		{"Ticker.Reset(0)", func(*morpheus.Env) {
			tk := csync.NewTicker(time.Second)
			tk.Reset(0) // at: Ticker.Reset(0)
		}, "non-positive interval for Ticker.Reset"},
		{"memnet nil Conn", func(*morpheus.Env) {
			var c *memnet.Conn
			c.Write([]byte("x")) // at: memnet nil Conn
		}, "nil pointer dereference"},
		// Panics of user code are at its own line, also when csync called it.
		{"nil map in Once.Do", func(*morpheus.Env) {
			var once csync.Once
			var m map[string]int
			once.Do(func() {
				m["x"] = 1 // at: nil map in Once.Do
			})
		}, "assignment to entry in nil map"},
		{"index in AfterFunc", func(*morpheus.Env) {
			var s []int
			i := 3
			csync.AfterFunc(time.Second, func() {
				s[i]++ // at: index in AfterFunc
			})
			csync.Sleep(2 * time.Second)
		}, "index out of range"},
		{"nil dereference in a select case", func(*morpheus.Env) {
			var p *int
			c := csync.Make[int](1)
			c.Send(1)
			csync.Select(csync.Recv(c, func(v int, _ bool) {
				*p = v // at: nil dereference in a select case
			}))
		}, "nil pointer dereference"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := mustFail(t, explore(t, tc.body, morpheus.Iterations(20)), "panic", tc.msg)
			want := markedLine(t, tc.name)
			if f.Location != want {
				t.Errorf("location %q, want the user's line %q\n%s", f.Location, want, f.Report())
			}
			if f.Trace.Header.Failure.Loc != want {
				t.Errorf("trace's failure location %q, want %q", f.Trace.Header.Failure.Loc, want)
			}
			if !strings.Contains(f.Stack, "goroutine ") {
				t.Errorf("the stack is gone:\n%s", f.Stack)
			}
			top, _, _ := strings.Cut(f.Stack, "\n")
			if inside := !strings.HasPrefix(top, "goroutine "); inside && !strings.HasPrefix(top, "panic at "+want+" (") {
				t.Errorf("the stack's first line does not name the user's line %s: %q", want, top)
			}
		})
	}
}

// The stack of a panic raised inside csync says, at its top, which user line
// called the primitive; a panic of user code keeps Go's stack as it is.
func TestPanicStackNote(t *testing.T) {
	f := mustFail(t, explore(t, func(*morpheus.Env) {
		var mu csync.Mutex
		mu.Unlock()
	}, morpheus.Iterations(1)), "panic", "unlock of unlocked")
	top, rest, _ := strings.Cut(f.Stack, "\n")
	for _, want := range []string{"panic at panicloc_test.go:", "TestPanicStackNote.func1", "raised inside morpheus by github.com/morpheus-go/morpheus/csync.(*Mutex).unlock"} {
		if !strings.Contains(top, want) {
			t.Errorf("first line of the stack lacks %q: %q", want, top)
		}
	}
	if !strings.Contains(rest, "csync/mutex.go:") {
		t.Errorf("the frames inside csync are gone from the stack:\n%s", rest)
	}
	f = mustFail(t, explore(t, func(*morpheus.Env) {
		var p *int
		*p = 1
	}, morpheus.Iterations(1)), "panic", "nil pointer")
	if !strings.HasPrefix(f.Stack, "goroutine ") {
		t.Errorf("a panic of user code got a note:\n%s", f.Stack)
	}
}

// The panics stay Go's: user code recovers them with the same values, and
// the iteration goes on.
func TestPanicRecoverable(t *testing.T) {
	mustPass(t, explore(t, func(e *morpheus.Env) {
		recovered := func(f func()) (p any) {
			defer func() { p = recover() }()
			f()
			return nil
		}
		c := csync.Make[int](1)
		c.Close()
		p := recovered(func() { c.Send(1) })
		err, ok := p.(error)
		e.Assert(ok && err.Error() == "send on closed channel", "recovered %v", p)
		var wg csync.WaitGroup
		p = recovered(func() { wg.Done() })
		e.Assert(p == "sync: negative WaitGroup counter", "recovered %v", p)
		var mu csync.Mutex
		p = recovered(func() { mu.Unlock() })
		e.Assert(p == "sync: unlock of unlocked mutex", "recovered %v", p)
		mu.Lock() // the mutex still works
		mu.Unlock()
	}, morpheus.Iterations(20)))
}
