package rewrite

import (
	"go/ast"
	"go/types"
	"strings"
)

// mmapPackages are the packages whose Mmap and Munmap map memory outside
// Go's heap.
var mmapPackages = set("syscall", "golang.org/x/sys/unix")

// mmap: a call of syscall.Mmap or unix.Mmap becomes __rt.Mapped(<call>),
// and the argument of Munmap __rt.Unmapped(b): rt then knows the memory
// is not Go's heap, where it holds locations of plain memory weakly (a weak
// pointer to memory the runtime did not allocate stops the process).
func (w *fileRewriter) mmap(c *ast.CallExpr) bool {
	var id *ast.Ident
	switch f := ast.Unparen(c.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return false
	}
	fn, ok := w.info.Uses[id].(*types.Func)
	if !ok || fn.Pkg() == nil || !mmapPackages[fn.Pkg().Path()] || fn.Signature().Recv() != nil || w.deferred[c] {
		return false
	}
	switch {
	case fn.Name() == "Mmap" && fn.Signature().Results().Len() == 2:
		w.replace(c, func(r *renderer, b *strings.Builder) {
			b.WriteString(rtName + ".Mapped(")
			w.sub(r, b, c)
			b.WriteString(")")
		})
		return true
	case fn.Name() == "Munmap" && len(c.Args) == 1:
		w.replace(c.Args[0], func(r *renderer, b *strings.Builder) {
			b.WriteString(rtName + ".Unmapped(")
			w.sub(r, b, c.Args[0])
			b.WriteString(")")
		})
		return true
	}
	return false
}
