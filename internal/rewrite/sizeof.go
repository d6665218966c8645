package rewrite

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"
)

// sizeof: unsafe.Sizeof(x), where x's type holds by value a type the
// rewriter replaces (sync.Mutex, sync.WaitGroup, time.Timer, … become
// morpheus's, which are larger), becomes the size Go gives the type as
// written: (uintptr(N) + 0*unsafe.Sizeof(x)). Code pads structs to a cache line with it
// (pad [64 - unsafe.Sizeof(bucket{})]byte, with a sync.Mutex in bucket),
// which would not build with the larger size (a negative array length),
// and tests check that padding. The struct itself is larger under
// control: only the constant keeps Go's value.
func (w *fileRewriter) sizeof(c *ast.CallExpr) bool {
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || len(c.Args) != 1 {
		return false
	}
	if b, ok := w.info.Uses[sel.Sel].(*types.Builtin); !ok || b.Name() != "Sizeof" {
		return false
	}
	tv := w.info.Types[c]
	if tv.Value == nil || tv.Value.Kind() != constant.Int || !holdsReplaced(w.typeOf(c.Args[0]), map[types.Type]bool{}) {
		return false
	}
	// The call stays, times 0, so that a variable it names is still used.
	n := tv.Value.ExactString()
	w.replace(c, func(r *renderer, b *strings.Builder) {
		b.WriteString("(uintptr(" + n + ") + 0*")
		w.sub(r, b, c)
		b.WriteString(")")
	})
	return true
}

// holdsReplaced reports whether a value of type t holds, in its own memory
// (fields and array elements, not what pointers, slices, maps or channels
// reach), a value of a standard-library type that the rewriter replaces.
func holdsReplaced(t types.Type, seen map[types.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if n, ok := types.Unalias(t).(*types.Named); ok {
		if obj := n.Obj(); obj.Pkg() != nil && redirect[obj.Pkg().Path()][obj.Name()] {
			return true
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := range u.NumFields() {
			if holdsReplaced(u.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Array:
		return holdsReplaced(u.Elem(), seen)
	}
	return false
}
