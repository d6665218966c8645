package rt

import (
	"runtime"
	"strconv"
	"strings"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/trace"
)

// A program that lists its goroutines (runtime.Stack(buf, true),
// runtime.NumGoroutine) to find those a test leaked, as goleak does, would
// see morpheus's own: the exploration's workers, the watchdog, the
// interrupt handler, idle carriers of the task pool, the test's goroutine
// waiting in Test. The rewriter turns those calls into Stack and
// NumGoroutine, which list the goroutines the program would have without
// morpheus: the live tasks of the running schedule, each shown as Go shows
// a goroutine (its own frames, its state, where it was started), and the
// goroutines that run no code of morpheus's (the testing package's, those
// the standard library starts, plain goroutines started outside control).

// A test that checks for leaks itself decides which goroutines it lets
// outlive it: goleak's IgnoreTopFunction, IgnoreCurrent and
// IgnoreAnyFunction leave out the goroutines its user knows of (a library's
// worker, started lazily inside the test). morpheus's own leak check, which
// knows nothing of them, takes the test's word: the goroutines of the
// schedule that the last listing showed (the check's last look, which
// found none it did not accept, or the test would have failed) are not
// reported as leaked if they are still there when the test has returned.
// A goroutine started after that listing still is.

// accept makes the goroutines a listing showed, tasks (by goroutine id)
// and unstarted, other than cur, the only ones of cur's schedule that the
// leak check lets outlive the test (core.Task.Daemon).
func accept(cur *core.Task, tasks map[int64]*core.Task, unstarted []*core.Task) {
	st := state(cur.Run())
	for _, t := range st.listed {
		t.Daemon = false
	}
	st.listed = st.listed[:0]
	for _, t := range tasks {
		if t != cur {
			st.listed = append(st.listed, t)
		}
	}
	st.listed = append(st.listed, unstarted...)
	for _, t := range st.listed {
		t.Daemon = true
	}
}

// Stack stands for runtime.Stack. With all, buf receives the listing
// above, in runtime.Stack's format, as much of it as fits; otherwise the
// calling goroutine's stack, as runtime.Stack gives it, and in a schedule
// as the listing shows it (without morpheus's frames).
func Stack(buf []byte, all bool) int {
	if all {
		return copy(buf, strings.Join(goroutines(), "\n\n")+"\n")
	}
	cur := core.CurrentTask()
	if cur == nil {
		return runtime.Stack(buf, false)
	}
	return copy(buf, taskStack(ownStack(), cur, cur)+"\n")
}

// ownStack returns the calling goroutine's whole stack.
func ownStack() string {
	buf := make([]byte, 16<<10)
	for {
		n := runtime.Stack(buf, false)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// NumGoroutine stands for runtime.NumGoroutine: the number of goroutines
// Stack lists.
func NumGoroutine() int { return len(goroutines()) }

// goroutines returns the stacks of the goroutines the program would see,
// the caller's first.
func goroutines() []string {
	tasks := map[int64]*core.Task{}
	var unstarted []*core.Task
	cur := core.CurrentTask()
	if cur != nil {
		for _, t := range cur.Run().Tasks() {
			switch {
			case t.Done() || t.Owned():
			case t.Goid() == 0:
				unstarted = append(unstarted, t)
			default:
				tasks[t.Goid()] = t
			}
		}
	}
	self := int64(0)
	if cur == nil {
		self = stackGoid(ownStack())
	}
	var out []string
	for _, g := range strings.Split(strings.TrimRight(allStacks(), "\n"), "\n\n") {
		id := stackGoid(g)
		if t := tasks[id]; t != nil {
			out = append(out, taskStack(g, t, cur))
		} else if id == self {
			out = append(out, callerStack(g))
		} else if !morpheusGoroutine(g) && !signalGoroutine(g) {
			out = append(out, g)
		}
	}
	if cur != nil {
		accept(cur, tasks, unstarted)
	}
	for _, t := range unstarted {
		out = append(out, "goroutine "+strconv.FormatInt(taskGoid(t), 10)+" [runnable]:\n"+strings.TrimRight(createdBy(t), "\n"))
	}
	return out
}

// taskGoid is the goroutine id a listing gives task t: one of its own, for
// its carrier's goroutine carries other tasks before and after it (an id
// that goleak.IgnoreCurrent kept must not hide a later task), and one that
// no goroutine of the process has, whose ids count up from 1.
func taskGoid(t *core.Task) int64 {
	return 1<<50 | int64(t.Run().Gen()&(1<<26-1))<<24 | int64(t.ID)&(1<<24-1)
}

// allStacks returns runtime.Stack(all)'s whole dump.
func allStacks() string {
	buf := make([]byte, 64<<10)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// stackGoid returns the id of the goroutine whose stack is g, from its
// first line ("goroutine 7 [chan receive]:"), 0 if there is none.
func stackGoid(g string) int64 {
	rest, ok := strings.CutPrefix(g, "goroutine ")
	if !ok {
		return 0
	}
	id, _, _ := strings.Cut(rest, " ")
	n, _ := strconv.ParseInt(id, 10, 64)
	return n
}

// frames calls f with each frame of stack g: its function line and its
// file line (a "created by" line is one too), or a line alone ("...
// additional frames elided...") with at "".
func frames(g string, f func(fn, at string)) {
	lines := strings.Split(g, "\n")
	for i := 1; i < len(lines); i++ {
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") {
			f(lines[i], lines[i+1])
			i++
			continue
		}
		f(lines[i], "")
	}
}

// morpheusGoroutine reports whether stack g runs code of morpheus's (one of
// its frames is a function of morpheus's packages other than tests,
// examples and subject systems); its "created by" line does not count,
// but for a goroutine of morpheus's that is ending, which has the
// runtime's frames only left (runtime.goexit1).
func morpheusGoroutine(g string) bool {
	own, runtimeOnly, byMorpheus := false, true, false
	frames(g, func(fn, _ string) {
		switch {
		case fn == "":
		case strings.HasPrefix(fn, "created by "):
			byMorpheus = morpheusCode(strings.TrimPrefix(fn, "created by "))
		case morpheusCode(fn):
			own = true
		case !strings.HasPrefix(fn, "runtime."):
			runtimeOnly = false
		}
	})
	return own || runtimeOnly && byMorpheus
}

// morpheusCode reports whether fn, a stack's function line, is code of
// morpheus's packages, not of their tests, examples or subject systems.
func morpheusCode(fn string) bool {
	const module = "github.com/morpheus-go/morpheus"
	rest, ok := strings.CutPrefix(fn, module)
	if !ok || rest == "" || rest[0] != '.' && rest[0] != '/' {
		return false
	}
	pkg := rest
	if i := strings.IndexByte(rest, '.'); i >= 0 {
		pkg = rest[:i]
	}
	return !strings.HasSuffix(pkg, "_test") && !strings.HasPrefix(pkg, "/examples/") && !strings.HasPrefix(pkg, "/internal/systems/") && !strings.HasPrefix(pkg, "/bench/")
}

// callerStack is stack g of the goroutine that asked for the listing
// outside a schedule (TestMain after m.Run, package initialization, a test
// run outside control), as Go shows the caller of runtime.Stack: without
// morpheus's frames (Stack's own, RealTest's). Go lists the caller too, and
// a check that counts goroutines expects it.
func callerStack(g string) string {
	head, _, _ := strings.Cut(g, "\n")
	var b strings.Builder
	b.WriteString(head + "\n")
	frames(g, func(fn, at string) {
		if !strings.HasPrefix(fn, "created by ") && morpheusCode(fn) {
			return
		}
		if at != "" {
			fn += "\n" + at
		}
		b.WriteString(fn + "\n")
	})
	return strings.TrimRight(b.String(), "\n")
}

// taskStack is the stack of task t, whose carrier's stack is g, as Go
// would show the goroutine: the frames of morpheus's and of the runtime's
// (the coroutine that carries it) left out, its state that of its pending
// op, started where its go statement ran.
func taskStack(g string, t, cur *core.Task) string {
	var b strings.Builder
	b.WriteString("goroutine " + strconv.FormatInt(taskGoid(t), 10) + " [" + taskState(t, cur) + "]:\n")
	frames(g, func(fn, at string) {
		if strings.HasPrefix(fn, "created by ") || morpheusCode(fn) || strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "iter.") {
			return
		}
		if at != "" {
			fn += "\n" + at
		}
		b.WriteString(fn + "\n")
	})
	b.WriteString(createdBy(t))
	return strings.TrimRight(b.String(), "\n")
}

// createdBy is the "created by" line of task t, the go statement that
// started it, with its file line; "" for the main task.
func createdBy(t *core.Task) string {
	if t.SpawnPC == 0 {
		return ""
	}
	f, _ := runtime.CallersFrames([]uintptr{t.SpawnPC}).Next()
	parent := int64(0)
	if p := t.Run().Task(t.Parent); p != nil {
		parent = taskGoid(p)
	}
	return "created by " + f.Function + " in goroutine " + strconv.FormatInt(parent, 10) + "\n\t" + f.File + ":" + strconv.Itoa(f.Line) + " +0x0\n"
}

// taskState is the state a goroutine's stack would show for task t.
func taskState(t, cur *core.Task) string {
	if t == cur {
		return "running"
	}
	op, pending := t.PendingOp()
	if !pending {
		return "runnable"
	}
	switch op.Kind {
	case trace.KindChanRecv:
		return "chan receive"
	case trace.KindChanSend:
		return "chan send"
	case trace.KindSelect:
		return "select"
	case trace.KindLock:
		return "sync.Mutex.Lock"
	case trace.KindRLock:
		return "sync.RWMutex.RLock"
	case trace.KindWGWait:
		return "sync.WaitGroup.Wait"
	case trace.KindCondWait:
		return "sync.Cond.Wait"
	case trace.KindSleep:
		return "sleep"
	case trace.KindNetAccept, trace.KindNetRead, trace.KindNetDial:
		return "IO wait"
	}
	return "runnable"
}
