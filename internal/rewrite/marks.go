package rewrite

import (
	"fmt"
	"go/ast"
	"hash/fnv"
	"path/filepath"
	"strconv"
	"strings"
)

// Function marks (FileOptions.Marks): each function declared in a file of
// the module's own packages, and each closure inside it, sets the
// function's mark at its entry, __rt.Mark(&__marksN[i]), a store into an
// array of the file's that the file registers with rt.Marks; rt puts the
// functions a test marked in its record (rt/marks.go). The mark goes on
// the line of the body's brace and the array after the file's source, on
// line 1, so no position moves. A closure's body is part of its enclosing
// declaration: it marks that declaration.

// MarkKey returns the name a function declaration's mark has, "NAME" or
// "RECV.NAME" (the receiver's type name, without pointer or type
// parameters), and whether it has one: not init (it runs before any test,
// its change is no body's), not _, not a function without a body, and not
// one with a //go: directive (nosplit and its kind may not call).
func MarkKey(f *ast.FuncDecl) (string, bool) {
	if f.Body == nil || f.Name.Name == "init" || f.Name.Name == "_" {
		return "", false
	}
	if f.Doc != nil {
		for _, c := range f.Doc.List {
			if strings.HasPrefix(c.Text, "//go:") {
				return "", false
			}
		}
	}
	if f.Recv == nil || len(f.Recv.List) != 1 {
		return f.Name.Name, true
	}
	t := f.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.ParenExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		}
		break
	}
	id, ok := t.(*ast.Ident)
	if !ok {
		return "", false
	}
	return id.Name + "." + f.Name.Name, true
}

// marks adds the mark of each function of the file and returns the
// declarations that go after its source ("" for none).
func (w *fileRewriter) marks() string {
	var names []string
	pkg := ""
	array := fmt.Sprintf("__marks%08x", fileHash(filepath.Base(w.tf.Name())))
	for _, d := range w.file.Decls {
		f, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		key, ok := MarkKey(f)
		if !ok {
			continue
		}
		if obj := w.info.Defs[f.Name]; obj != nil && obj.Pkg() != nil {
			pkg = obj.Pkg().Path()
		}
		stmt := fmt.Sprintf("%s.Mark(&%s[%d]);", rtName, array, len(names))
		names = append(names, key)
		w.markAt(f.Body, stmt)
		ast.Inspect(f.Body, func(n ast.Node) bool {
			if l, ok := n.(*ast.FuncLit); ok {
				w.markAt(l.Body, stmt)
			}
			return true
		})
	}
	if len(names) == 0 || pkg == "" {
		return ""
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = strconv.Quote(n)
	}
	return fmt.Sprintf("var %s [%d]uint32\nvar _ = %s.Marks(%q, []string{%s}, %s[:])\n",
		array, len(names), rtName, pkg, strings.Join(quoted, ", "), array)
}

// markAt puts stmt right after body's opening brace. The edit replaces the
// brace and renders its own span, so an edit of the same brace added later
// (netNote's) is kept inside it.
func (w *fileRewriter) markAt(body *ast.BlockStmt, stmt string) {
	at := w.off(body.Lbrace)
	w.edits = append(w.edits, edit{start: at, end: at + 1, emit: func(r *renderer, b *strings.Builder) {
		r.span(b, at, at+1)
		b.WriteString(" " + stmt)
	}})
}

func fileHash(name string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(name))
	return h.Sum32()
}
