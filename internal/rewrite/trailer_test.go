package rewrite

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// The declarations the rewrite appends after a file's source (the call of
// rt.Rewritten, which the package's init runs) are at line 1 of the file
// whatever its length: appending a line to the source moves no code of the
// rewritten file, so the compiled package stays the same and the packages
// that import it need no recompiling, as under go test.
func TestTrailerLineIgnoresLength(t *testing.T) {
	base := "package p\n\nfunc Go(f func()) { go f() }\n"
	var lines []int
	for _, src := range []string{base, base + "\nvar _ = 1 // an edit\n", base + "\n\n\n// more\n"} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "/src/p/p.go", src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
			Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
			FileVersions: map[*ast.File]string{}}
		if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info); err != nil {
			t.Fatal(err)
		}
		rf, err := RewriteFile(fset, f, []byte(src), info, FileOptions{})
		if err != nil || !rf.Changed {
			t.Fatalf("rewrite: %v, changed %v", err, rf != nil && rf.Changed)
		}
		out := token.NewFileSet()
		g, err := parser.ParseFile(out, "/src/p/p.go", rf.Out, parser.ParseComments)
		if err != nil {
			t.Fatalf("%v:\n%s", err, rf.Out)
		}
		last := g.Decls[len(g.Decls)-1]
		p := out.Position(last.Pos())
		if p.Filename != "/src/p/p.go" {
			t.Errorf("the trailer is in %q, want the file's name", p.Filename)
		}
		lines = append(lines, p.Line)
	}
	if lines[0] != 1 || lines[1] != 1 || lines[2] != 1 {
		t.Errorf("the trailer's lines %v for sources of 3 lengths, want line 1 each", lines)
	}
}
