package rt

import "runtime"

// Under control a goroutine's stack goes on below its function into
// morpheus's code (the carrier that runs the task, Test and the
// exploration below a test's body), where under go test it would end (in
// the runtime's goexit, or testing.tRunner). Rewritten code that walks its
// own stack (testify's "Error Trace", a logger's caller, an error's stack)
// sees it end where morpheus's code begins: the rewriter turns
// runtime.Caller and runtime.Callers into Caller and Callers.

// Caller stands for runtime.Caller: ok is false for a frame of morpheus's,
// as for one past the end of the stack.
//
//go:noinline
func Caller(skip int) (pc uintptr, file string, line int, ok bool) {
	pc, file, line, ok = runtime.Caller(skip + 1)
	if ok && morpheusPC(pc) {
		return 0, "", 0, false
	}
	return
}

// Callers stands for runtime.Callers: the return addresses end before the
// first frame of morpheus's.
//
//go:noinline
func Callers(skip int, pc []uintptr) int {
	if skip > 0 {
		return ours(pc[:runtime.Callers(skip+1, pc)])
	}
	// With skip 0 the first is runtime.Callers itself, then its caller's.
	if len(pc) == 0 {
		return 0
	}
	n := runtime.Callers(0, pc[:1])
	return n + ours(pc[n:n+runtime.Callers(2, pc[n:])])
}

// ours returns how many of the return addresses pcs come before the first
// of morpheus's code.
func ours(pcs []uintptr) int {
	for i, p := range pcs {
		if morpheusPC(p) {
			return i
		}
	}
	return len(pcs)
}

// morpheusPC reports whether return address pc is in a function of
// morpheus's (see morpheusCode). runtime.Callers gives inlined calls
// virtual PCs of their own, so pc locates one frame.
func morpheusPC(pc uintptr) bool {
	f, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	return morpheusCode(f.Function)
}
