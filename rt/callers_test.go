package rt_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/rt"
)

// In a schedule, a walk of the stack by Caller or Callers (testify's
// "Error Trace", a logger's caller) ends where morpheus's code begins, as
// a goroutine's stack ends under go test; so does the caller's own Stack.
func TestCallersEndAtMorpheus(t *testing.T) {
	var frames []string
	var depth, beyond int
	var past bool
	var stack string
	f := explore(t, 1, func() {
		pcs := make([]uintptr, 64)
		n := rt.Callers(1, pcs)
		fr := runtime.CallersFrames(pcs[:n])
		for {
			f, more := fr.Next()
			frames = append(frames, f.Function)
			if !more {
				break
			}
		}
		for ; ; depth++ {
			if _, _, _, ok := rt.Caller(depth); !ok {
				break
			}
		}
		// Past the end (a walk in chunks, as testify's) there is nothing.
		beyond = rt.Callers(5, pcs)
		_, _, _, past = rt.Caller(5)
		buf := make([]byte, 1<<16)
		stack = string(buf[:rt.Stack(buf, false)])
	})
	if f != nil {
		t.Fatal(f.Report())
	}
	want := []string{"github.com/morpheus-go/morpheus/rt_test.TestCallersEndAtMorpheus.func1", "github.com/morpheus-go/morpheus/rt_test.explore.func1"}
	if strings.Join(frames, " ") != strings.Join(want, " ") || depth != 2 || beyond != 0 || past {
		t.Errorf("Callers: %v, Caller: %d frames, %d and %v past the end; want %v", frames, depth, beyond, past, want)
	}
	if !strings.HasPrefix(stack, "goroutine ") || !strings.Contains(stack, "[running]:\n"+want[0]+"()") || strings.Contains(stack, "morpheus/internal/") {
		t.Errorf("Stack(buf, false):\n%s", stack)
	}
	// Outside a schedule they are runtime's.
	pcs := make([]uintptr, 64)
	if n, m := rt.Callers(0, pcs), runtime.Callers(0, pcs); n != m {
		t.Errorf("outside a schedule: %d frames, runtime.Callers %d", n, m)
	}
}
