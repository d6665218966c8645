package sct

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every case has its buggy and fixed tests in the plain module, and the
// module has no other tests.
func TestPlainTestsExist(t *testing.T) {
	dir, err := PlainDir()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	tests := map[string]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") {
				tests[fn.Name.Name] = true
			}
		}
	}
	for _, c := range Cases() {
		buggy, fixed := PlainTests(c.Name)
		for _, name := range []string{buggy, fixed} {
			if !tests[name] {
				t.Errorf("%s: no %s in %s", c.Name, name, dir)
			}
			delete(tests, name)
		}
	}
	for name := range tests {
		t.Errorf("%s is no case's test", name)
	}
}
