package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
)

// The static side of the memory pass: which variables goroutines may
// share. A static pass cannot follow pointers, so everything reached
// through one is shared; what it decides is which variables are.
//
// A package-level variable is shared unless nothing can write it after
// initialisation: no code of the load assigns it outside the top level of
// an init function, and nothing takes its address. When the load is all
// the code of the test binary that can name the variable (Load), this
// holds for exported variables too; otherwise (a file rewritten alone) an
// exported variable of a rewritten package is shared. A variable of a
// package that is not rewritten (the standard library's io.EOF) is shared
// only if rewritten code writes it: its package's own writes are not
// instrumented anyway. A local variable is shared if its address is taken (&x, x[:] of an
// array, a pointer method called on x: writes through the pointer cannot be
// seen), or if a function literal captures it and it is assigned after its
// declaration. Loop variables are per iteration from go1.22 on: the loop's
// own assignments (the post statement, the range's) make them shared only
// in files of older versions.

// Globals is what the rewriter knows of the package-level variables of a
// whole load: which packages are rewritten, and which variables rewritten
// code writes after initialisation or takes the address of.
type Globals struct {
	rewritten map[string]bool // package paths
	written   map[varKey]bool
	// Complete: every package that can name a variable of a rewritten
	// package was added (with AddWrites for those not rewritten).
	Complete bool
}

type varKey struct{ pkg, name string }

// NewGlobals returns an empty record.
func NewGlobals() *Globals {
	return &Globals{rewritten: map[string]bool{}, written: map[varKey]bool{}}
}

// AddPackage records the writes of the package-level variables in files,
// which are type-checked into info, as a rewritten package at path.
func (g *Globals) AddPackage(path string, files []*ast.File, info *types.Info) {
	g.rewritten[path] = true
	g.AddWrites(files, info)
}

// AddWrites records the writes of package-level variables in files of a
// package that is not rewritten, but may write variables of those that
// are.
func (g *Globals) AddWrites(files []*ast.File, info *types.Info) {
	for _, f := range files {
		s := newScan(info, f)
		s.file()
		for v := range s.assigned {
			if isGlobal(v) {
				g.written[keyOf(v)] = true
			}
		}
		for v := range s.addr {
			if isGlobal(v) {
				g.written[keyOf(v)] = true
			}
		}
	}
}

// shared reports whether the package-level variable v may be shared.
func (g *Globals) shared(v *types.Var) bool {
	if v.Pkg() == nil {
		return false
	}
	if !g.Complete && v.Exported() && g.rewritten[v.Pkg().Path()] {
		return true
	}
	return g.written[keyOf(v)]
}

func keyOf(v *types.Var) varKey { return varKey{v.Pkg().Path(), v.Name()} }

// isGlobal reports whether v is a package-level variable.
func isGlobal(v *types.Var) bool {
	return v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}

// locality answers, for one file, which variables are shared.
type locality struct {
	globals *Globals
	scan    *scan
}

func newLocality(info *types.Info, f *ast.File, g *Globals) *locality {
	s := newScan(info, f)
	s.file()
	if g == nil {
		g = NewGlobals()
		if p := pkgOf(info, f); p != nil {
			g.AddPackage(p.Path(), []*ast.File{f}, info)
		}
	}
	return &locality{globals: g, scan: s}
}

// pkgOf returns the package f belongs to.
func pkgOf(info *types.Info, f *ast.File) *types.Package {
	if obj := info.Defs[f.Name]; obj != nil {
		return obj.Pkg()
	}
	for _, obj := range info.Defs {
		if obj != nil && obj.Pkg() != nil {
			return obj.Pkg()
		}
	}
	return nil
}

// sharedVar reports whether variable v may be accessed by goroutines
// concurrently.
func (l *locality) sharedVar(v *types.Var) bool {
	if v.IsField() || v.Name() == "_" {
		return false
	}
	if isGlobal(v) {
		return l.globals.shared(v)
	}
	return l.scan.addr[v] || l.scan.captured[v] && l.scan.assigned[v]
}

// scan collects, in one file, the variables assigned after their
// declaration, captured by a function literal, and whose address is taken.
type scan struct {
	info     *types.Info
	file0    *ast.File
	perIter  bool // loop variables are per iteration (go1.22)
	assigned map[*types.Var]bool
	captured map[*types.Var]bool
	addr     map[*types.Var]bool
	// skip holds the variables of a for loop's init while its post
	// statement is scanned in a per-iteration file: not assignments.
	skip map[*types.Var]bool
}

func newScan(info *types.Info, f *ast.File) *scan {
	fv := info.FileVersions[f]
	return &scan{info: info, file0: f, perIter: fv == "" || version.Compare(fv, "go1.22") >= 0,
		assigned: map[*types.Var]bool{}, captured: map[*types.Var]bool{}, addr: map[*types.Var]bool{}}
}

func (s *scan) file() {
	for _, d := range s.file0.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Body != nil {
				init := d.Recv == nil && d.Name.Name == "init"
				s.walk(d.Body, nil, init)
			}
		case *ast.GenDecl:
			// Initialisers assign nothing, but may take addresses or
			// hold function literals.
			for _, spec := range d.Specs {
				if vs, ok := spec.(*ast.ValueSpec); ok {
					for _, v := range vs.Values {
						s.walk(v, nil, false)
					}
				}
			}
		}
	}
}

// walk scans n, inside function literal lit (nil: a declared function).
// init: n is the top level of an init function, whose assignments to
// package-level variables are their initialisation.
func (s *scan) walk(n ast.Node, lit *ast.FuncLit, init bool) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			s.walk(n.Body, n, false)
			return false
		case *ast.Ident:
			if v, ok := s.info.Uses[n].(*types.Var); ok && lit != nil && !v.IsField() && !isGlobal(v) {
				if v.Pos() < lit.Pos() || v.Pos() >= lit.End() {
					s.captured[v] = true
				}
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if n.Tok == token.DEFINE {
					if id, ok := l.(*ast.Ident); ok {
						if v, ok := s.info.Uses[id].(*types.Var); ok {
							s.assign(v, init) // redeclared
						}
					}
					continue
				}
				s.assign(s.root(l), init)
			}
		case *ast.IncDecStmt:
			s.assign(s.root(n.X), init)
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if e == nil {
					continue
				}
				if n.Tok == token.ASSIGN {
					s.assign(s.root(e), init)
				} else if !s.perIter {
					if v, ok := s.info.Defs[e.(*ast.Ident)].(*types.Var); ok {
						s.assigned[v] = true
					}
				}
			}
		case *ast.ForStmt:
			return s.forStmt(n, lit, init)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				s.take(n.X)
			}
		case *ast.SliceExpr:
			if _, ok := coreType(s.typeOf(n.X)).(*types.Array); ok {
				s.take(n.X)
			}
		case *ast.SelectorExpr:
			if sel := s.info.Selections[n]; sel != nil && sel.Kind() == types.MethodVal && ptrRecv(sel) && !sel.Indirect() && !isPointer(s.typeOf(n.X)) {
				s.take(n.X)
			}
		}
		return true
	})
}

// forStmt scans a for loop. In a per-iteration file, the post statement's
// assignments to the loop's own variables are not assignments of the
// variable a closure of the body captured.
func (s *scan) forStmt(f *ast.ForStmt, lit *ast.FuncLit, init bool) bool {
	a, ok := f.Init.(*ast.AssignStmt)
	if !ok || a.Tok != token.DEFINE {
		return true
	}
	vars := map[*types.Var]bool{}
	for _, l := range a.Lhs {
		if v, ok := s.info.Defs[l.(*ast.Ident)].(*types.Var); ok {
			vars[v] = true
		}
	}
	s.walk(f.Init, lit, init)
	if f.Cond != nil {
		s.walk(f.Cond, lit, init)
	}
	s.walk(f.Body, lit, init)
	if f.Post != nil {
		if s.perIter {
			old := s.skip
			s.skip = vars
			s.walk(f.Post, lit, init)
			s.skip = old
		} else {
			s.walk(f.Post, lit, init)
		}
	}
	return false
}

func (s *scan) assign(v *types.Var, init bool) {
	if v == nil || s.skip[v] || init && isGlobal(v) {
		return
	}
	s.assigned[v] = true
}

func (s *scan) take(e ast.Expr) {
	if v := s.root(e); v != nil {
		s.addr[v] = true
	}
}

func (s *scan) typeOf(e ast.Expr) types.Type {
	if tv, ok := s.info.Types[e]; ok {
		return tv.Type
	}
	return nil
}

// root returns the variable whose storage e is part of: e itself, a field
// of a struct value or an element of an array value of it; nil if e is
// reached through a pointer, a slice or a map, or is not a variable.
func (s *scan) root(e ast.Expr) *types.Var {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			v, _ := s.info.Uses[x].(*types.Var)
			if v != nil && v.IsField() {
				return nil
			}
			return v
		case *ast.SelectorExpr:
			sel := s.info.Selections[x]
			if sel == nil {
				// A qualified identifier: another package's variable.
				v, _ := s.info.Uses[x.Sel].(*types.Var)
				return v
			}
			if sel.Kind() != types.FieldVal || sel.Indirect() || isPointer(s.typeOf(x.X)) {
				return nil
			}
			e = x.X
		case *ast.IndexExpr:
			if _, ok := coreType(s.typeOf(x.X)).(*types.Array); !ok {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

// isPointer reports whether t's core type is a pointer.
func isPointer(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := coreType(t).(*types.Pointer)
	return ok
}

// ptrRecv reports whether the method of selection sel has a pointer
// receiver.
func ptrRecv(sel *types.Selection) bool {
	f, ok := sel.Obj().(*types.Func)
	if !ok {
		return false
	}
	recv := f.Type().(*types.Signature).Recv()
	return recv != nil && isPointer(recv.Type())
}
