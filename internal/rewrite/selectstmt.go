package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// selectStmt: a select statement becomes a switch on __rt.Select, whose
// cases are made in its init statement, in source order, as the select
// evaluates its channels and values:
//
//	select {             switch __s1_0, __s1_1 := __rt.OnRecv(ch), __rt.OnSend(out, v); __rt.Select(true, __s1_0, __s1_1) {
//	case x, ok := <-ch:  case 0: x, ok := __s1_0.V, __s1_0.OK;
//	case out <- v:       case 1:
//	default:             default:
//	}                    }  (without a default case: default: panic("unreachable") })
//
// Each line stays on its line. A label on the select labels the switch, so
// break L still leaves it and goto L still reaches it.
func (w *fileRewriter) selectStmt(s *ast.SelectStmt) {
	name := w.fresh("s")
	clauses := make([]*ast.CommClause, len(s.Body.List))
	def := false
	for i, st := range s.Body.List {
		clauses[i] = st.(*ast.CommClause)
		if clauses[i].Comm == nil {
			def = true
		}
		w.walkComm(clauses[i])
	}
	w.replace(s, func(r *renderer, b *strings.Builder) {
		b.WriteString("switch ")
		var handles []string
		for i, cc := range clauses {
			if cc.Comm != nil {
				handles = append(handles, fmt.Sprintf("%s_%d", name, i))
			}
		}
		if len(handles) > 0 {
			b.WriteString(strings.Join(handles, ", ") + " := ")
			n := 0
			for _, cc := range clauses {
				if cc.Comm == nil {
					continue
				}
				if n > 0 {
					b.WriteString(", ")
				}
				n++
				if send, ok := cc.Comm.(*ast.SendStmt); ok {
					w.sendCall(r, b, "OnSend", send)
				} else {
					b.WriteString(rtName + ".OnRecv(")
					w.sub(r, b, commRecv(cc.Comm).X)
					b.WriteString(")")
				}
			}
			b.WriteString("; ")
		}
		fmt.Fprintf(b, "%s.Select(%v", rtName, def)
		for _, h := range handles {
			b.WriteString(", " + h)
		}
		b.WriteString(") {")
		pos := w.off(s.Body.Lbrace) + 1
		idx := 0
		for i, cc := range clauses {
			r.span(b, pos, w.off(cc.Pos()))
			if cc.Comm == nil {
				b.WriteString("default:")
			} else {
				fmt.Fprintf(b, "case %d:", idx)
				w.commAssign(r, b, cc.Comm, fmt.Sprintf("%s_%d", name, i))
				idx++
			}
			pos = w.off(cc.Colon) + 1
			r.span(b, pos, w.off(cc.End()))
			pos = w.off(cc.End())
		}
		r.span(b, pos, w.off(s.Body.Rbrace))
		if !def {
			// Select never returns -1 here; the default case keeps a
			// select whose every case returns a terminating statement.
			b.WriteString("default: panic(\"unreachable\") ")
		}
		b.WriteString("}")
	})
}

// walkComm collects the edits inside a communication clause, but not the
// communication itself, which the select's edit rewrites.
func (w *fileRewriter) walkComm(cc *ast.CommClause) {
	inner := func(n ast.Node) {
		if n != nil {
			w.walkNode(n)
		}
	}
	switch c := cc.Comm.(type) {
	case *ast.SendStmt:
		inner(c.Chan)
		inner(c.Value)
	case *ast.ExprStmt:
		inner(commRecv(c).X)
	case *ast.AssignStmt:
		for _, l := range c.Lhs {
			inner(l)
		}
		inner(commRecv(c).X)
	}
	w.list(cc.Body)
	for _, st := range cc.Body {
		inner(st)
	}
}

// walkNode walks n as the file walk does.
func (w *fileRewriter) walkNode(n ast.Node) { w.inspect(n) }

// commRecv returns the receive of a receive clause.
func commRecv(s ast.Stmt) *ast.UnaryExpr {
	switch c := s.(type) {
	case *ast.ExprStmt:
		return recvOf(c.X)
	case *ast.AssignStmt:
		return recvOf(c.Rhs[0])
	}
	return nil
}

// commAssign writes the assignment of a receive clause from its handle.
func (w *fileRewriter) commAssign(r *renderer, b *strings.Builder, s ast.Stmt, h string) {
	a, ok := s.(*ast.AssignStmt)
	if !ok {
		return
	}
	b.WriteString(" ")
	for i, l := range a.Lhs {
		if i > 0 {
			b.WriteString(", ")
		}
		w.sub(r, b, l)
	}
	op := " = "
	if a.Tok == token.DEFINE {
		op = " := "
	}
	b.WriteString(op + h + ".V")
	if len(a.Lhs) == 2 {
		b.WriteString(", " + h + ".OK")
		if w.namedBool(a.Lhs[1]) {
			// The receive's ok is an untyped boolean, which a variable of a
			// named boolean type takes; a comparison is one too.
			b.WriteString(" == true")
		}
	}
	b.WriteString(";")
}

// namedBool reports whether e's type is a boolean type other than bool.
func (w *fileRewriter) namedBool(e ast.Expr) bool {
	t := w.typeOf(e)
	if t == nil || types.Identical(t, types.Typ[types.Bool]) {
		return false
	}
	basic, ok := t.Underlying().(*types.Basic)
	return ok && basic.Info()&types.IsBoolean != 0
}
