package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// walk collects the edits and issues of the file.
func (w *fileRewriter) walk() {
	w.commaOK = map[*ast.UnaryExpr]bool{}
	w.inList = map[ast.Stmt]bool{}
	w.deferred = map[*ast.CallExpr]bool{}
	w.dialerCalls = map[*ast.SelectorExpr]bool{}
	w.okAssert = map[*ast.TypeAssertExpr]bool{}
	for _, imp := range w.file.Imports {
		if imp.Path.Value == `"C"` {
			w.issue(imp.Pos(), "cgo: C code and its threads run outside control")
		}
	}
	for _, cg := range w.file.Comments {
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:linkname") {
				w.linkname(c)
			}
		}
	}
	w.inspect(w.file)
	w.memory()
}

// inspect collects the edits of the nodes under n.
func (w *fileRewriter) inspect(root ast.Node) {
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			w.list(n.List)
		case *ast.CaseClause:
			w.list(n.Body)
		case *ast.CommClause:
			w.list(n.Body)
		case *ast.FuncDecl:
			if w.test {
				w.testFunc(n)
			}
			w.netNote(n)
		case *ast.DeferStmt:
			w.deferred[n.Call] = true
		case *ast.GoStmt:
			w.deferred[n.Call] = true
			w.goStmt(n)
		case *ast.SendStmt:
			w.send(n)
		case *ast.AssignStmt:
			if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
				if u := recvOf(n.Rhs[0]); u != nil {
					w.commaOK[u] = true
					w.recvNamedBool(n)
				}
				markCommaOK(w.okAssert, n.Rhs[0])
			}
		case *ast.ValueSpec:
			if len(n.Names) == 2 && len(n.Values) == 1 {
				if u := recvOf(n.Values[0]); u != nil {
					w.commaOK[u] = true
				}
				markCommaOK(w.okAssert, n.Values[0])
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				w.recv(n)
			}
		case *ast.CallExpr:
			w.call(n)
		case *ast.RangeStmt:
			if w.isChan(n.X) {
				w.rangeChan(n)
			}
			w.rangeMap(n)
		case *ast.SelectStmt:
			w.selectStmt(n)
			return false // selectStmt walks its parts
		case *ast.ExprStmt:
			if w.atomicStmt(n) {
				return false
			}
		case *ast.SelectorExpr:
			w.selector(n)
		case *ast.TypeAssertExpr:
			w.assertion(n)
		}
		return true
	})
}

// send: ch <- v becomes __rt.Send(ch, v).
func (w *fileRewriter) send(s *ast.SendStmt) {
	w.replace(s, func(r *renderer, b *strings.Builder) { w.sendCall(r, b, "Send", s) })
}

// sendCall writes __rt.<fn>(ch, v), or, when v's type is not the channel's
// element type (a concrete value sent on a channel of interfaces), the
// form __rt.<fn>Fn(ch)(v), which infers the element type from the channel
// alone and converts v as an assignment does.
func (w *fileRewriter) sendCall(r *renderer, b *strings.Builder, fn string, s *ast.SendStmt) {
	curried := false
	if ch, ok := coreType(w.typeOf(s.Chan)).(*types.Chan); ok {
		tv := w.info.Types[s.Value]
		curried = tv.Type != nil && tv.Value == nil && !tv.IsNil() && !types.Identical(tv.Type, ch.Elem())
	}
	if curried {
		b.WriteString(rtName + "." + fn + "Fn(")
		w.sub(r, b, s.Chan)
		b.WriteString(")(")
	} else {
		b.WriteString(rtName + "." + fn + "(")
		w.sub(r, b, s.Chan)
		b.WriteString(", ")
	}
	w.sub(r, b, s.Value)
	b.WriteString(")")
}

// recvNamedBool: v, ok = <-ch where ok's type is a named boolean type
// becomes { __vN, __okN := __rt.RecvOK(ch); v, ok = __vN, __okN == true }: the
// receive's ok is an untyped boolean, which ok takes, and RecvOK's a bool,
// which it does not; a comparison is untyped. Where a statement list does not
// allow two statements (an if, for or switch statement's init, a for
// statement's post), it becomes v, ok = __rt.RecvOKAs(ch, ok): ok's value
// only gives RecvOKAs its type, so ok is written as it stands, and only when
// reading it has no effect (no call, no receive in it).
func (w *fileRewriter) recvNamedBool(a *ast.AssignStmt) {
	if a.Tok != token.ASSIGN || !w.namedBool(a.Lhs[1]) {
		return
	}
	if !w.inList[a] {
		if u := recvOf(a.Rhs[0]); u != nil && pure(a.Lhs[1]) {
			like := string(w.src[w.off(a.Lhs[1].Pos()):w.off(a.Lhs[1].End())])
			w.replace(u, func(r *renderer, b *strings.Builder) {
				b.WriteString(rtName + ".RecvOKAs(")
				w.sub(r, b, u.X)
				b.WriteString(", " + like + ")")
			})
		}
		return
	}
	v, ok := w.fresh("v"), w.fresh("ok")
	w.replace(a, func(r *renderer, b *strings.Builder) {
		// A block of its own: a goto may jump over the statement.
		b.WriteString("{ " + v + ", " + ok + " := ")
		w.sub(r, b, a.Rhs[0])
		b.WriteString("; ")
		w.sub(r, b, a.Lhs[0])
		b.WriteString(", ")
		w.sub(r, b, a.Lhs[1])
		b.WriteString(" = " + v + ", " + ok + " == true }")
	})
}

// pure reports whether evaluating e has no effect: no call, no receive.
func pure(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr, *ast.FuncLit:
			ok = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// recv: <-ch becomes __rt.Recv(ch), or __rt.RecvOK(ch) in v, ok := <-ch.
func (w *fileRewriter) recv(u *ast.UnaryExpr) {
	fn := ".Recv("
	if w.commaOK[u] {
		fn = ".RecvOK("
	}
	w.replace(u, func(r *renderer, b *strings.Builder) {
		b.WriteString(rtName + fn)
		w.sub(r, b, u.X)
		b.WriteString(")")
	})
}

// call rewrites close, len and cap of channels, and the methods of
// testing.T that start goroutines or defer work; atomics are calls too.
func (w *fileRewriter) call(c *ast.CallExpr) {
	if w.sizeof(c) || w.mmap(c) {
		return
	}
	switch name := w.builtin(c.Fun); name {
	case "close":
		w.wrapCall(c, rtName+".Close(", nil)
		return
	case "make":
		if len(c.Args) >= 1 && w.isChan(c.Args[0]) {
			w.makeChan(c)
		}
		return
	case "len":
		// cap needs no op: a channel's capacity never changes.
		if len(c.Args) == 1 && w.isChan(c.Args[0]) {
			fn := ".Len("
			if ch, _ := coreType(w.typeOf(c.Args[0])).(*types.Chan); ch != nil && ch.Dir() == types.SendOnly {
				fn = ".LenSend("
			}
			w.wrapCall(c, rtName+fn, nil)
		}
		return
	}
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	if w.atomicCall(c, sel) {
		return
	}
	if w.reflectLen(c, sel) {
		return
	}
	if w.dialerCall(c, sel) || w.quickCall(c, sel) {
		return
	}
	w.testLog(c, sel)
	if w.cleanupStop(c, sel) {
		return
	}
	if !w.test {
		return
	}
	s := w.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return
	}
	recv := testingType(s.Recv())
	switch m := sel.Sel.Name; {
	case recv == "T" && (m == "Run" || m == "Parallel"), (recv == "T" || recv == "TB" || recv == "B") && m == "Cleanup":
		w.wrapCall(c, rtName+"."+m+"(", sel.X)
	}
}

// cleanupStop rewrites c.Stop() of a runtime.Cleanup, which may be one a
// schedule keeps (rt.AddCleanup), to rt.StopCleanup(c).
func (w *fileRewriter) cleanupStop(c *ast.CallExpr, sel *ast.SelectorExpr) bool {
	s := w.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal || sel.Sel.Name != "Stop" {
		return false
	}
	n, ok := s.Recv().(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "runtime" || n.Obj().Name() != "Cleanup" {
		return false
	}
	w.wrapCall(c, rtName+".StopCleanup(", sel.X)
	return true
}

// testingType returns the name of t's type if it is one of package
// testing's (T, B, TB), through a pointer.
func testingType(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "testing" {
		return ""
	}
	return n.Obj().Name()
}

// wrapCall replaces call c by head + [first, ] + c's arguments + ")".
func (w *fileRewriter) wrapCall(c *ast.CallExpr, head string, first ast.Expr) {
	w.replace(c, func(r *renderer, b *strings.Builder) {
		b.WriteString(head)
		if first != nil {
			w.sub(r, b, first)
			if len(c.Args) > 0 {
				b.WriteString(", ")
			}
		}
		if len(c.Args) > 0 {
			r.span(b, w.off(c.Args[0].Pos()), w.off(c.Rparen))
		}
		b.WriteString(")")
	})
}

// selector redirects sync, time, context and runtime names to package rt,
// and reports the unsupported ones.
func (w *fileRewriter) selector(sel *ast.SelectorExpr) {
	w.dialerValue(sel)
	if w.concreteSel(sel) {
		return
	}
	obj := w.pkgObj(sel)
	if obj == nil {
		return
	}
	path, name := obj.Pkg().Path(), obj.Name()
	if to, ok := renamed[path][name]; ok {
		if _, isFunc := obj.(*types.Func); isFunc {
			w.replace(sel, func(r *renderer, b *strings.Builder) {
				b.WriteString(rtName + "." + to)
			})
			return
		}
	}
	if redirect[path][name] {
		w.replace(sel, func(r *renderer, b *strings.Builder) {
			b.WriteString(rtName + "." + name)
		})
		if note, ok := noted[path][name]; ok {
			w.issue(sel.Pos(), "%s.%s: %s", path, name, note)
		}
		return
	}
	if why, ok := unsupported[path][name]; ok {
		w.issue(sel.Pos(), "%s.%s: %s", path, name, why)
	}
}

// assertion reports type assertions to the concrete connection and
// listener types of package net, which the in-memory network's are not
// (its addresses are package net's): the v, ok form takes its other path
// under control; the other would panic, so a test that reaches it runs on
// the real network (realnet.go).
func (w *fileRewriter) assertion(a *ast.TypeAssertExpr) {
	name := netConcreteAssert(w.info, a)
	if name == "" {
		return
	}
	if w.okAssert[a] {
		w.issue(a.Pos(), "type assertion to net.%s: the in-memory network's connections and listeners are not one (ok is false under control)", name)
		return
	}
	w.issue(a.Pos(), "type assertion to net.%s: the in-memory network's connections and listeners are not one: the real network, not controlled (a test that reaches it runs on the real network)", name)
}

// netConcreteAssert returns the net type a asserts to if it is a concrete
// connection or listener type ("TCPListener"), "" otherwise.
func netConcreteAssert(info *types.Info, a *ast.TypeAssertExpr) string {
	if a.Type == nil {
		return ""
	}
	tv, ok := info.Types[a.Type]
	if !ok {
		return ""
	}
	t := tv.Type
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "net" {
		return ""
	}
	switch name := n.Obj().Name(); name {
	case "TCPConn", "UDPConn", "UnixConn", "IPConn", "TCPListener", "UnixListener":
		return name
	}
	return ""
}

// markCommaOK records e if it is a type assertion in a v, ok form.
func markCommaOK(m map[*ast.TypeAssertExpr]bool, e ast.Expr) {
	if a, ok := ast.Unparen(e).(*ast.TypeAssertExpr); ok {
		m[a] = true
	}
}

func (w *fileRewriter) list(l []ast.Stmt) {
	for _, s := range l {
		w.inList[s] = true
	}
}

// makeChan: make(T, n) of a channel type T becomes __rt.Make[T](n), or
// __rt.Make[T](int(n)) where n's own type is not what make gives it (see
// sizeAsInt); MakeRecv or MakeSend for a receive-only or a send-only T.
func (w *fileRewriter) makeChan(c *ast.CallExpr) {
	fn := ".Make["
	if ch, _ := coreType(w.typeOf(c.Args[0])).(*types.Chan); ch != nil && ch.Dir() == types.RecvOnly {
		fn = ".MakeRecv["
	} else if ch != nil && ch.Dir() == types.SendOnly {
		fn = ".MakeSend["
	}
	w.replace(c, func(r *renderer, b *strings.Builder) {
		b.WriteString(rtName + fn)
		w.sub(r, b, c.Args[0])
		b.WriteString("](")
		if len(c.Args) > 1 && w.sizeAsInt(c.Args[1]) {
			b.WriteString("int(")
			w.sub(r, b, c.Args[1])
			b.WriteString(")")
		} else if len(c.Args) > 1 {
			w.sub(r, b, c.Args[1])
		} else {
			b.WriteString("0")
		}
		b.WriteString(")")
	})
}

// sizeAsInt reports whether a size argument of make must be converted to
// int explicitly in the rewritten call, whose type parameter is inferred
// from it: a constant (1e3 or 2.0 would infer float64; an integer literal
// needs nothing), or an expression whose shift of an untyped constant
// (1.0<<s) make gives type int but the call would give the constant's
// default type. The conversion is exact: make accepts only what is
// representable as an int.
func (w *fileRewriter) sizeAsInt(e ast.Expr) bool {
	if lit, ok := ast.Unparen(e).(*ast.BasicLit); ok && lit.Kind == token.INT {
		return false
	}
	if tv := w.info.Types[e]; tv.Value != nil {
		return true
	}
	return w.untypedShift(e)
}

// untypedShift reports whether e's operators (not its calls) hold a shift
// whose left operand is a constant: its type is the context's.
func (w *fileRewriter) untypedShift(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return w.untypedShift(x.X)
	case *ast.UnaryExpr:
		return w.untypedShift(x.X)
	case *ast.BinaryExpr:
		if (x.Op == token.SHL || x.Op == token.SHR) && w.info.Types[x.X].Value != nil {
			return true
		}
		return w.untypedShift(x.X) || w.untypedShift(x.Y)
	}
	return false
}
