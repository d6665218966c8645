package rt

import "runtime"

// Under control a goroutine's stack goes on below its function into
// morpheus's code (the carrier that runs the task, Test and the
// exploration below a test's body), where under go test it would end (in
// the runtime's goexit, or testing.tRunner). Rewritten code that walks its
// own stack (testify's "Error Trace", a logger's caller, an error's stack)
// sees it end where morpheus's code begins: the rewriter turns
// runtime.Caller and runtime.Callers into Caller and Callers.

// Caller stands for runtime.Caller: ok is false for a frame at or past the
// first of morpheus's, as for one past the end of the stack.
//
//go:noinline
func Caller(skip int) (pc uintptr, file string, line int, ok bool) {
	pcs := userFrames()
	if skip < 0 || skip >= len(pcs) {
		return 0, "", 0, false
	}
	f, _ := runtime.CallersFrames(pcs[skip : skip+1]).Next()
	return f.PC, f.File, f.Line, f.PC != 0
}

// Callers stands for runtime.Callers: the return addresses end before the
// first frame of morpheus's, whatever skip (a walk in chunks, as testify's,
// never gets past it).
//
//go:noinline
func Callers(skip int, pc []uintptr) int {
	n := 0
	if skip == 0 && len(pc) > 0 {
		// The first is runtime.Callers itself, which Callers stands for.
		n = runtime.Callers(0, pc[:1])
		skip = 1
	}
	pcs := userFrames()
	if skip-1 >= len(pcs) {
		return n
	}
	return n + copy(pc[n:], pcs[max(skip-1, 0):])
}

// userFrames returns the return addresses of the stack of Caller's or
// Callers' caller, from that caller on, up to the first frame of
// morpheus's code (see morpheusCode).
func userFrames() []uintptr {
	buf := make([]uintptr, 32)
	for {
		n := runtime.Callers(3, buf) // runtime.Callers, userFrames, Caller or Callers
		for i, p := range buf[:n] {
			// runtime.Callers gives inlined calls virtual PCs of their
			// own, so p locates one frame.
			f, _ := runtime.CallersFrames([]uintptr{p}).Next()
			if morpheusCode(f.Function) {
				return buf[:i]
			}
		}
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]uintptr, 2*len(buf))
	}
}
