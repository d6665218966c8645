package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
	"strings"
)

// The memory pass: every load and store of a location goroutines may share
// (locality.go decides which) becomes an op of package rt, which schedules
// it and checks it for data races:
//
//	x               *__rt.Read(&x, "x")
//	x = v, x += v   *__rt.Write(&x, "x") = v, *__rt.Write(&x, "x") += v
//	x++             *__rt.Write(&x, "x")++
//	m[k], len(m)    __rt.ReadMap(m, "m")[k], len(__rt.ReadMap(m, "m"))
//	m[k] = v        __rt.WriteMap(m, "m")[k] = v (also delete(m, k), clear(m))
//	a, err := f()   a, __e1 := f(); *__rt.Write(&err, "err") = __e1 (err redeclared)
//	return          { __rt.Read(&res, "res"); return } (a bare return reads the named results)
//	v := s.cfg      v := *__rt.ReadValue(&s.cfg, "s.cfg") (a struct or an array of more than
//	                one field or element: each of them is accessed; WriteValue for a store)
//
// The string is the expression as the code writes it (exprName), which
// names the location in reports: "data race on c.m".
//
// The address is taken inline, where the expression was, so evaluation
// order and short-circuits are Go's, and a nil dereference panics at the
// user's line. Only accesses that happen are ops: the operand of &, the
// base of a field of a struct value or of an element of an array value,
// the receiver of a pointer method called on an addressable value and a
// sliced array are addressed, not loaded. Values of synchronisation types
// (sync's, sync/atomic's, and pointers to them), the operands of atomic
// calls, arguments of unsafe's functions, constants, declared functions and
// string bytes are never ops.

// access is what an expression's evaluation does with its location.
type access int

const (
	load     access = iota // reads its value
	store                  // writes it (the target of an assignment)
	addrOnly               // only computes its address
)

// memPass collects the edits of the memory accesses of a file.
type memPass struct {
	w   *fileRewriter
	loc *locality
	// results are the named results of the function whose body the pass
	// is in, which a bare return reads.
	results []*types.Var
}

// memory runs the memory pass over the file.
func (w *fileRewriter) memory() {
	m := &memPass{w: w, loc: newLocality(w.info, w.file, w.globals)}
	for _, d := range w.file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Body != nil {
				m.body(d.Type, d.Body)
			}
		case *ast.GenDecl:
			// Package-level initialisers run before any test: only the
			// function literals they hold run under control.
			ast.Inspect(d, func(n ast.Node) bool {
				if lit, ok := n.(*ast.FuncLit); ok {
					m.body(lit.Type, lit.Body)
					return false
				}
				return true
			})
		}
	}
}

// body collects the edits of a function's body, whose bare returns read
// the named results of its type ft.
func (m *memPass) body(ft *ast.FuncType, body *ast.BlockStmt) {
	outer := m.results
	m.results = nil
	if ft.Results != nil {
		for _, f := range ft.Results.List {
			for _, name := range f.Names {
				if v, ok := m.w.info.Defs[name].(*types.Var); ok {
					m.results = append(m.results, v)
				}
			}
		}
	}
	m.stmts(body)
	m.results = outer
}

// bareReturn makes the loads of a bare return ops: it reads the named
// results, and one that goroutines may share (a result a goroutine's
// closure sets) is a shared location like any other.
func (m *memPass) bareReturn(ret *ast.ReturnStmt) {
	var reads []string
	for _, v := range m.results {
		if m.loc.sharedVar(v) && !syncType(v.Type()) {
			reads = append(reads, v.Name())
		}
	}
	if len(reads) == 0 {
		return
	}
	m.w.replace(ret, func(r *renderer, b *strings.Builder) {
		b.WriteString("{ ")
		for _, name := range reads {
			b.WriteString(rtName + ".Read(&" + name + ", " + nameLiteral(name) + "); ")
		}
		b.WriteString("return }")
	})
}

// stmts collects the edits of the statements under n.
func (m *memPass) stmts(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			if len(n.Results) == 0 {
				m.bareReturn(n)
			}
			return true
		case *ast.AssignStmt:
			m.assign(n)
			return false
		case *ast.IncDecStmt:
			m.expr(n.X, store, false)
			return false
		case *ast.RangeStmt:
			m.rangeStmt(n)
			return false
		case *ast.ValueSpec:
			for _, v := range n.Values {
				m.expr(v, load, false)
			}
			return false
		case *ast.TypeSpec:
			return false
		case ast.Expr:
			m.expr(n, load, false)
			return false
		}
		return true
	})
}

// assign: the targets of = and op= are stores (op= reads too, which the
// write covers); those of := are declarations, but for variables declared
// before, which are assigned.
func (m *memPass) assign(a *ast.AssignStmt) {
	m.storeLast(a)
	if a.Tok == token.DEFINE {
		m.redeclare(a)
	} else {
		for _, l := range a.Lhs {
			m.expr(l, store, false)
		}
	}
	for _, r := range a.Rhs {
		m.expr(r, load, false)
	}
}

// storeLast: x = f(…) (or <-ch) stores x after f returns, so its write op
// must come after the ops of f, not before as *__rt.Write(&x) = f() would
// have it (the call of Write is to the left of f's): the statement becomes
// { __vN := f(…); *__rt.Write(&x) = __vN }. Only for one target whose
// address f cannot change: a variable, or a field of a variable that is
// not shared (f may change an index or a shared pointer, and Go computes
// the target's address before it calls f: d.buf[d.n] = d.next() stores at
// the old d.n); one value that is a call or a receive; and where a
// statement list allows two statements. A call's several results
// (res, err = p.Acquire(ctx)) are stored likewise, each target after the
// call: { __vN, __vM := f(…); res = __vN; err = __vM }, blank targets left
// out, when every other target has a fixed address.
func (m *memPass) storeLast(a *ast.AssignStmt) {
	if a.Tok != token.ASSIGN || len(a.Rhs) != 1 || !m.w.inList[a] {
		return
	}
	if len(a.Lhs) > 1 {
		m.storeLastResults(a)
		return
	}
	switch r := ast.Unparen(a.Rhs[0]).(type) {
	case *ast.CallExpr:
		if tv := m.w.info.Types[r.Fun]; tv.IsType() {
			return // a conversion
		}
	case *ast.UnaryExpr:
		if r.Op != token.ARROW {
			return
		}
	default:
		return
	}
	l := ast.Unparen(a.Lhs[0])
	if !m.fixedAddress(l) {
		return
	}
	if _, shared := m.location(l); !shared || syncType(m.typeOf(l)) {
		return
	}
	v := m.w.fresh("v")
	m.w.replace(a, func(r *renderer, b *strings.Builder) {
		// A block of its own: a goto may jump over the statement.
		b.WriteString("{ " + v + " := ")
		m.w.sub(r, b, a.Rhs[0])
		b.WriteString("; ")
		m.w.sub(r, b, a.Lhs[0])
		b.WriteString(" = " + v + " }")
	})
}

// storeLastResults is storeLast for a call's several results.
func (m *memPass) storeLastResults(a *ast.AssignStmt) {
	r, ok := ast.Unparen(a.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return
	}
	if tv := m.w.info.Types[r.Fun]; tv.IsType() {
		return
	}
	anyShared := false
	for _, l := range a.Lhs {
		if isBlank(l) {
			continue
		}
		if !m.fixedAddress(l) || syncType(m.typeOf(l)) {
			return
		}
		if _, shared := m.location(ast.Unparen(l)); shared {
			anyShared = true
		}
	}
	if !anyShared {
		return
	}
	vs := make([]string, len(a.Lhs))
	for i, l := range a.Lhs {
		vs[i] = "_"
		if !isBlank(l) {
			vs[i] = m.w.fresh("v")
		}
	}
	m.w.replace(a, func(rr *renderer, b *strings.Builder) {
		b.WriteString("{ " + strings.Join(vs, ", ") + " := ")
		m.w.sub(rr, b, a.Rhs[0])
		for i, l := range a.Lhs {
			if vs[i] == "_" {
				continue
			}
			b.WriteString("; ")
			m.w.sub(rr, b, l)
			b.WriteString(" = " + vs[i])
		}
		b.WriteString(" }")
	})
}

// fixedAddress reports whether no call can change the address e denotes: a
// variable, or a field (through pointers or not) of a local variable that
// goroutines do not share and whose address is not taken.
func (m *memPass) fixedAddress(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		_, ok := m.w.info.Uses[x].(*types.Var)
		return ok
	case *ast.SelectorExpr:
		if sel := m.w.info.Selections[x]; sel == nil || sel.Kind() != types.FieldVal {
			return false
		}
		base, ok := ast.Unparen(x.X).(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := m.w.info.Uses[base].(*types.Var)
		return ok && !isGlobal(v) && !m.loc.sharedVar(v)
	}
	return false
}

// redeclare rewrites a := statement that assigns shared variables declared
// before: each gets a new name in the statement, whose value a write
// stores after it (a constant is stored again instead: a name would take
// its default type). Only where a statement list allows two statements.
func (m *memPass) redeclare(a *ast.AssignStmt) {
	if !m.w.inList[a] {
		return
	}
	temps := map[int]string{}
	for i, l := range a.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			continue
		}
		v, ok := m.w.info.Uses[id].(*types.Var)
		if !ok || !m.loc.sharedVar(v) || syncType(v.Type()) {
			continue
		}
		if len(a.Lhs) == len(a.Rhs) {
			if tv := m.w.info.Types[a.Rhs[i]]; tv.Value != nil || tv.IsNil() {
				temps[i] = "_"
				continue
			}
		}
		temps[i] = m.w.fresh("e")
	}
	if len(temps) == 0 {
		return
	}
	m.w.replace(a, func(r *renderer, b *strings.Builder) {
		for i, l := range a.Lhs {
			if i > 0 {
				b.WriteString(", ")
			}
			if t, ok := temps[i]; ok {
				b.WriteString(t)
			} else {
				m.w.sub(r, b, l)
			}
		}
		r.span(b, m.w.off(a.Lhs[len(a.Lhs)-1].End()), m.w.off(a.End()))
		for i, l := range a.Lhs {
			t, ok := temps[i]
			if !ok {
				continue
			}
			name := l.(*ast.Ident).Name
			fmt.Fprintf(b, "; *%s.Write(&%s, %s) = ", rtName, name, nameLiteral(name))
			if t == "_" {
				m.w.sub(r, b, a.Rhs[i])
			} else {
				b.WriteString(t)
			}
		}
	})
}

// rangeStmt: assigned keys and values are stores; a map ranged over is
// read, an array value copied unless only its indices are used. (The
// elements of a slice or an array the loop reads are not ops.)
func (m *memPass) rangeStmt(s *ast.RangeStmt) {
	m.rangeWrites(s)
	if s.Tok == token.ASSIGN {
		for _, e := range []ast.Expr{s.Key, s.Value} {
			if e != nil {
				m.expr(e, store, false)
			}
		}
	}
	switch coreType(m.typeOf(s.X)).(type) {
	case *types.Map:
		m.mapOp(s.X, "ReadMap")
		m.expr(s.X, load, false)
	case *types.Array:
		if s.Value == nil {
			m.expr(s.X, addrOnly, false)
		} else {
			m.expr(s.X, load, false)
		}
	default:
		m.expr(s.X, load, false)
	}
	m.stmts(s.Body)
}

// rangeWrites: before go1.22, a range loop's := variables are one pair
// for the whole loop, which the loop writes at the start of every
// iteration; shared ones (a goroutine started in the body captures them)
// get that write as an op, on the for line: for k, v := range x {
// __rt.Write(&v); …
func (m *memPass) rangeWrites(s *ast.RangeStmt) {
	if s.Tok != token.DEFINE || s.Body == nil {
		return
	}
	if fv := m.w.info.FileVersions[m.w.file]; fv == "" || version.Compare(fv, "go1.22") >= 0 {
		return
	}
	var names []string
	for _, e := range []ast.Expr{s.Key, s.Value} {
		id, ok := e.(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		if v, ok := m.w.info.Defs[id].(*types.Var); ok && m.loc.sharedVar(v) && !syncType(v.Type()) {
			names = append(names, id.Name)
		}
	}
	if len(names) == 0 {
		return
	}
	at := m.w.off(s.Body.Lbrace) + 1
	m.w.edits = append(m.w.edits, edit{start: at, end: at, emit: func(_ *renderer, b *strings.Builder) {
		for _, n := range names {
			fmt.Fprintf(b, " %s.Write(&%s, %s);", rtName, n, nameLiteral(n))
		}
	}})
}

func (m *memPass) typeOf(e ast.Expr) types.Type { return m.w.typeOf(e) }

// expr collects the edits of e, whose location (if it is one) the
// evaluation accesses as acc. postfix: e is the operand of a selector,
// index, slice, call or type assertion, where a load needs parentheses.
func (m *memPass) expr(e ast.Expr, acc access, postfix bool) {
	if e == nil {
		return
	}
	if tv, ok := m.w.info.Types[e]; ok && (tv.IsType() || tv.Value != nil) {
		return // a type, or a constant
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		m.expr(x.X, acc, false)
	case *ast.FuncLit:
		m.body(x.Type, x.Body)
	case *ast.CompositeLit:
		m.compositeLit(x)
	case *ast.Ident:
		if v, ok := m.w.info.Uses[x].(*types.Var); ok && m.loc.sharedVar(v) {
			m.wrap(x, acc, postfix)
		}
	case *ast.SelectorExpr:
		m.selector(x, acc, postfix)
	case *ast.IndexExpr:
		m.index(x, acc, postfix)
	case *ast.StarExpr:
		m.wrap(x, acc, postfix)
		m.expr(x.X, load, false)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			m.expr(x.X, addrOnly, false)
		} else {
			m.expr(x.X, load, false)
		}
	case *ast.BinaryExpr:
		m.expr(x.X, load, false)
		m.expr(x.Y, load, false)
	case *ast.CallExpr:
		m.call(x)
	case *ast.TypeAssertExpr:
		m.expr(x.X, load, true)
	case *ast.SliceExpr:
		if _, ok := coreType(m.typeOf(x.X)).(*types.Array); ok {
			m.expr(x.X, addrOnly, true) // slicing an array takes its address
		} else {
			m.expr(x.X, load, true)
		}
		m.expr(x.Low, load, false)
		m.expr(x.High, load, false)
		m.expr(x.Max, load, false)
	case *ast.KeyValueExpr:
		m.expr(x.Key, load, false)
		m.expr(x.Value, load, false)
	}
}

// selector: a field, a qualified variable, or a method value or call's
// receiver.
func (m *memPass) selector(x *ast.SelectorExpr, acc access, postfix bool) {
	if obj := m.w.pkgObj(x); obj != nil {
		if v, ok := obj.(*types.Var); ok && m.loc.sharedVar(v) {
			m.wrap(x, acc, postfix)
		}
		return
	}
	sel := m.w.info.Selections[x]
	if sel == nil {
		return
	}
	ptr := isPointer(m.typeOf(x.X))
	switch sel.Kind() {
	case types.FieldVal:
		if _, shared := m.location(x); shared {
			m.wrap(x, acc, postfix)
		}
		base := load
		if !ptr {
			if isLoc, _ := m.location(x.X); isLoc {
				base = addrOnly // a field of a struct value: no load of the struct
			}
		}
		m.expr(x.X, base, true)
	case types.MethodVal:
		switch {
		case ptr:
			if !ptrRecv(sel) && len(sel.Index()) == 1 {
				m.recvCopy(x.X) // the receiver is a copy of *x.X
			}
			m.expr(x.X, load, true)
		case ptrRecv(sel) && !sel.Indirect(), len(sel.Index()) > 1:
			// &x is the receiver; or the method is promoted from an
			// embedded field, whose path is not an op.
			m.expr(x.X, addrOnly, true)
		default:
			m.expr(x.X, load, true) // the receiver is a copy of x
		}
	}
}

// index: an element of a slice, an array or a pointed-to array, a map
// access, a string's byte, or a generic function's instantiation.
func (m *memPass) index(x *ast.IndexExpr, acc access, postfix bool) {
	if _, ok := m.typeOf(x.X).(*types.Signature); ok {
		return // f[T]
	}
	switch t := coreType(m.typeOf(x.X)).(type) {
	case *types.Map:
		if acc == store {
			m.mapOp(x.X, "WriteMap")
		} else {
			m.mapOp(x.X, "ReadMap")
		}
		m.expr(x.X, load, false)
	case *types.Array:
		isLoc, shared := m.location(x)
		if shared {
			m.wrap(x, acc, postfix)
		}
		if isLoc {
			m.expr(x.X, addrOnly, true)
		} else {
			m.expr(x.X, load, true)
		}
	default:
		if t != nil && (isPointer(t) || isSlice(t)) {
			m.wrap(x, acc, postfix)
		}
		m.expr(x.X, load, true)
	}
	m.expr(x.Index, load, false)
}

func isSlice(t types.Type) bool {
	_, ok := t.(*types.Slice)
	return ok
}

// call: a conversion, a builtin, an atomic call (whose operand is not
// touched), a call of unsafe (nothing in it is), or a call of a function
// value and its arguments.
func (m *memPass) call(c *ast.CallExpr) {
	if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
		if obj := m.w.pkgObj(sel); obj != nil && obj.Pkg().Path() == "unsafe" {
			return
		}
	}
	args := c.Args
	if tv := m.w.info.Types[c.Fun]; tv.IsType() {
		for _, a := range args {
			m.expr(a, load, false)
		}
		return
	}
	if _, ok := m.w.atomicOf(c); ok {
		if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && m.w.pkgObj(sel) == nil {
			for _, a := range args { // a method: its receiver is the operand
				m.expr(a, load, false)
			}
			return
		}
		for _, a := range args[1:] {
			m.expr(a, load, false)
		}
		return
	}
	switch name := m.w.builtin(c.Fun); name {
	case "len", "cap":
		if len(args) == 1 {
			switch coreType(m.typeOf(args[0])).(type) {
			case *types.Map:
				m.mapOp(args[0], "ReadMap")
			case *types.Array:
				m.expr(args[0], addrOnly, false)
				return
			}
		}
	case "delete", "clear":
		if len(args) >= 1 {
			if _, ok := coreType(m.typeOf(args[0])).(*types.Map); ok {
				m.mapOp(args[0], "WriteMap")
			}
		}
	}
	m.expr(c.Fun, load, true)
	for _, a := range args {
		m.expr(a, load, false)
	}
}

// compositeLit: the elements are loaded; a struct literal's keys are field
// names.
func (m *memPass) compositeLit(lit *ast.CompositeLit) {
	t := coreType(m.typeOf(lit))
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem().Underlying()
	}
	_, isStruct := t.(*types.Struct)
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if !isStruct {
				m.expr(kv.Key, load, false)
			}
			m.expr(kv.Value, load, false)
			continue
		}
		m.expr(el, load, false)
	}
}

// location reports whether e is addressable memory, and whether goroutines
// may share it: a shared variable, anything reached through a pointer or a
// slice, and a field or an element of a shared struct or array value.
func (m *memPass) location(e ast.Expr) (isLoc, shared bool) {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return m.location(x.X)
	case *ast.Ident:
		if v, ok := m.w.info.Uses[x].(*types.Var); ok && !v.IsField() {
			return true, m.loc.sharedVar(v)
		}
	case *ast.SelectorExpr:
		if obj := m.w.pkgObj(x); obj != nil {
			v, ok := obj.(*types.Var)
			return ok, ok && m.loc.sharedVar(v)
		}
		sel := m.w.info.Selections[x]
		if sel == nil || sel.Kind() != types.FieldVal {
			return false, false
		}
		if sel.Indirect() || isPointer(m.typeOf(x.X)) {
			return true, true
		}
		return m.location(x.X)
	case *ast.IndexExpr:
		switch t := coreType(m.typeOf(x.X)).(type) {
		case *types.Slice, *types.Pointer:
			return true, true
		case *types.Array:
			return m.location(x.X)
		default:
			_ = t
		}
	case *ast.StarExpr:
		return true, true
	}
	return false, false
}

// wrap makes e's access an op: *__rt.Read(&e, "e") or *__rt.Write(&e, "e"),
// and *__rt.Read(p, "*p") for *p. An
// address-only e, or one of a synchronisation type, stays as it is.
func (m *memPass) wrap(e ast.Expr, acc access, postfix bool) {
	if acc == addrOnly || syncType(m.typeOf(e)) {
		return
	}
	fn := "Read"
	if acc == store {
		fn = "Write"
	}
	if wholeValue(m.typeOf(e)) {
		fn += "Value" // a struct or an array of more than one part (rt's value.go)
	}
	// The address of *p is p, unless p's type is a type parameter (whose
	// core type Read's inference does not see).
	var ptr ast.Expr
	if star, ok := e.(*ast.StarExpr); ok {
		if _, tp := m.typeOf(star.X).(*types.TypeParam); !tp {
			ptr = star.X
		}
	}
	start := m.w.off(e.Pos())
	space := start > 0 && m.w.src[start-1] == '/' // x/*p must not open a comment
	name := m.w.exprName(e)
	m.w.replace(e, func(r *renderer, b *strings.Builder) {
		if space {
			b.WriteString(" ")
		}
		if postfix {
			b.WriteString("(")
		}
		b.WriteString("*" + rtName + "." + fn + "(")
		if ptr != nil {
			m.w.sub(r, b, ptr) // *p: the address is p
		} else {
			b.WriteString("&")
			m.w.sub(r, b, e)
		}
		b.WriteString(", " + name + ")")
		if postfix {
			b.WriteString(")")
		}
	})
}

// recvCopy makes the load of *p that calling a value method through
// pointer p copies as its receiver an op: p.M() becomes
// __rt.Read(p, "*p").M(), as the call (*p).M() would be. (Through an
// embedded field the copy stays no op, as that path's loads do.)
func (m *memPass) recvCopy(p ast.Expr) {
	t := m.typeOf(p)
	if _, tp := t.(*types.TypeParam); tp || syncType(t) {
		return
	}
	fn := "Read("
	if ptr, ok := coreType(t).(*types.Pointer); ok && wholeValue(ptr.Elem()) {
		fn = "ReadValue("
	}
	name := nameLiteral("*" + string(m.w.src[m.w.off(p.Pos()):m.w.off(p.End())]))
	m.w.replace(p, func(r *renderer, b *strings.Builder) {
		b.WriteString(rtName + "." + fn)
		m.w.sub(r, b, p)
		b.WriteString(", " + name + ")")
	})
}

// mapOp wraps map expression e in __rt.<fn>(e): a read or a write op of
// the map. Added before e's own edits, it is the outer one.
func (m *memPass) mapOp(e ast.Expr, fn string) {
	name := m.w.exprName(e)
	m.w.replace(e, func(r *renderer, b *strings.Builder) {
		b.WriteString(rtName + "." + fn + "(")
		m.w.sub(r, b, e)
		b.WriteString(", " + name + ")")
	})
}

// syncType reports whether t is a synchronisation type of sync or
// sync/atomic, or a pointer to one: their operations are ops already.
func syncType(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	switch n.Obj().Pkg().Path() {
	case "sync":
		return syncTypes[n.Obj().Name()]
	case "sync/atomic":
		return true
	}
	return false
}

var syncTypes = set("Mutex", "RWMutex", "WaitGroup", "Once", "Cond", "Map", "Pool")

// wholeValue reports whether t is a struct or an array of more than one
// field or element, flattened: its load or store as a whole is
// __rt.ReadValue or __rt.WriteValue, which also access the locations of
// its fields and elements other than the first.
func wholeValue(t types.Type) bool {
	return t != nil && leaves(t, 2) > 1
}

// leaves counts the fields and elements of t of no struct or array type,
// up to max.
func leaves(t types.Type, max int) int {
	switch u := types.Unalias(t).Underlying().(type) {
	case *types.Struct:
		n := 0
		for i := 0; i < u.NumFields() && n < max; i++ {
			n += leaves(u.Field(i).Type(), max-n)
		}
		return n
	case *types.Array:
		e := leaves(u.Elem(), max)
		if u.Len() == 0 {
			return 0
		}
		if e > 0 && u.Len() > 1 {
			return max
		}
		return e
	case *types.TypeParam:
		return 0
	}
	return 1
}
