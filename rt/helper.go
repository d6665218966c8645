package rt

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// helpers holds the functions marked as test helpers (MarkHelper), by name,
// as package testing keeps those that called t.Helper.
var (
	helpers  sync.Map // function name -> struct{}
	anyHelps atomic.Bool
)

// MarkHelper marks its caller as a test helper, as t.Helper does: inside a
// schedule of Test, a log line or failure of the test's t is located at
// the first caller that is not a helper. The rewriter calls it after every
// t.Helper() of a *testing.T, *testing.B, *testing.F or testing.TB, which
// itself still runs for the runs outside a schedule.
//
//go:noinline
func MarkHelper() {
	lockT() // t.Helper takes t's lock
	markHelper(3)
}

// markHelper marks the function skip frames up the stack (runtime.Callers'
// skip) a test helper.
//
//go:noinline
func markHelper(skip int) {
	var pc [1]uintptr
	if runtime.Callers(skip, pc[:]) == 0 {
		return
	}
	f, _ := runtime.CallersFrames(pc[:]).Next()
	if _, had := helpers.LoadOrStore(f.Function, struct{}{}); !had {
		anyHelps.Store(true)
	}
}

// pastHelpers returns where a call of a TestingT method is located: pc, the
// return address in its caller, or, if that caller is a helper, the first
// caller up the stack that is not one. It must be called by that method
// itself. A stack of helpers up to morpheus's code (a test body that called
// t.Helper) is located at its outermost function, as in package testing.
//
//go:noinline
func pastHelpers(pc uintptr) uintptr {
	if !anyHelps.Load() {
		return pc
	}
	var pcs [64]uintptr
	n := runtime.Callers(3, pcs[:]) // runtime.Callers, pastHelpers, the method
	at := pc
	for _, p := range pcs[:n] {
		// One entry per frame, inlined ones included (runtime.Callers
		// gives their calls virtual PCs), so p locates its frame alone.
		f, _ := runtime.CallersFrames([]uintptr{p}).Next()
		if morpheusFunc(f.Function) {
			break
		}
		at = p
		if _, ok := helpers.Load(f.Function); !ok {
			break
		}
	}
	return at
}

// morpheusFunc reports whether fn, a function's full name, is morpheus's
// own, below a test's code on its stack: the module's root package, rt or
// an internal package (not tests of morpheus's own packages under rewrite).
func morpheusFunc(fn string) bool {
	const module = "github.com/morpheus-go/morpheus"
	rest, ok := strings.CutPrefix(fn, module)
	if !ok {
		return false
	}
	return strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "/rt.") || strings.HasPrefix(rest, "/internal/")
}
