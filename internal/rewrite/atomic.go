package rewrite

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
)

// An atomic access stays sync/atomic's, preceded by a scheduling point on
// the accessed address:
//
//	n := x.Add(1)             n := __rt.Atomic(__rt.Point(&x, __rt.AtomicAdd, "x"), x.Add(1))
//	atomic.StoreInt64(p, 1)   __rt.Point(p, __rt.AtomicStore, "*p"); atomic.StoreInt64(p, 1)
//
// The point names the operation (its step shows as atomic-add, not as the
// shadow's swap) and the location, as the memory pass names its accesses.
// (the second form only where a statement stands alone). The call of a
// defer or go statement stays as it is: an uncontrolled access, since
// wrapping it would make the access happen at the statement.

// atomicAccess describes an atomic call: the expression of the accessed
// address, whether it only reads, and whether it returns nothing.
type atomicAccess struct {
	addr  ast.Expr
	deref bool   // addr is the variable itself: take its address
	op    string // the operation: rt's constant for it, "AtomicAdd"
	void  bool
}

// atomicOf returns the access c makes, if it is one.
func (w *fileRewriter) atomicOf(c *ast.CallExpr) (atomicAccess, bool) {
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return atomicAccess{}, false
	}
	if obj := w.pkgObj(sel); obj != nil {
		f, ok := obj.(*types.Func)
		if !ok || obj.Pkg().Path() != "sync/atomic" || len(c.Args) == 0 {
			return atomicAccess{}, false
		}
		sig := f.Type().(*types.Signature)
		return atomicAccess{addr: c.Args[0], op: atomicOp(f.Name()), void: sig.Results().Len() == 0}, true
	}
	s := w.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return atomicAccess{}, false
	}
	t := s.Recv()
	ptr := false
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync/atomic" || !atomicTypes[n.Obj().Name()] {
		return atomicAccess{}, false
	}
	if ix, ok := ast.Unparen(sel.X).(*ast.IndexExpr); ok {
		if _, isMap := coreType(w.typeOf(ix.X)).(*types.Map); isMap {
			return atomicAccess{}, false // not addressable
		}
	}
	sig := s.Obj().Type().(*types.Signature)
	return atomicAccess{addr: sel.X, deref: !ptr, op: atomicOp(sel.Sel.Name), void: sig.Results().Len() == 0}, true
}

// atomicOp returns rt's constant for the sync/atomic function or method
// name: AddInt64 and Add are AtomicAdd.
func atomicOp(name string) string {
	for _, p := range [...]string{"CompareAndSwap", "Load", "Store", "Swap", "Add", "And", "Or"} {
		if strings.HasPrefix(name, p) {
			if p == "CompareAndSwap" {
				p = "CAS"
			}
			return "Atomic" + p
		}
	}
	return "AtomicSwap" // a write, as any other
}

// point writes __rt.Point(addr, __rt.AtomicOp, "name").
func (w *fileRewriter) point(r *renderer, b *strings.Builder, a atomicAccess) {
	b.WriteString(rtName + ".Point(")
	if a.deref {
		b.WriteString("&(")
	}
	w.sub(r, b, a.addr)
	if a.deref {
		b.WriteString(")")
	}
	name := w.exprName(a.addr)
	if !a.deref {
		if _, ok := ast.Unparen(a.addr).(*ast.UnaryExpr); !ok {
			name = nameLiteral("*" + string(w.src[w.off(a.addr.Pos()):w.off(a.addr.End())]))
		}
	}
	fmt.Fprintf(b, ", %s.%s, %s)", rtName, a.op, name)
}

// callText writes call c without an edit of c itself.
func (w *fileRewriter) callText(r *renderer, b *strings.Builder, c *ast.CallExpr) {
	w.sub(r, b, c.Fun)
	r.span(b, w.off(c.Lparen), w.off(c.Rparen)+1)
}

// atomicCall rewrites an atomic call that yields a value.
func (w *fileRewriter) atomicCall(c *ast.CallExpr, _ *ast.SelectorExpr) bool {
	a, ok := w.atomicOf(c)
	if !ok {
		return false
	}
	if a.void || w.deferred[c] {
		return true // only as a statement (atomicStmt)
	}
	w.replace(c, func(r *renderer, b *strings.Builder) {
		b.WriteString(rtName + ".Atomic(")
		w.point(r, b, a)
		b.WriteString(", ")
		w.callText(r, b, c)
		b.WriteString(")")
	})
	return true
}

// atomicStmt rewrites an atomic call that stands alone as a statement. It
// reports whether it did, having walked the call's parts.
func (w *fileRewriter) atomicStmt(s *ast.ExprStmt) bool {
	c, ok := ast.Unparen(s.X).(*ast.CallExpr)
	if !ok {
		return false
	}
	a, ok := w.atomicOf(c)
	if !ok || !a.void || !w.inList[s] {
		return false
	}
	w.inspect(c.Fun)
	for _, arg := range c.Args {
		w.inspect(arg)
	}
	w.replace(s, func(r *renderer, b *strings.Builder) {
		w.point(r, b, a)
		b.WriteString("; ")
		w.callText(r, b, c)
	})
	return true
}
