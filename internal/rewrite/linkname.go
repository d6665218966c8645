package rewrite

import (
	"go/ast"
	"go/types"
	"strings"
)

// linkedRuntime are the runtime's clocks, generators and hash that code
// reaches by //go:linkname, a declaration without a body (a monotonic
// clock package: func nanotime() int64 linked to runtime.nanotime; a
// cache's func memhash(p unsafe.Pointer, h, s uintptr) uintptr linked to
// runtime.memhash), with the signature the declaration must have and the
// rt function that stands for it under control: the virtual clock, the
// schedule's generator, a hash with no per-process seed. Each of the
// runtime's own is outside any schedule: real time, or randomness drawn
// per process (memhash's seed), which a replay in a fresh process does
// not meet again.
var linkedRuntime = map[string]struct{ sig, fn string }{
	"runtime.nanotime":   {"func() int64", "Nanotime"},
	"runtime.cputicks":   {"func() int64", "Nanotime"},
	"runtime.fastrand":   {"func() uint32", "RandUint32"},
	"runtime.cheaprand":  {"func() uint32", "RandUint32"},
	"runtime.fastrand64": {"func() uint64", "RandUint64"},
	"runtime.memhash":    {"func(unsafe.Pointer, uintptr, uintptr) uintptr", "Memhash"},
}

// linkname handles a //go:linkname directive: one that names a runtime
// function of linkedRuntime for a bodyless function of this file with its
// signature gets that function a body calling rt's instead (the directive
// is dropped, and so is a //go:noescape of it, their lines kept empty), so
// that code measuring time or drawing randomness by it sees the schedule's
// clock and generator; any other is an issue.
func (w *fileRewriter) linkname(c *ast.Comment) {
	f := strings.Fields(c.Text)
	if len(f) == 3 {
		if l, ok := linkedRuntime[f[2]]; ok {
			if decl := w.bodylessFunc(f[1]); decl != nil {
				if args, ok := w.forwards(decl, l.sig); ok {
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
						b.WriteString(" { return " + rtName + "." + l.fn + "(" + args + ") }")
					}})
					return
				}
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

// forwards tells whether decl has signature sig (its parameters' and
// results' types, without names), and returns its parameters' names, to
// pass on: all of them must be named.
func (w *fileRewriter) forwards(decl *ast.FuncDecl, sig string) (string, bool) {
	obj, _ := w.info.Defs[decl.Name].(*types.Func)
	if obj == nil {
		return "", false
	}
	s := obj.Type().(*types.Signature)
	var params, names []string
	for i := range s.Params().Len() {
		p := s.Params().At(i)
		if p.Name() == "" || p.Name() == "_" {
			return "", false
		}
		params = append(params, types.TypeString(p.Type(), nil))
		names = append(names, p.Name())
	}
	var results []string
	for i := range s.Results().Len() {
		results = append(results, types.TypeString(s.Results().At(i).Type(), nil))
	}
	got := "func(" + strings.Join(params, ", ") + ")"
	if len(results) > 0 {
		got += " " + strings.Join(results, ", ")
	}
	return strings.Join(names, ", "), got == sig && !s.Variadic() && len(results) <= 1
}

// dropComment removes comment c, keeping its line.
func (w *fileRewriter) dropComment(c *ast.Comment) {
	w.edits = append(w.edits, edit{start: w.off(c.Pos()), end: w.off(c.End()), emit: func(*renderer, *strings.Builder) {}})
}
