package rt

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// T stands for the receiver of a call of the logging and failing methods
// of a *testing.T, *testing.B, *testing.F or testing.TB (Log, Error, Fatal,
// Fail, Skip, their forms, and Failed): the rewriter turns t.Fatalf(…) into
// T(t).Fatalf(…). Inside a schedule of Test the calls belong to that
// schedule: a Log line goes to the schedule's log (shown with its failure,
// not with every schedule's), t.Error and t.Fail mark the schedule failed,
// and the first failure's message, at the line of the call, is the
// schedule's assertion failure when the body returns; t.Fatal and
// t.FailNow fail it at once. Outside a schedule (a test that calls
// morpheus.Check, code run before or after Test) the calls go to t as
// they are. As with TB, a call from a goroutine once the test's body has
// returned panics as in Go.
func T(t testing.TB) *TestingT {
	lockT()
	return &TestingT{TB: t}
}

// lockT stands, for the data-race detector, for the lock package testing
// takes in the methods of a test's t (its common.mu: Log, Error, Fatal,
// Fail, Skip, Helper, Failed): inside a schedule of Test, the calling task
// acquires and releases one synchronisation object of the schedule (the
// test's t and its subtests', which run inline). So what a goroutine did
// before its t.Log happens before what the test does after a later
// t.Helper or t.Error, as Go's race detector sees the same lock under go
// test. It is not a scheduling point.
func lockT() {
	if s := current; s != nil {
		raceSync(unsafe.Pointer(s))
	}
}

// TestingT is the receiver T returns. It is a testing.TB itself: what it
// does not stand for goes to the t it holds. TB hands it, inside a
// schedule, to calls through an interface of the user's.
type TestingT struct{ testing.TB }

// schedule is what the running schedule of Test knows of its t: Test
// runs one schedule at a time (Workers(1)), as cleanups assumes.
type schedule struct {
	env    *morpheus.Env
	failed bool
	fails  int        // failures so far (t.Run reports a subtest's own)
	task   *core.Task // the first failure's, with its location and message
	pc     uintptr
	msg    string
	subs   []*core.Task // the tasks running the subtests open now (Run), innermost last
	exit   int          // len(subs) when exitSubtest panicked, for Run to recover; 0: none
	ending bool         // the main task's t.FailNow unwinds the body (bodyExit)
	wound  bool         // the body has returned: its cleanups run (windDown)
}

// current is the schedule Test runs, nil outside one.
var current *schedule

// mine returns the running schedule if the caller runs in it, after
// checking, as TB does, that the test's body has not returned.
func (c *TestingT) mine() *schedule {
	task := core.CurrentTask()
	if task == nil {
		return nil
	}
	if task.Run().Main().Done() {
		panic("Log in goroutine after " + c.TB.Name() + " has completed")
	}
	return current
}

// log records a line of the schedule's log, located as testing does.
func (s *schedule) log(pc uintptr, msg string) {
	msg = strings.TrimSuffix(msg, "\n")
	s.env.Logf("%s: %s", core.Where(pc), strings.ReplaceAll(msg, "\n", "\n        "))
}

// fail marks the schedule failed, keeping the first failure's message.
func (s *schedule) fail(pc uintptr, msg string) {
	s.fails++
	if !s.failed {
		s.failed, s.task, s.pc, s.msg = true, core.CurrentTask(), pc, msg
	}
}

// fatal fails the schedule now, with its first failure; called by the
// task running a subtest, it ends that subtest only (see exitSubtest).
func (s *schedule) fatal(pc uintptr, msg string) {
	s.fail(pc, msg)
	s.exitSubtest()
	t := core.CurrentTask()
	if t == t.Run().Main() && !s.wound {
		// As go test's t.FailNow ends the test's goroutine, running its
		// deferred calls, then its cleanups: the body unwinds under
		// control (Test recovers bodyExit), and the schedule fails with
		// this failure once they are done (windDown).
		t.Run().Hold(core.Assertion, s.task, s.pc, s.msg)
		s.ending = true
		panic(bodyExit{})
	}
	t.Run().FailOf(core.Assertion, s.task, s.pc, s.msg)
}

// bodyExit is what the main task's t.FailNow panics with, for Test to
// recover.
type bodyExit struct{}

// runBody runs the test's body, which a t.FailNow of the main task ends.
func (s *schedule) runBody(t *testing.T, body func(t *testing.T)) {
	defer func() {
		if s.ending {
			s.ending = false
			if p := recover(); p != nil {
				if _, mine := p.(bodyExit); !mine {
					panic(p)
				}
			}
		}
	}()
	body(t)
}

// windDown runs, once the body has returned or a t.FailNow ended it, the
// cleanups of a schedule that failed, under control as go test runs them,
// then fails the schedule with its first failure (core.Run.Hold: also if
// the cleanups deadlock). A schedule that failed so used to end at once,
// and what the test's deferred calls and cleanups would do past their
// first op (a cluster's shutdown, then the removal of its directories) was
// never done.
func (s *schedule) windDown() {
	t := core.CurrentTask()
	if !s.failed || t == nil {
		return // nothing failed, or the schedule gave up on the task (the watchdog)
	}
	r := t.Run()
	r.Hold(core.Assertion, s.task, s.pc, s.msg)
	s.wound = true
	runCleanups()
	s.end()
}

// subtestExit is what exitSubtest panics with, for Run to recover.
type subtestExit struct{}

// exitSubtest ends the innermost subtest, if the calling task runs one:
// as go test ends a subtest's goroutine at its t.FailNow or t.SkipNow,
// and its parent goes on (the schedule still fails at the end of the
// body, by the failure fail marked). A goroutine of the test that calls
// t.FailNow is not the subtest's: its call fails the schedule at once.
func (s *schedule) exitSubtest() {
	if n := len(s.subs); n > 0 && s.subs[n-1] == core.CurrentTask() {
		s.exit = n
		panic(subtestExit{})
	}
}

// end fails the schedule if a t.Error or t.Fail marked it; it runs in
// the main task when the body has returned.
func (s *schedule) end() {
	if s.failed {
		core.CurrentTask().Run().FailOf(core.Assertion, s.task, s.pc, s.msg)
	}
}

// Log stands for t.Log.
//
//go:noinline
func (c *TestingT) Log(args ...any) {
	if s := c.mine(); s != nil {
		s.log(pastHelpers(goruntime.CallerPC()), fmt.Sprintln(args...))
		return
	}
	c.TB.Helper()
	c.TB.Log(args...)
}

// Logf stands for t.Logf.
//
//go:noinline
func (c *TestingT) Logf(format string, args ...any) {
	if s := c.mine(); s != nil {
		s.log(pastHelpers(goruntime.CallerPC()), fmt.Sprintf(format, args...))
		return
	}
	c.TB.Helper()
	c.TB.Logf(format, args...)
}

// Error stands for t.Error.
//
//go:noinline
func (c *TestingT) Error(args ...any) {
	if s := c.mine(); s != nil {
		pc, msg := pastHelpers(goruntime.CallerPC()), strings.TrimSuffix(fmt.Sprintln(args...), "\n")
		s.log(pc, msg)
		s.fail(pc, msg)
		return
	}
	c.TB.Helper()
	c.TB.Error(args...)
}

// Errorf stands for t.Errorf.
//
//go:noinline
func (c *TestingT) Errorf(format string, args ...any) {
	if s := c.mine(); s != nil {
		pc, msg := pastHelpers(goruntime.CallerPC()), fmt.Sprintf(format, args...)
		s.log(pc, msg)
		s.fail(pc, msg)
		return
	}
	c.TB.Helper()
	c.TB.Errorf(format, args...)
}

// Fatal stands for t.Fatal.
//
//go:noinline
func (c *TestingT) Fatal(args ...any) {
	if s := c.mine(); s != nil {
		pc, msg := pastHelpers(goruntime.CallerPC()), strings.TrimSuffix(fmt.Sprintln(args...), "\n")
		s.log(pc, msg)
		s.fatal(pc, msg)
	}
	c.TB.Helper()
	c.TB.Fatal(args...)
}

// Fatalf stands for t.Fatalf.
//
//go:noinline
func (c *TestingT) Fatalf(format string, args ...any) {
	if s := c.mine(); s != nil {
		pc, msg := pastHelpers(goruntime.CallerPC()), fmt.Sprintf(format, args...)
		s.log(pc, msg)
		s.fatal(pc, msg)
	}
	c.TB.Helper()
	c.TB.Fatalf(format, args...)
}

// Fail stands for t.Fail.
//
//go:noinline
func (c *TestingT) Fail() {
	if s := c.mine(); s != nil {
		s.fail(pastHelpers(goruntime.CallerPC()), "the test called t.Fail")
		return
	}
	c.TB.Fail()
}

// FailNow stands for t.FailNow.
//
//go:noinline
func (c *TestingT) FailNow() {
	if s := c.mine(); s != nil {
		s.fatal(pastHelpers(goruntime.CallerPC()), "the test called t.FailNow")
	}
	c.TB.FailNow()
}

// Failed stands for t.Failed: inside a schedule, whether this schedule
// failed (or t did, by a call T did not see).
func (c *TestingT) Failed() bool {
	if s := c.mine(); s != nil && s.failed {
		return true
	}
	return c.TB.Failed()
}

// Skip stands for t.Skip; the schedule's log keeps its message.
//
//go:noinline
func (c *TestingT) Skip(args ...any) {
	if s := c.mine(); s != nil {
		s.log(pastHelpers(goruntime.CallerPC()), fmt.Sprintln(args...))
		s.exitSubtest()
	}
	c.TB.Helper()
	c.TB.Skip(args...)
}

// Skipf stands for t.Skipf; the schedule's log keeps its message.
//
//go:noinline
func (c *TestingT) Skipf(format string, args ...any) {
	if s := c.mine(); s != nil {
		s.log(pastHelpers(goruntime.CallerPC()), fmt.Sprintf(format, args...))
		s.exitSubtest()
	}
	c.TB.Helper()
	c.TB.Skipf(format, args...)
}

// SkipNow stands for t.SkipNow.
func (c *TestingT) SkipNow() {
	if s := c.mine(); s != nil {
		s.exitSubtest()
	}
	c.TB.SkipNow()
}

// Helper stands for t.Helper: it marks its caller a test helper for the
// schedules (MarkHelper) as t.Helper does for go test.
//
//go:noinline
func (c *TestingT) Helper() {
	c.TB.Helper()
	markHelper(3)
}

// Cleanup stands for t.Cleanup (see Cleanup).
func (c *TestingT) Cleanup(f func()) { Cleanup(c.TB, f) }
