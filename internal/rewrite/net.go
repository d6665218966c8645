package rewrite

import (
	"go/ast"
	"go/types"
	"strings"
)

// The network: package net's functions that listen and dial become rt's,
// which reach the schedule's in-memory network (names.go: renamed). This
// file does the rest: the methods of net.Dialer and net.ListenConfig,
// called (d.Dial(…) becomes __rt.DialerDial(d, …)) or handed out as values
// (d.DialContext becomes __rt.DialContextValue(d)), and the functions that
// return concrete types (netConcrete).

// netMethod is how a method of a net type is rewritten: call is rt's
// function for a call, which takes the receiver first; value is rt's
// function that makes the method value, "" if there is none.
type netMethod struct{ call, value string }

// netMethods are the rewritten methods, by type and method name.
var netMethods = map[string]map[string]netMethod{
	"Dialer": {
		"Dial":        {"DialerDial", "DialerDialValue"},
		"DialContext": {"DialContext", "DialContextValue"},
	},
	"ListenConfig": {
		"Listen":       {"ListenConfigListen", ""},
		"ListenPacket": {"ListenConfigListenPacket", ""},
	},
}

// dialerCall rewrites a call of a rewritten method of net.Dialer or
// net.ListenConfig to rt's function.
func (w *fileRewriter) dialerCall(c *ast.CallExpr, sel *ast.SelectorExpr) bool {
	m, ptr, ok := w.dialerMethod(sel)
	if !ok {
		return false
	}
	head := rtName + "." + m.call + "("
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

// dialerMethod reports whether sel is a rewritten method of a net type, how
// it is rewritten, and whether sel.X is a pointer.
func (w *fileRewriter) dialerMethod(sel *ast.SelectorExpr) (m netMethod, ptr, ok bool) {
	s := w.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return m, false, false
	}
	t := w.typeOf(sel.X)
	if p, isPtr := t.(*types.Pointer); isPtr {
		t, ptr = p.Elem(), true
	}
	n, isNamed := t.(*types.Named)
	if !isNamed || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "net" {
		return m, false, false
	}
	m, ok = netMethods[n.Obj().Name()][sel.Sel.Name]
	return m, ptr, ok
}

// dialerValue rewrites a Dialer's Dial or DialContext used as a value (given
// to an http.Transport, say) to rt's function that makes it, and lists the
// other methods used as values.
func (w *fileRewriter) dialerValue(sel *ast.SelectorExpr) {
	if w.dialerCalls[sel] {
		return
	}
	m, ptr, ok := w.dialerMethod(sel)
	if !ok {
		return
	}
	if m.value == "" { // ListenConfig's
		w.issue(sel.Pos(), "net.ListenConfig.%s as a value: the real network, not controlled (only its calls are)", sel.Sel.Name)
		return
	}
	if !ptr && !w.addressable(sel.X) {
		w.issue(sel.Pos(), "net.Dialer.%s as a value of a Dialer that is not addressable: the real network, not controlled", sel.Sel.Name)
		return
	}
	w.replace(sel, func(r *renderer, b *strings.Builder) {
		b.WriteString(rtName + "." + m.value + "(")
		if !ptr {
			b.WriteString("&")
		}
		w.sub(r, b, sel.X)
		b.WriteString(")")
	})
}

// addressable reports whether &e is legal: a variable, a field of one, an
// element of an addressable array or of a slice, a pointer indirection.
func (w *fileRewriter) addressable(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		_, ok := w.info.Uses[e].(*types.Var)
		return ok
	case *ast.SelectorExpr:
		if s := w.info.Selections[e]; s != nil && s.Kind() == types.FieldVal {
			if _, isPtr := w.typeOf(e.X).Underlying().(*types.Pointer); isPtr {
				return true
			}
			return w.addressable(e.X)
		}
		_, ok := w.pkgObj(e).(*types.Var)
		return ok
	case *ast.StarExpr:
		return true
	case *ast.IndexExpr:
		if _, ok := w.typeOf(e.X).Underlying().(*types.Slice); ok {
			return true
		}
		return w.addressable(e.X)
	}
	return false
}
