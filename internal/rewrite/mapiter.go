package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
	"strings"
)

// A range over a map whose keys Go can order (integers, floats, strings:
// cmp.Ordered) ranges over __rt.RangeMap(m) instead, which visits the keys
// in an order drawn from the schedule's seed (the same seed, and a replay,
// give the same order). Go randomizes a map's order on every loop, outside
// the seed, so without this a schedule that depends on it does not replay.
// Other maps (pointer, struct, interface keys: no order that is the same
// from one process to the next) are listed as sources of nondeterminism.
// In a file whose Go version predates range-over-func (go1.23) the loop
// becomes a three-clause for on the same line, over the same order
// (rangeMapOld).

// rangeMap rewrites or lists a range over a map.
func (w *fileRewriter) rangeMap(s *ast.RangeStmt) {
	t := w.typeOf(s.X)
	if t == nil {
		return
	}
	m, ok := coreType(t).(*types.Map)
	if !ok {
		return
	}
	if !orderedKey(m.Key()) {
		w.issue(s.Pos(), "range over a map: its order is random on every run, not chosen by the seed (nondeterminism if the schedule depends on it)")
		return
	}
	if !w.atLeast("go1.23") {
		w.rangeMapOld(s)
		return
	}
	// The edit starts at the range keyword: one of X's own span would
	// render itself.
	w.edits = append(w.edits, edit{start: w.off(s.Range), end: w.off(s.X.End()),
		emit: func(r *renderer, b *strings.Builder) {
			b.WriteString("range " + rtName + ".RangeMap(")
			w.sub(r, b, s.X)
			b.WriteString(")")
		}})
}

// rangeMapOld rewrites a range over a map in a file older than go1.23:
//
//	for k, v := range m {   ->  for k, v, __it1 := __rt.IterMap(m); __it1.Next(&k, &v); {
//	for k := range m {      ->  for k, __it1 := __rt.IterMapKeys(m); __it1.Next(&k, nil); {
//	for _, v := range m {   ->  for v, __it1 := __rt.IterMapValues(m); __it1.Next(nil, &v); {
//	for range m {           ->  for __it1 := __rt.IterMapOnly(m); __it1.Next(nil, nil); {
//	for k, v = range m {    ->  for __it1 := __rt.IterMapOnly(m); __it1.Next(nil, nil); { k, v = __it1.Key(), __it1.Value();
//
// The init declares the loop's variables once, as a range did before
// go1.22 (and a three-clause loop of go1.22 copies them per iteration, as
// its range does); labels, break and continue keep their meaning.
func (w *fileRewriter) rangeMapOld(s *ast.RangeStmt) {
	it := w.fresh("it")
	start := s.Range
	if s.Key != nil {
		start = s.Key.Pos()
	}
	key, val := s.Key != nil && !isBlank(s.Key), s.Value != nil && !isBlank(s.Value)
	define := s.Tok == token.DEFINE
	w.edits = append(w.edits, edit{start: w.off(start), end: w.off(s.X.End()),
		emit: func(r *renderer, b *strings.Builder) {
			call := func(name string) {
				fmt.Fprintf(b, "%s := %s.%s(", it, rtName, name)
				w.sub(r, b, s.X)
				b.WriteString("); ")
			}
			switch {
			case define && key && val:
				fmt.Fprintf(b, "%s, %s, ", s.Key.(*ast.Ident).Name, s.Value.(*ast.Ident).Name)
				call("IterMap")
				fmt.Fprintf(b, "%s.Next(&%s, &%s);", it, s.Key.(*ast.Ident).Name, s.Value.(*ast.Ident).Name)
			case define && key:
				fmt.Fprintf(b, "%s, ", s.Key.(*ast.Ident).Name)
				call("IterMapKeys")
				fmt.Fprintf(b, "%s.Next(&%s, nil);", it, s.Key.(*ast.Ident).Name)
			case define && val:
				fmt.Fprintf(b, "%s, ", s.Value.(*ast.Ident).Name)
				call("IterMapValues")
				fmt.Fprintf(b, "%s.Next(nil, &%s);", it, s.Value.(*ast.Ident).Name)
			default:
				call("IterMapOnly")
				fmt.Fprintf(b, "%s.Next(nil, nil);", it)
			}
		}})
	if define || (!key && !val) {
		return
	}
	at := w.off(s.Body.Lbrace) + 1
	w.edits = append(w.edits, edit{start: at, end: at, emit: func(r *renderer, b *strings.Builder) {
		b.WriteString(" ")
		var lhs, rhs []string
		for _, e := range []struct {
			x      ast.Expr
			ok     bool
			method string
		}{{s.Key, key, "Key"}, {s.Value, val, "Value"}} {
			if !e.ok {
				continue
			}
			var x strings.Builder
			w.sub(r, &x, e.x)
			lhs, rhs = append(lhs, x.String()), append(rhs, it+"."+e.method+"()")
		}
		fmt.Fprintf(b, "%s = %s;", strings.Join(lhs, ", "), strings.Join(rhs, ", "))
	}})
}

// orderedKey reports whether t's core type is an integer, float or string
// type, whose values cmp.Compare orders the same in every process.
func orderedKey(t types.Type) bool {
	b, ok := coreType(t).(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsFloat|types.IsString) != 0
}

// atLeast reports whether the file's Go version is v or later (a file
// whose version is unknown is taken to be recent).
func (w *fileRewriter) atLeast(v string) bool {
	fv := w.info.FileVersions[w.file]
	return fv == "" || version.Compare(fv, v) >= 0
}
