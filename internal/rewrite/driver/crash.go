package driver

import (
	"path/filepath"
	"slices"
	"strings"
)

// A test that runs outside control (rt.RealTest: once, as go test runs it)
// may leave goroutines behind that panic after its body returned, or panic
// while it runs: Go then ends the whole process. go test reports the test
// that was running as failed, with the panic; so does the driver: the
// test in whose framed output the process's panic appears fails with it,
// its record so far (written when its body returned) notwithstanding.

// crash is a test process's fatal panic: the test it happened in (its
// framing), the panic's line and where it was raised.
type crash struct {
	test     string // the top-level test, "" if none was running
	line     string // "panic: send on closed channel"
	location string // file.go:170, the first frame of the panicking goroutine outside Go and morpheus
}

// findCrash finds the fatal panic in a test process's framed output.
func findCrash(out string) (crash, bool) {
	ix := newOutputIndex()
	ix.write([]byte(out))
	ix.write([]byte("\n")) // its last line, if it does not end
	return ix.findCrashIn()
}

// panicLocation is the first frame of the goroutine stack in lines (Go's
// traceback: a function's line, then a tab and its file:line) whose
// function is not of the standard library or of morpheus.
func panicLocation(lines []string) string {
	for i := 0; i+1 < len(lines); i++ {
		fn, at := lines[i], lines[i+1]
		if fn == "" && i > 0 {
			return "" // the end of the panicking goroutine's stack
		}
		if !strings.HasPrefix(at, "\t") || strings.HasPrefix(fn, "\t") || strings.HasPrefix(fn, "created by ") {
			continue
		}
		if isProgramFunc(fn) {
			file, _, _ := strings.Cut(strings.TrimSpace(at), " ")
			return filepath.Base(file)
		}
	}
	return ""
}

// isProgramFunc reports whether a traceback's function line names a
// function of the program: not of a standard-library package (whose path
// has no dot in its first element) and not of morpheus.
func isProgramFunc(fn string) bool {
	if i := strings.LastIndexByte(fn, '('); i > 0 && strings.HasSuffix(fn, ")") {
		fn = fn[:i] // the arguments
	}
	if strings.HasPrefix(fn, "github.com/morpheus-go/morpheus/") || strings.HasPrefix(fn, "github.com/morpheus-go/morpheus.") {
		return false
	}
	first, _, slash := strings.Cut(fn, "/")
	if !slash {
		return false // "runtime.gopanic", "main.main"
	}
	return strings.Contains(first, ".")
}

// failCrashed fails the test that ran outside control in whose output
// process j's crash appears, if it is not handed over yet: one whose record
// says it passed (its goroutines panicked once its body had returned), or
// one the process never reported (they panicked while it ran). Its failure
// is of kind real, at the panic's location, its message the panic's, with
// the test's output. It reports whether it failed a test.
func (c *collector) failCrashed(j int) bool {
	o := c.outputs[j]
	cr, ok := o.findCrash()
	if !ok || cr.test == "" {
		return false
	}
	e := c.byName[cr.test]
	if e == nil {
		why := o.realWhy(cr.test)
		if why == "" {
			return false // under control: the process's failure says it
		}
		e = &collected{t: &TestSummary{Name: cr.test, Schedules: 1, Real: why, proc: j}, reports: c.jobs}
		c.byName[cr.test] = e
		c.order = append(c.order, cr.test)
		c.p.Tests = append(c.p.Tests, e.t)
	}
	t := e.t
	if t.Failure != "" || t.Real == "" || slices.Index(c.order, cr.test) < c.next {
		return false
	}
	t.Kind, t.Location, t.Message, t.proc = "real", cr.location, cr.line, j
	t.Failure = "morpheus: " + t.Name + " failed on the real network, not under control (" + t.Real + "): the test process crashed: " + cr.line + "; its output:"
	return true
}

// realLog begins the line rt.RealTest logs as a test starts outside
// control; what it runs into follows.
const realLog = "morpheus: runs once on the real network and real time, not under control: "

// realWhy is what a test's output says made it run outside control, "" if
// it ran under control.
func realWhy(out string) string {
	_, rest, ok := strings.Cut(out, realLog)
	if !ok {
		return ""
	}
	why, _, _ := strings.Cut(rest, "\n")
	return strings.TrimSpace(why)
}
