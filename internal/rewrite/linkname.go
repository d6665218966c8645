package rewrite

import (
	"go/ast"
	"go/types"
	"strings"
)

// linkedClocks are the runtime's clocks that old code reaches by
// //go:linkname, a declaration without a body (a monotonic clock package:
// func nanotime() int64 linked to runtime.nanotime), and the rt function
// that reads the same clock under control.
var linkedClocks = map[string]string{
	"runtime.nanotime": "Nanotime",
}

// linkname handles a //go:linkname directive: one that names a runtime
// clock for a bodyless func() int64 of this file gets that function a body
// reading rt's clock instead (the directive is dropped, and so is a
// //go:noescape of it, their lines kept empty), so that code measuring time by it sees the virtual clock the
// rest of the schedule runs on; any other is an issue.
func (w *fileRewriter) linkname(c *ast.Comment) {
	f := strings.Fields(c.Text)
	if len(f) == 3 {
		if fn, ok := linkedClocks[f[2]]; ok {
			if decl := w.bodylessFunc(f[1]); decl != nil && w.returnsInt64(decl) {
				w.dropComment(c)
				if decl.Doc != nil {
					// Directives of a bodyless function only (//go:noescape)
					// would not build with a body.
					for _, d := range decl.Doc.List {
						if d != c && strings.HasPrefix(d.Text, "//go:noescape") {
							w.dropComment(d)
						}
					}
				}
				end := w.off(decl.End())
				w.edits = append(w.edits, edit{start: end, end: end, emit: func(_ *renderer, b *strings.Builder) {
					b.WriteString(" { return " + rtName + "." + fn + "() }")
				}})
				return
			}
		}
	}
	w.issue(c.Pos(), "//go:linkname: code reached through it is not rewritten")
}

// bodylessFunc is the file's function declared without a body under name.
func (w *fileRewriter) bodylessFunc(name string) *ast.FuncDecl {
	for _, d := range w.file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body == nil && fd.Name.Name == name {
			return fd
		}
	}
	return nil
}

// returnsInt64 tells whether decl is a func() int64.
func (w *fileRewriter) returnsInt64(decl *ast.FuncDecl) bool {
	obj, _ := w.info.Defs[decl.Name].(*types.Func)
	if obj == nil {
		return false
	}
	sig := obj.Type().(*types.Signature)
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false
	}
	b, ok := sig.Results().At(0).Type().(*types.Basic)
	return ok && b.Kind() == types.Int64
}

// dropComment removes comment c, keeping its line.
func (w *fileRewriter) dropComment(c *ast.Comment) {
	w.edits = append(w.edits, edit{start: w.off(c.Pos()), end: w.off(c.End()), emit: func(*renderer, *strings.Builder) {}})
}
