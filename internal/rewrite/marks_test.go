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

// With Marks, each function with a body marks its entry, on the brace's
// line, and each closure inside it marks the same function; init, _, a
// function with a //go: directive and a test file have no marks; the
// array and its registration come after the source, at line 1; a method's
// mark is named after its receiver's type, generic or not.
func TestMarks(t *testing.T) {
	src := `package p

import "sync"

type S[T any] struct{ mu sync.Mutex }

func init() { println() }

func (s *S[T]) Lock() func() {
	s.mu.Lock()
	return func() { s.mu.Unlock() }
}

func F() int {
	return 1
}

//go:noinline
func G() {}

func _() {}
`
	rewrite := func(opts FileOptions) string {
		t.Helper()
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "/src/p/p.go", src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
			Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
			Instances: map[*ast.Ident]types.Instance{}, FileVersions: map[*ast.File]string{}}
		if _, err := (&types.Config{Importer: importer.Default()}).Check("example.com/p", fset, []*ast.File{f}, info); err != nil {
			t.Fatal(err)
		}
		rf, err := RewriteFile(fset, f, []byte(src), info, opts)
		if err != nil {
			t.Fatal(err)
		}
		return string(rf.Out)
	}
	out := rewrite(FileOptions{Marks: true})
	lines := strings.Split(out, "\n")
	for i, want := range map[int]string{
		6:  "func init() { println() }",
		8:  "func (s *S[T]) Lock() func() { __rt.Mark(&__marks",
		10: "return func() { __rt.Mark(&__marks",
		13: "func F() int { __rt.Mark(&__marks",
		18: "func G() {}",
		20: "func _() {}",
	} {
		if i >= len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[i]), want) {
			t.Errorf("line %d: %q, want it to start with %q", i+1, lines[i], want)
		}
	}
	if !strings.Contains(lines[8], "[0]);") || !strings.Contains(lines[10], "[0]);") || !strings.Contains(lines[13], "[1]);") {
		t.Errorf("marks' indices: %q %q %q", lines[8], lines[10], lines[13])
	}
	if !strings.Contains(out, "//line :1:1\n") || !strings.Contains(out, `.Marks("example.com/p", []string{"S.Lock", "F"}, __marks`) {
		t.Errorf("no registration after the source:\n%s", out)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "", out, 0); err != nil {
		t.Errorf("the rewritten file does not parse: %v\n%s", err, out)
	}
	for _, opts := range []FileOptions{{}, {Marks: true, Test: true}} {
		if out := rewrite(opts); strings.Contains(out, "Mark") {
			t.Errorf("marks with %+v:\n%s", opts, out)
		}
	}
}
