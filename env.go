package morpheus

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// Env is the world of one test iteration as its tasks see it: the virtual
// clock, controlled choices, assertions, and the actor system (nodes,
// processes, messages). One Env serves all the tasks of an iteration; every
// call acts on behalf of the task that makes it, which is always the single
// task that runs. Call an Env only from the tasks morpheus runs (the test
// function, the processes it spawns), never from a goroutine started with a
// plain go statement.
type Env struct {
	run       *core.Run
	nodes     []*Node
	procs     []*process // by task id; nil for runtime-owned tasks
	slab      []process  // see newProcess
	nodeSlab  []Node     // see newNode
	timedSlab []timedMsg // see newTimed
	nref      int64
	dying     bool // the running process was killed by its own op (see settle)
	monitors  []*Mon
	hot       int // monitors that are hot
	net       network
	attach    []Attachment
	logs      []logLine
	iter      int

	// First backing arrays of nodes and procs: a small test grows neither.
	nodeBuf [4]*Node
	procBuf [8]*process
	harness Node // the harness node, nodes[0]
}

type logLine struct {
	step int
	task string
	text string
}

// newEnv attaches the actor world to a fresh run: the harness node and the
// main task's process.
func newEnv(r *core.Run, iter int) *Env {
	e := &Env{run: r, iter: iter}
	e.nodes, e.procs = e.nodeBuf[:0], e.procBuf[:0]
	r.SetDescribe(e.describeWait)
	h := e.newNode("")
	t := r.Main()
	p := e.newProcess()
	*p = process{env: e, task: t, node: h, res: r.NewResource(), alive: true}
	p.mbox = p.mbuf[:0]
	t.Ext = p
	t.SetOnExit(p.res, processExit)
	e.addProc(p)
	h.procs = append(h.procs, p)
	return e
}

// Now returns the virtual time. Every iteration starts at 2000-01-01 UTC, or
// at the instant Epoch gives; the clock moves only when nothing else can run
// (see Sleep). It is the clock itself, on which deadlines fall exactly;
// csync.Now, what Go code reads, runs a nanosecond ahead of it for every move
// of the clock.
func (e *Env) Now() time.Time { return e.run.Epoch().Add(time.Duration(e.run.Now())) }

// Elapsed returns the virtual time since the iteration started.
func (e *Env) Elapsed() time.Duration { return time.Duration(e.run.Now()) }

// Sleep blocks the calling task for d of virtual time. The clock jumps to the
// next deadline when no task can run, so sleeping costs no real time.
//
//go:noinline
func (e *Env) Sleep(d time.Duration) {
	r := e.run
	r.Do(r.Current(), core.Op{
		Kind: kindSleep, Obj: -1, Blocked: true, HasDeadline: true,
		Deadline: r.Now() + int64(max(d, 0)), PC: goruntime.CallerPC(),
	})
}

// Yield is a scheduling point with no effect: other tasks may run first.
//
//go:noinline
func (e *Env) Yield() {
	r := e.run
	r.Do(r.Current(), core.Op{Kind: kindYield, Obj: -1, PC: goruntime.CallerPC()})
}

// Choose returns a value in [0, n), chosen by the strategy and recorded in
// the trace, so that replay takes the same branch. Use it wherever the
// environment is nondeterministic: which request a client sends, whether a
// timeout fires first, which node fails.
//
//go:noinline
func (e *Env) Choose(n int) int {
	r := e.run
	return r.Choose(r.Current(), n, goruntime.CallerPC())
}

// ChooseBool returns a controlled boolean (see Choose).
//
//go:noinline
func (e *Env) ChooseBool() bool {
	r := e.run
	return r.Choose(r.Current(), 2, goruntime.CallerPC()) == 1
}

// Assert fails the iteration with an assertion failure if cond is false. The
// message is formatted with fmt.Sprintf(format, args...).
//
//go:noinline
func (e *Env) Assert(cond bool, format string, args ...any) {
	if !cond {
		e.run.Fail(core.Assertion, userPC(goruntime.CallerPC()), fmt.Sprintf(format, args...))
	}
}

// Fatalf fails the iteration with an assertion failure.
//
//go:noinline
func (e *Env) Fatalf(format string, args ...any) {
	e.run.Fail(core.Assertion, userPC(goruntime.CallerPC()), fmt.Sprintf(format, args...))
}

// Helper marks the calling function as a test helper, as testing.T.Helper
// does: a failure reported from it (Assert, Fatalf) is located at its
// caller's line instead.
func (e *Env) Helper() {
	var pcs [1]uintptr
	if runtime.Callers(2, pcs[:]) == 1 {
		f, _ := runtime.CallersFrames(pcs[:]).Next()
		helpers.Store(f.Function, true)
	}
}

// helpers holds the names of functions marked by Env.Helper.
var helpers sync.Map

// userPC returns pc, or, if pc lies in a helper, the first caller outside
// helpers. It walks the stack only when helpers exist and only on failure.
func userPC(pc uintptr) uintptr {
	if pc == 0 || !isHelper(pc) {
		return pc
	}
	var pcs [64]uintptr
	n := runtime.Callers(3, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if _, ok := helpers.Load(f.Function); !ok && f.Function != "" {
			return f.PC + 1 // a return address, as CallerPC gives
		}
		if !more {
			return pc
		}
	}
}

func isHelper(pc uintptr) bool {
	f, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	_, ok := helpers.Load(f.Function)
	return ok
}

// Logf records a line in the iteration's log, which a failure report shows.
func (e *Env) Logf(format string, args ...any) {
	e.logs = append(e.logs, logLine{step: e.run.Step(), task: e.run.Current().Name, text: fmt.Sprintf(format, args...)})
}

// Iteration returns the number of the running iteration.
func (e *Env) Iteration() int { return e.iter }

// Attachment is a file a failing iteration leaves beside its trace, such as a
// linearizability checker's visualisation.
type Attachment struct {
	Name string // file name suffix, such as "linearizability.html"
	Data []byte
}

// Attach adds a file to the iteration's failure report: if the iteration
// fails, Check writes it beside the saved trace as <trace>.<name>. It is kept
// only for failing iterations; attach just before failing.
func (e *Env) Attach(name string, data []byte) {
	e.attach = append(e.attach, Attachment{Name: name, Data: data})
}
