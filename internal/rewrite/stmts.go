package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// goStmt: go f(a, b) becomes
//
//	{ __f1 := f; __a2 := a; __a3 := b; __rt.Go(func() { __f1(__a2, __a3) }) }
//
// which evaluates the function and its arguments where the go statement
// does. A function literal without arguments is passed as it is; package
// functions and constants need no binding (and generic functions, whose
// instantiation is inferred from the arguments, cannot have one).
func (w *fileRewriter) goStmt(g *ast.GoStmt) {
	c := g.Call
	if lit, ok := ast.Unparen(c.Fun).(*ast.FuncLit); ok && len(c.Args) == 0 {
		w.replace(g, func(r *renderer, b *strings.Builder) {
			b.WriteString(rtName + ".Go(")
			w.sub(r, b, lit)
			b.WriteString(")")
		})
		return
	}
	fname := ""
	if !w.stableFunc(c.Fun) {
		fname = w.fresh("f")
	}
	args := make([][]string, len(c.Args)) // the names bound per argument, nil: inline
	for i, a := range c.Args {
		tv := w.info.Types[a]
		switch {
		case tv.Value != nil || tv.IsNil():
		case isTuple(tv.Type):
			for range tv.Type.(*types.Tuple).Len() {
				args[i] = append(args[i], w.fresh("a"))
			}
		default:
			args[i] = []string{w.fresh("a")}
		}
	}
	builtin := w.builtin(c.Fun)
	w.replace(g, func(r *renderer, b *strings.Builder) {
		b.WriteString("{ ")
		if fname != "" {
			fmt.Fprintf(b, "%s := ", fname)
			w.sub(r, b, c.Fun)
			b.WriteString("; ")
		}
		for i, names := range args {
			if names != nil {
				fmt.Fprintf(b, "%s := ", strings.Join(names, ", "))
				w.sub(r, b, c.Args[i])
				b.WriteString("; ")
			}
		}
		b.WriteString(rtName + ".Go(func() { ")
		switch {
		case fname != "":
			b.WriteString(fname)
		case builtin == "close":
			b.WriteString(rtName + ".Close")
		default:
			w.sub(r, b, c.Fun)
		}
		b.WriteString("(")
		for i, names := range args {
			if i > 0 {
				b.WriteString(", ")
			}
			if names != nil {
				b.WriteString(strings.Join(names, ", "))
			} else {
				w.sub(r, b, c.Args[i])
			}
		}
		if c.Ellipsis.IsValid() {
			b.WriteString("...")
		}
		b.WriteString(") }) }")
	})
}

func isTuple(t types.Type) bool {
	tt, ok := t.(*types.Tuple)
	return ok && tt.Len() != 1
}

// stableFunc reports whether evaluating e early or late gives the same
// function: a package-level function (possibly instantiated) or a builtin.
func (w *fileRewriter) stableFunc(e ast.Expr) bool {
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.IndexExpr:
		e = x.X
	case *ast.IndexListExpr:
		e = x.X
	}
	var id *ast.Ident
	switch x := e.(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		if w.pkgObj(x) == nil {
			return false
		}
		id = x.Sel
	default:
		return false
	}
	switch o := w.info.Uses[id].(type) {
	case *types.Builtin:
		return true
	case *types.Func:
		return o.Type().(*types.Signature).Recv() == nil
	}
	return false
}

// rangeChan: for k := range ch { becomes
//
//	for __c1 := ch; ; { k, __ok2 := __rt.RecvOK(__c1); if !__ok2 { break };
//
// on the same line, so the body keeps its lines.
func (w *fileRewriter) rangeChan(s *ast.RangeStmt) {
	ch, ok := w.fresh("c"), w.fresh("ok")
	w.edits = append(w.edits, edit{start: w.off(s.For), end: w.off(s.Body.Lbrace) + 1,
		emit: func(r *renderer, b *strings.Builder) {
			fmt.Fprintf(b, "for %s := ", ch)
			w.sub(r, b, s.X)
			b.WriteString("; ; { ")
			switch {
			case s.Key == nil || isBlank(s.Key):
				fmt.Fprintf(b, "if _, %s := %s.RecvOK(%s); !%s { break }; ", ok, rtName, ch, ok)
			case s.Tok == token.DEFINE:
				w.sub(r, b, s.Key)
				fmt.Fprintf(b, ", %s := %s.RecvOK(%s); if !%s { break }; ", ok, rtName, ch, ok)
			default:
				v := w.fresh("v")
				fmt.Fprintf(b, "%s, %s := %s.RecvOK(%s); if !%s { break }; ", v, ok, rtName, ch, ok)
				w.sub(r, b, s.Key)
				fmt.Fprintf(b, " = %s; ", v)
			}
		}})
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// testFunc wraps the body of func TestX(t *testing.T) in __rt.Test, unless
// it uses morpheus itself (see CheckTests). A test whose parameter has no
// name, or the blank one (func TestX(_ *testing.T)), gets one, for the
// wrapper to hand on.
func (w *fileRewriter) testFunc(f *ast.FuncDecl) {
	if f.Recv != nil || f.Body == nil || !isTestName(f.Name.Name) || w.checkTests[w.info.Defs[f.Name]] {
		return
	}
	ps := f.Type.Params.List
	if len(ps) != 1 || len(ps[0].Names) > 1 {
		return
	}
	if testingType(w.typeOf(ps[0].Type)) != "T" {
		return
	}
	if _, ok := w.typeOf(ps[0].Type).(*types.Pointer); !ok {
		return
	}
	typ := string(w.src[w.off(ps[0].Type.Pos()):w.off(ps[0].Type.End())])
	var t, inner string
	switch {
	case len(ps[0].Names) == 0:
		t = w.fresh("t")
		at := w.off(ps[0].Type.Pos())
		w.edits = append(w.edits, edit{start: at, end: at, emit: func(_ *renderer, b *strings.Builder) {
			b.WriteString(t + " ")
		}})
		inner = typ
	case ps[0].Names[0].Name == "_":
		t = w.fresh("t")
		id := ps[0].Names[0]
		w.edits = append(w.edits, edit{start: w.off(id.Pos()), end: w.off(id.End()), emit: func(_ *renderer, b *strings.Builder) {
			b.WriteString(t)
		}})
		inner = "_ " + typ
	default:
		t = ps[0].Names[0].Name
		inner = t + " " + typ
	}
	head := fmt.Sprintf("{ %s.Test(%s, func(%s) {", rtName, t, inner)
	if why, ok := w.realNet[ObjectKey(w.info.Defs[f.Name])]; ok {
		w.issue(f.Name.Pos(), "%s runs once on the real network and real time, not under control: %s", f.Name.Name, why)
		head = fmt.Sprintf("{ %s.RealTest(%s, %q, func(%s) {", rtName, t, why, inner)
	} else if why, ok := w.mainNet[ObjectKey(w.info.Defs[f.Name])]; ok {
		w.issue(f.Name.Pos(), "%s runs once on the real network and real time, not under control, if the listen or dial runs before the tests: %s", f.Name.Name, why)
		head = fmt.Sprintf("{ %s.MainNetTest(%s, %q, %q, func(%s) {", rtName, t, testBinary(w.info.Defs[f.Name].Pkg()), why, inner)
	}
	w.edits = append(w.edits, edit{start: w.off(f.Body.Lbrace), end: w.off(f.Body.Rbrace) + 1,
		emit: func(r *renderer, b *strings.Builder) {
			b.WriteString(head)
			r.span(b, w.off(f.Body.Lbrace)+1, w.off(f.Body.Rbrace))
			b.WriteString("}) }")
		}})
}

// netNote makes a function whose own body listens, dials or serves
// (RealNet.Sites) note at its entry that it ran, rt.NetReached, and an init
// function or TestMain that may reach one (RealNet.NetRoots) open, at its
// entry, the window in which that counts, rt.RootRuns: a site's function
// called in it before the tests start sends the tests that
// rt.MainNetTest wraps to the real network. Tests are left alone (they
// run after that decision).
func (w *fileRewriter) netNote(f *ast.FuncDecl) {
	name := f.Name.Name
	if f.Body == nil || f.Recv == nil && isTestName(name) && name != "TestMain" {
		return
	}
	key := ObjectKey(w.info.Defs[f.Name])
	var note string
	if f.Recv == nil && (name == "init" || name == "TestMain") && w.netRoots[key] {
		note += fmt.Sprintf(" defer %s.RootRuns(%q)();", rtName, testBinary(w.info.Defs[f.Name].Pkg()))
	}
	if w.netSites[key] {
		note += " " + rtName + ".NetReached();"
	}
	if note == "" {
		return
	}
	at := w.off(f.Body.Lbrace)
	w.edits = append(w.edits, edit{start: at, end: at + 1, emit: func(_ *renderer, b *strings.Builder) {
		b.WriteString("{" + note)
	}})
}

// testBinary names the test binary of package p: its path, without the
// _test of an external test package (p and p_test are one binary).
func testBinary(p *types.Package) string { return strings.TrimSuffix(p.Path(), "_test") }

// isTestName reports whether name is a test's: Test, or Test followed by
// something that does not start with a lower-case letter.
func isTestName(name string) bool {
	if !strings.HasPrefix(name, "Test") {
		return false
	}
	if len(name) == 4 {
		return true
	}
	c := name[4]
	return !(c >= 'a' && c <= 'z')
}
