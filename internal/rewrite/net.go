package rewrite

import (
	"go/ast"
	"go/types"
	"strings"
)

// dialerCall rewrites d.Dial(network, addr) and d.DialContext(ctx, network,
// addr) of a net.Dialer d to __rt.DialerDial(d, ...) and
// __rt.DialContext(d, ...), which dial the schedule's in-memory network. A
// Dialer's methods used as values (handed to an http.Transport) are not
// calls: they are listed as uncontrolled.
func (w *fileRewriter) dialerCall(c *ast.CallExpr, sel *ast.SelectorExpr) bool {
	to, ptr, ok := w.dialerMethod(sel)
	if !ok {
		return false
	}
	head := rtName + "." + to + "("
	w.replace(c, func(r *renderer, b *strings.Builder) {
		b.WriteString(head)
		if !ptr {
			b.WriteString("&")
		}
		w.sub(r, b, sel.X)
		if len(c.Args) > 0 {
			b.WriteString(", ")
			r.span(b, w.off(c.Args[0].Pos()), w.off(c.Rparen))
		}
		b.WriteString(")")
	})
	w.dialerCalls[sel] = true
	return true
}

// dialerMethod reports whether sel is the Dial or DialContext method of a
// net.Dialer, rt's function for it, and whether sel.X is a pointer.
func (w *fileRewriter) dialerMethod(sel *ast.SelectorExpr) (to string, ptr, ok bool) {
	s := w.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return "", false, false
	}
	to, ok = dialerMethods[sel.Sel.Name]
	if !ok {
		return "", false, false
	}
	t := w.typeOf(sel.X)
	if p, isPtr := t.(*types.Pointer); isPtr {
		t, ptr = p.Elem(), true
	}
	n, isNamed := t.(*types.Named)
	if !isNamed || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "net" || n.Obj().Name() != "Dialer" {
		return "", false, false
	}
	return to, ptr, true
}

// dialerValue lists a Dialer's Dial or DialContext used as a value.
func (w *fileRewriter) dialerValue(sel *ast.SelectorExpr) {
	if w.dialerCalls[sel] {
		return
	}
	if _, _, ok := w.dialerMethod(sel); ok {
		w.issue(sel.Pos(), "net.Dialer.%s as a value: the real network, not controlled (only its calls are)", sel.Sel.Name)
	}
}
