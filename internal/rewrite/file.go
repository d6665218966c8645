package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Issue is a construct the rewriter cannot put under control, at its
// position in the user's source.
type Issue struct {
	Pos  token.Position
	What string
}

func (i Issue) String() string { return fmt.Sprintf("%s: %s", i.Pos, i.What) }

// fileRewriter collects the edits of one file.
type fileRewriter struct {
	pipeIO  string // with the shadow, the name of io whose pipes became the stand-in's (shadowPipes)
	fset    *token.FileSet
	tf      *token.File
	file    *ast.File
	src     []byte
	info    *types.Info
	test    bool // a _test.go file: wrap its tests
	edits   []edit
	issues  []Issue
	commaOK map[*ast.UnaryExpr]bool
	inList  map[ast.Stmt]bool // statements of a block or clause
	// deferred holds the calls of defer and go statements: their
	// arguments are evaluated at once, so an atomic call there cannot be
	// wrapped in Atomic(Point(…), call), which would run the call early.
	deferred map[*ast.CallExpr]bool
	// dialerCalls are the net.Dialer method selectors rewritten as calls.
	dialerCalls map[*ast.SelectorExpr]bool
	netUse      *netUse // made at the first call of a concrete net function
	// okAssert are the type assertions in a v, ok form.
	okAssert map[*ast.TypeAssertExpr]bool
	n        int // names made so far
	// checkTests are functions that use morpheus: tests among them are
	// not wrapped (see CheckTests).
	checkTests map[types.Object]bool
	// globals records the package-level variables written in the load.
	globals *Globals
	// realNet maps the functions that reach the real network to why.
	realNet map[string]string
	// mainNet maps the tests that reach it only if init or TestMain
	// did (RealNet.Main); netSites are the functions that note at their
	// entry that they ran (RealNet.Sites), netRoots the init functions
	// and TestMains that open the window in which that counts.
	mainNet  map[string]string
	netSites map[string]bool
	netRoots map[string]bool
}

func (w *fileRewriter) off(p token.Pos) int { return w.tf.Offset(p) }

func (w *fileRewriter) issue(p token.Pos, format string, args ...any) {
	w.issues = append(w.issues, Issue{Pos: w.fset.Position(p), What: fmt.Sprintf(format, args...)})
}

// replace adds an edit of node n's whole source.
func (w *fileRewriter) replace(n ast.Node, emit func(r *renderer, b *strings.Builder)) {
	w.edits = append(w.edits, edit{start: w.off(n.Pos()), end: w.off(n.End()), emit: emit})
}

// sub writes node n's source with its edits.
func (w *fileRewriter) sub(r *renderer, b *strings.Builder, n ast.Node) {
	r.span(b, w.off(n.Pos()), w.off(n.End()))
}

// fresh returns a new identifier.
func (w *fileRewriter) fresh(kind string) string {
	w.n++
	return fmt.Sprintf("__%s%d", kind, w.n)
}

// typeOf returns the type of e, nil if unknown.
func (w *fileRewriter) typeOf(e ast.Expr) types.Type {
	if tv, ok := w.info.Types[e]; ok {
		return tv.Type
	}
	return nil
}

// isChan reports whether e's type's core is a channel.
func (w *fileRewriter) isChan(e ast.Expr) bool {
	t := w.typeOf(e)
	if t == nil {
		return false
	}
	_, ok := coreType(t).(*types.Chan)
	return ok
}

// coreType returns t's underlying type, or for a type parameter the
// single underlying type of its type set, nil if there is none.
func coreType(t types.Type) types.Type {
	tp, ok := t.(*types.TypeParam)
	if !ok {
		return t.Underlying()
	}
	iface, _ := tp.Constraint().Underlying().(*types.Interface)
	if iface == nil {
		return nil
	}
	var core types.Type
	for i := 0; i < iface.NumEmbeddeds(); i++ {
		u, ok := iface.EmbeddedType(i).(*types.Union)
		if !ok {
			t := iface.EmbeddedType(i).Underlying()
			if core != nil && !types.Identical(core, t) {
				return nil
			}
			core = t
			continue
		}
		for j := 0; j < u.Len(); j++ {
			t := u.Term(j).Type().Underlying()
			if core != nil && !types.Identical(core, t) {
				return nil
			}
			core = t
		}
	}
	return core
}

// pkgObj returns the package-level object a qualified identifier pkg.Name
// refers to, nil if sel is not one.
func (w *fileRewriter) pkgObj(sel *ast.SelectorExpr) types.Object {
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil
	}
	if _, ok := w.info.Uses[id].(*types.PkgName); !ok {
		return nil
	}
	obj := w.info.Uses[sel.Sel]
	if obj == nil || obj.Pkg() == nil {
		return nil
	}
	return obj
}

// builtin returns the name of the builtin function e refers to, or "".
func (w *fileRewriter) builtin(e ast.Expr) string {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return ""
	}
	if b, ok := w.info.Uses[id].(*types.Builtin); ok {
		return b.Name()
	}
	return ""
}

// recvOf returns the operand of a receive expression, nil if e is not one.
func recvOf(e ast.Expr) *ast.UnaryExpr {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u
	}
	return nil
}
