package rewrite

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// A file of a module older than go1.22 keeps its language version under the
// build's newer go.mod: it gets a //go:build go1.21 line even when nothing
// else in it changes, so its loop variables stay shared by all iterations.
func TestOldModuleKeepsItsVersion(t *testing.T) {
	src := "package p\n\nfunc Sum(xs []int) (n int) {\n\tfor _, x := range xs {\n\t\tn += x\n\t}\n\treturn n\n}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "/src/p/p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{}}
	conf := types.Config{Importer: importer.Default(), GoVersion: "go1.21"}
	if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	for _, old := range []bool{false, true} {
		rf, err := RewriteFile(fset, f, []byte(src), info, FileOptions{NeedGo121: old})
		if err != nil {
			t.Fatal(err)
		}
		if !old {
			if rf.Changed {
				t.Errorf("a go1.22 file without ops was written out:\n%s", rf.Out)
			}
			continue
		}
		out := string(rf.Out)
		if !rf.Changed || !strings.HasPrefix(out, "//go:build go1.21\n") || !strings.Contains(out, "//line /src/p/p.go:1:1\n"+src) {
			t.Errorf("want the build line, the line directive and the source unchanged, got:\n%s", out)
		}
	}
}

// Its // +build lines are emptied where its //go:build line gets go1.21:
// the go command rejects +build lines that do not match.
func TestOldModulePlusBuild(t *testing.T) {
	src := "//go:build go1.20\n// +build go1.20\n\npackage p\n\nvar X = 1\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "/src/p/p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, FileVersions: map[*ast.File]string{}}
	if _, err := (&types.Config{GoVersion: "go1.20"}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	rf, err := RewriteFile(fset, f, []byte(src), info, FileOptions{NeedGo121: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "//go:build (go1.20) && go1.21\n//\n\npackage p\n\nvar X = 1\n"
	if string(rf.Out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", rf.Out, want)
	}
}

// A file compiled from another path (a module-cache file, through the
// overlay) names its original path in a //line directive with a column, so
// that a compile error in it is reported at its file:line:col, after a
// build line too.
func TestLineFileKeepsColumns(t *testing.T) {
	for _, build := range []string{"", "//go:build !plan9\n\n"} {
		src := build + "package p\n\nfunc Make(n int) chan int {\n\treturn make(chan int, n)\n}\n"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "/cache/mods/m@v1/p.go", src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
			Uses: map[*ast.Ident]types.Object{}, FileVersions: map[*ast.File]string{}}
		if _, err := (&types.Config{GoVersion: "go1.20"}).Check("p", fset, []*ast.File{f}, info); err != nil {
			t.Fatal(err)
		}
		rf, err := RewriteFile(fset, f, []byte(src), info, FileOptions{NeedGo121: true, LineFile: "/mod/m@v1/p.go"})
		if err != nil {
			t.Fatal(err)
		}
		ofset := token.NewFileSet()
		out, err := parser.ParseFile(ofset, "/cache/files/x.go", rf.Out, parser.ParseComments)
		if err != nil {
			t.Fatalf("%v:\n%s", err, rf.Out)
		}
		var last *ast.Ident // the n of make's size
		ast.Inspect(out, func(x ast.Node) bool {
			if id, ok := x.(*ast.Ident); ok && id.Name == "n" {
				last = id
			}
			return true
		})
		got := ofset.Position(last.Pos())
		if want := strings.Count(build, "\n") + 4; got.Filename != "/mod/m@v1/p.go" || got.Line != want || got.Column == 0 {
			t.Errorf("build line %q: n at %s, want /mod/m@v1/p.go:%d with a column, in:\n%s", build, got, want, rf.Out)
		}
	}
}
