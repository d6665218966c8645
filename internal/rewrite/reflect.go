package rewrite

import (
	"go/ast"
	"go/types"
)

// reflectLen: v.Len() of a reflect.Value becomes __rt.ValueLen(v), which
// gives the length of the controlled channel when v holds a channel that
// rewritten code made (testify's assert.Len reads a channel's length so).
func (w *fileRewriter) reflectLen(c *ast.CallExpr, sel *ast.SelectorExpr) bool {
	s := w.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal || sel.Sel.Name != "Len" || len(s.Index()) != 1 {
		return false
	}
	n, ok := types.Unalias(s.Recv()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "reflect" || n.Obj().Name() != "Value" {
		return false
	}
	w.wrapCall(c, rtName+".ValueLen(", sel.X)
	return true
}
