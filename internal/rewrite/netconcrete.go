package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// Package net's functions that return concrete types (ListenTCP's
// *net.TCPListener) cannot return a connection of the in-memory network.
// rt stands for each with an interface that has the concrete type's
// methods (rt.TCPListener), and the rewriter calls rt's function where
// the result's type can change without changing what the code means: the
// variable the call declares is only used by calling its methods, compared
// with nil, or handed where an interface it satisfies is expected (an
// argument, an assignment, a return), or the result goes straight to a
// return of such an interface. Elsewhere (a struct field of type
// *net.TCPListener, a helper that takes one) the call stays real and is
// listed, and a test that reaches it runs on the real network (realnet.go).

// concreteNet lists the functions, with the methods their rt interface
// leaves out.
var concreteNet = map[string][]string{
	"ListenTCP": {"AcceptTCP"},
	"DialTCP":   nil,
	"ListenUDP": nil,
	"DialUDP":   nil,
}

// netUse checks the uses of calls of concreteNet's functions in one file.
type netUse struct {
	info    *types.Info
	file    *ast.File
	parents map[ast.Node]ast.Node
}

func newNetUse(info *types.Info, f *ast.File) *netUse {
	u := &netUse{info: info, file: f, parents: map[ast.Node]ast.Node{}}
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if len(stack) > 0 {
			u.parents[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
	return u
}

// concreteCall returns the concreteNet function sel names, "" if none.
func concreteCall(info *types.Info, sel *ast.SelectorExpr) string {
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	if _, ok := info.Uses[id].(*types.PkgName); !ok {
		return ""
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "net" {
		return ""
	}
	if _, ok := concreteNet[fn.Name()]; !ok {
		return ""
	}
	return fn.Name()
}

// check reports whether the call of a concreteNet function whose selector
// is sel may return rt's interface instead; if not, bad is where its result
// is used as the concrete type.
func (u *netUse) check(sel *ast.SelectorExpr) (ok bool, bad token.Pos) {
	name := concreteCall(u.info, sel)
	call, isCall := u.parents[sel].(*ast.CallExpr)
	if name == "" || !isCall || call.Fun != sel {
		return false, sel.Pos()
	}
	tuple, _ := u.info.Types[call].Type.(*types.Tuple)
	if tuple == nil || tuple.Len() != 2 {
		return false, call.Pos()
	}
	concrete := tuple.At(0).Type()
	excluded := concreteNet[name]
	switch p := u.parents[call].(type) {
	case *ast.ExprStmt:
		return true, token.NoPos
	case *ast.ReturnStmt:
		if len(p.Results) != 1 {
			return false, call.Pos()
		}
		sig := u.enclosingSig(p)
		if sig == nil || sig.Results().Len() != 2 || !u.fits(concrete, excluded, sig.Results().At(0).Type()) {
			return false, call.Pos()
		}
		return true, token.NoPos
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 || len(p.Lhs) != 2 {
			return false, call.Pos()
		}
		id, isIdent := p.Lhs[0].(*ast.Ident)
		if !isIdent {
			return false, p.Lhs[0].Pos()
		}
		if id.Name == "_" {
			return true, token.NoPos
		}
		obj := u.info.Defs[id]
		if obj == nil || p.Tok != token.DEFINE {
			return false, id.Pos()
		}
		return u.usesFit(obj, concrete, excluded)
	}
	return false, call.Pos()
}

// usesFit checks every use of the variable obj.
func (u *netUse) usesFit(obj types.Object, concrete types.Type, excluded []string) (bool, token.Pos) {
	var uses []*ast.Ident
	for id, o := range u.info.Uses {
		if o == obj {
			uses = append(uses, id)
		}
	}
	sort.Slice(uses, func(i, j int) bool { return uses[i].Pos() < uses[j].Pos() })
	for _, id := range uses {
		if !u.useFits(id, concrete, excluded) {
			return false, id.Pos()
		}
	}
	return true, token.NoPos
}

// useFits reports whether one use of the variable keeps its meaning when
// the variable has rt's interface type.
func (u *netUse) useFits(id *ast.Ident, concrete types.Type, excluded []string) bool {
	switch p := u.parents[id].(type) {
	case *ast.SelectorExpr: // a method, called or as a value
		if p.X != id {
			return false
		}
		for _, x := range excluded {
			if p.Sel.Name == x {
				return false
			}
		}
		s := u.info.Selections[p]
		return s != nil && s.Kind() == types.MethodVal
	case *ast.BinaryExpr: // compared with nil
		other := p.X
		if other == id {
			other = p.Y
		}
		return (p.Op == token.EQL || p.Op == token.NEQ) && u.info.Types[other].IsNil()
	case *ast.CallExpr: // an argument
		sig, ok := u.info.Types[p.Fun].Type.(*types.Signature)
		if !ok {
			return false
		}
		for i, a := range p.Args {
			if a != id {
				continue
			}
			var t types.Type
			switch n := sig.Params().Len(); {
			case sig.Variadic() && i >= n-1 && !p.Ellipsis.IsValid():
				t = sig.Params().At(n - 1).Type().(*types.Slice).Elem()
			case i < n:
				t = sig.Params().At(i).Type()
			default:
				return false
			}
			return u.fits(concrete, excluded, t)
		}
		return false
	case *ast.AssignStmt: // assigned to a variable of an interface type
		for i, r := range p.Rhs {
			if r == id && len(p.Lhs) == len(p.Rhs) && p.Tok == token.ASSIGN {
				return u.fits(concrete, excluded, u.info.Types[p.Lhs[i]].Type)
			}
		}
		return false
	case *ast.ReturnStmt:
		sig := u.enclosingSig(p)
		if sig == nil || sig.Results().Len() != len(p.Results) {
			return false
		}
		for i, r := range p.Results {
			if r == id {
				return u.fits(concrete, excluded, sig.Results().At(i).Type())
			}
		}
	}
	return false
}

// fits reports whether rt's interface for concrete (its methods but the
// excluded ones) may go where a value of type t is expected: t is an
// interface that it implements.
func (u *netUse) fits(concrete types.Type, excluded []string, t types.Type) bool {
	if t == nil {
		return false
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok || !types.Implements(concrete, iface) {
		return false
	}
	for i := range iface.NumMethods() {
		for _, x := range excluded {
			if iface.Method(i).Name() == x {
				return false
			}
		}
	}
	return true
}

// enclosingSig returns the signature of the function n is in.
func (u *netUse) enclosingSig(n ast.Node) *types.Signature {
	for p := u.parents[n]; p != nil; p = u.parents[p] {
		switch f := p.(type) {
		case *ast.FuncLit:
			sig, _ := u.info.Types[f].Type.(*types.Signature)
			return sig
		case *ast.FuncDecl:
			if obj := u.info.Defs[f.Name]; obj != nil {
				sig, _ := obj.Type().(*types.Signature)
				return sig
			}
			return nil
		}
	}
	return nil
}

// concreteSel rewrites net.ListenTCP and the others to rt's function where
// the result may change type, and lists the calls where it may not.
func (w *fileRewriter) concreteSel(sel *ast.SelectorExpr) bool {
	name := concreteCall(w.info, sel)
	if name == "" {
		return false
	}
	if w.netUse == nil {
		w.netUse = newNetUse(w.info, w.file)
	}
	ok, bad := w.netUse.check(sel)
	if !ok {
		w.issue(sel.Pos(), "net.%s: its result is used as the concrete type at %s: the real network, not controlled (a test that reaches it runs on the real network)",
			name, shortPos(w.fset.Position(bad)))
		return true
	}
	w.replace(sel, func(r *renderer, b *strings.Builder) { b.WriteString(rtName + "." + name) })
	return true
}

// shortPos is file:line with the file's base name.
func shortPos(p token.Position) string {
	name := p.Filename
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return name + ":" + strconv.Itoa(p.Line)
}
