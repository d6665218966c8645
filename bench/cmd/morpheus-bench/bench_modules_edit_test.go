package main

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// The body edit goes into the first function whose body spans lines and
// starts with a line break: not init, not a one-line body, not a body
// with a comment after its brace; the result still parses.
func TestBodyEdit(t *testing.T) {
	src := `package p

func init() {
	println()
}

func One() int { return 1 }

func Commented() { // why
	println()
}

func (r *R) Two() int {
	return 2
}
`
	out, fn, err := bodyEdit([]byte(src), 3)
	if err != nil {
		t.Fatal(err)
	}
	if fn != "Two" {
		t.Errorf("edited %s, want Two", fn)
	}
	if !strings.Contains(string(out), "func (r *R) Two() int {\n\t_ = 3 // morpheus bench modules") {
		t.Errorf("edit not at Two's start:\n%s", out)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "", out, 0); err != nil {
		t.Errorf("edited source does not parse: %v", err)
	}
	if _, _, err := bodyEdit([]byte("package p\n\nfunc F() { return }\n"), 1); err == nil {
		t.Error("a file of one-line bodies edited")
	}
}
