package rewrite

import (
	"go/ast"
	"strings"
)

// quickCall wraps the config argument of testing/quick's Check and
// CheckEqual in rt.QuickConfig, which gives a config without a generator
// one seeded from the schedule: testing/quick would seed its own from the
// real clock, inside the standard library.
func (w *fileRewriter) quickCall(c *ast.CallExpr, sel *ast.SelectorExpr) bool {
	obj := w.pkgObj(sel)
	if obj == nil || obj.Pkg().Path() != "testing/quick" || (obj.Name() != "Check" && obj.Name() != "CheckEqual") || len(c.Args) == 0 {
		return false
	}
	cfg := c.Args[len(c.Args)-1]
	qual := sel.X.(*ast.Ident).Name // pkgObj: a package name
	w.replace(cfg, func(r *renderer, b *strings.Builder) {
		b.WriteString(rtName + ".QuickConfig[" + qual + ".Config](")
		w.sub(r, b, cfg)
		b.WriteString(")")
	})
	return true
}
