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
