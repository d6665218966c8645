// Package leakcheck finds the goroutines a test leaves behind the way
// go.uber.org/goleak does: it lists every goroutine of the process with
// runtime.Stack(buf, true), parses the listing, leaves out the calling
// goroutine, the testing package's and the runtime's, and looks again,
// after a growing sleep, until none is left or it gives up.
package leakcheck

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// TestingT is what VerifyNone fails: a *testing.T, through an interface.
type TestingT interface {
	Error(args ...any)
}

// VerifyNone fails t if goroutines other than the caller's are left,
// but for those whose innermost function is one of ignoreTop (as goleak's
// IgnoreTopFunction leaves them out).
func VerifyNone(t TestingT, ignoreTop ...string) {
	if err := Find(ignoreTop...); err != nil {
		t.Error(err)
	}
}

// VerifyTestMain runs the tests, then fails the process if they passed
// but left goroutines.
func VerifyTestMain(m interface{ Run() int }) {
	code := m.Run()
	if code == 0 {
		if err := Find(); err != nil {
			fmt.Fprintf(os.Stderr, "leakcheck: errors on successful test run: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

// Find returns an error naming the goroutines left, nil if there are none.
func Find(ignoreTop ...string) error {
	delay := time.Microsecond
	for try := 0; ; try++ {
		left := others(ignoreTop)
		if len(left) == 0 {
			return nil
		}
		if try == 20 {
			return fmt.Errorf("found unexpected goroutines:\n%s", strings.Join(left, "\n"))
		}
		time.Sleep(delay)
		delay = min(2*delay, 100*time.Millisecond)
	}
}

// goroutine is one goroutine of a listing.
type goroutine struct {
	id, state string
	funcs     []string // its frames' functions, innermost first
}

func (g goroutine) String() string {
	top := ""
	if len(g.funcs) > 0 {
		top = g.funcs[0]
	}
	return fmt.Sprintf("goroutine %s in state %s, with %s on top of the stack", g.id, g.state, top)
}

// others returns the goroutines that are not the caller's and not the
// testing package's or the runtime's.
func others(ignoreTop []string) []string {
	self := parse(stacks(false))
	var out []string
	for _, g := range parse(stacks(true)) {
		if len(self) > 0 && g.id == self[0].id || ignored(g) || len(g.funcs) > 0 && slices.Contains(ignoreTop, g.funcs[0]) {
			continue
		}
		out = append(out, g.String())
	}
	return out
}

func ignored(g goroutine) bool {
	if len(g.funcs) == 0 {
		return false
	}
	switch g.funcs[0] {
	case "testing.RunTests", "testing.(*T).Run", "testing.(*T).Parallel", "testing.runFuzzing", "testing.runFuzzTests":
		return strings.HasPrefix(g.state, "chan receive")
	case "os/signal.signal_recv", "os/signal.loop":
		return true
	}
	for _, f := range g.funcs {
		if f == "runtime.ensureSigM" {
			return true
		}
	}
	return false
}

func stacks(all bool) string {
	buf := make([]byte, 1<<10)
	for {
		n := runtime.Stack(buf, all)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// parse reads a listing: "goroutine N [state]:", then a function line and
// a file line per frame, and "created by" lines, goroutines separated by an
// empty line.
func parse(s string) []goroutine {
	var gs []goroutine
	for _, block := range strings.Split(strings.TrimSpace(s), "\n\n") {
		lines := strings.Split(block, "\n")
		head, ok := strings.CutPrefix(lines[0], "goroutine ")
		if !ok {
			continue
		}
		id, state, _ := strings.Cut(head, " [")
		state, _, _ = strings.Cut(state, "]")
		g := goroutine{id: id, state: state}
		for _, l := range lines[1:] {
			if l == "" || strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "created by ") {
				continue
			}
			if i := strings.LastIndexByte(l, '('); i > 0 {
				l = l[:i]
			}
			g.funcs = append(g.funcs, l)
		}
		gs = append(gs, g)
	}
	return gs
}
