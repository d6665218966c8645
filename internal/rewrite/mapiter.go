package rewrite

import (
	"go/ast"
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
// from one process to the next), and files whose Go version predates
// range-over-func (go1.23), are listed as sources of nondeterminism.

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
	if !orderedKey(m.Key()) || !w.atLeast("go1.23") {
		w.issue(s.Pos(), "range over a map: its order is random on every run, not chosen by the seed (nondeterminism if the schedule depends on it)")
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
