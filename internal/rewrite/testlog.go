package rewrite

import (
	"go/ast"
	"go/types"
	"strings"
)

// testLogMethods are the methods of testing.TB that Go refuses to run from
// a goroutine once the test has completed.
var testLogMethods = set("Log", "Logf", "Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow",
	"Skip", "Skipf", "SkipNow")

// testingReceivers are package testing's types whose calls of the methods
// above (and Failed) go through rt.T, which keeps each schedule's log and
// failure messages apart.
var testingReceivers = set("T", "B", "F", "TB")

// testLog: x.Logf(…) (and the other methods above), where x is a
// *testing.T, *testing.B, *testing.F or testing.TB, becomes
// __rt.T(x).Logf(…), which records the message in the schedule's log and
// failure (see rt.T; x.Failed() too); where x is any other interface (a
// logger a test hands its t to) it becomes __rt.TB(x).Logf(…). Both panic
// as Go does when the call comes after the test's body returned.
func (w *fileRewriter) testLog(c *ast.CallExpr, sel *ast.SelectorExpr) {
	m := sel.Sel.Name
	if m == "Helper" {
		w.helper(c, sel)
		return
	}
	if !testLogMethods[m] && m != "Failed" {
		return
	}
	s := w.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return
	}
	fn := ".TB("
	if testingReceivers[testingType(s.Recv())] {
		fn = ".T("
	} else if _, iface := s.Recv().Underlying().(*types.Interface); !iface || m == "Failed" {
		return
	}
	w.replace(sel.X, func(r *renderer, b *strings.Builder) {
		b.WriteString(rtName + fn)
		w.sub(r, b, sel.X)
		b.WriteString(")")
	})
}

// helper: x.Helper(), x a *testing.T, *testing.B, *testing.F or
// testing.TB, becomes x.Helper(); __rt.MarkHelper(): package testing still
// marks the calling function a helper, for the runs outside a schedule, and
// rt does for the schedules, whose log lines and failures it locates (see
// rt.MarkHelper). Helper has no results, so the call is a statement; a
// deferred t.Helper() is left as it is. Where x is any other interface (an
// assertion library's, which calls Helper on its TestingT when it has one)
// it becomes __rt.TB(x).Helper(), which marks the caller when x holds the
// test's t (see rt.TB).
func (w *fileRewriter) helper(c *ast.CallExpr, sel *ast.SelectorExpr) {
	s := w.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal || w.deferred[c] || len(c.Args) != 0 {
		return
	}
	if !testingReceivers[testingType(s.Recv())] {
		if _, iface := s.Recv().Underlying().(*types.Interface); iface {
			w.replace(sel.X, func(r *renderer, b *strings.Builder) {
				b.WriteString(rtName + ".TB(")
				w.sub(r, b, sel.X)
				b.WriteString(")")
			})
		}
		return
	}
	w.replace(c, func(r *renderer, b *strings.Builder) {
		w.sub(r, b, c)
		b.WriteString("; " + rtName + ".MarkHelper()")
	})
}
