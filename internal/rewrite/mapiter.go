package rewrite

import (
	"go/ast"
	"go/types"
)

// Map iteration is not rewritten: a range over a map is listed as a
// source of nondeterminism instead.

// rangeMap lists a range over a map: Go randomizes its order on every
// loop, outside the seed, so a schedule that depends on it does not replay.
func (w *fileRewriter) rangeMap(s *ast.RangeStmt) {
	if t := w.typeOf(s.X); t != nil {
		if _, ok := coreType(t).(*types.Map); ok {
			w.issue(s.Pos(), "range over a map: its order is random on every run, not chosen by the seed (nondeterminism if the schedule depends on it)")
		}
	}
}
