package rewrite

import (
	"go/ast"
	"go/types"
)

// reflectValueChan lists the methods of a reflect.Value that operate on a
// channel, with the rt function each becomes.
var reflectValueChan = map[string]string{
	"Len": "ValueLen", "Recv": "ValueRecv", "TryRecv": "ValueTryRecv",
	"Send": "ValueSend", "TrySend": "ValueTrySend", "Close": "ValueClose",
}

// reflectLen: v.Len() of a reflect.Value becomes __rt.ValueLen(v), which
// gives the length of the controlled channel when v holds a channel that
// rewritten code made (testify's assert.Len reads a channel's length so);
// likewise v.Recv(), v.TryRecv(), v.Send(x), v.TrySend(x) and v.Close()
// become __rt.ValueRecv(v) and so on, ops of the controlled channel (a
// generic fan-in or tee built on reflect, eapache/channels').
func (w *fileRewriter) reflectLen(c *ast.CallExpr, sel *ast.SelectorExpr) bool {
	s := w.info.Selections[sel]
	to := reflectValueChan[sel.Sel.Name]
	if s == nil || s.Kind() != types.MethodVal || to == "" || len(s.Index()) != 1 {
		return false
	}
	n, ok := types.Unalias(s.Recv()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "reflect" || n.Obj().Name() != "Value" {
		return false
	}
	w.wrapCall(c, rtName+"."+to+"(", sel.X)
	return true
}
