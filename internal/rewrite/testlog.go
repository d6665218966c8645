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

// testLog: x.Logf(…) (and the other methods above), where x is a
// *testing.T, testing.TB or any interface (a logger a test hands its t to),
// becomes __rt.TB(x).Logf(…), which panics as Go does when the call comes
// after the test's body returned (see rt.TB).
func (w *fileRewriter) testLog(c *ast.CallExpr, sel *ast.SelectorExpr) {
	if !testLogMethods[sel.Sel.Name] {
		return
	}
	s := w.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return
	}
	if _, iface := s.Recv().Underlying().(*types.Interface); !iface && testingType(s.Recv()) == "" {
		return
	}
	w.replace(sel.X, func(r *renderer, b *strings.Builder) {
		b.WriteString(rtName + ".TB(")
		w.sub(r, b, sel.X)
		b.WriteString(")")
	})
}
