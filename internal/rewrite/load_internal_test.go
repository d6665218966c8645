package rewrite

import (
	"reflect"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestErrorLines: a compile error the go command reports for a package it
// built for export data comes as its lines without the "# path" header, so
// that the type checker's report of the same line counts once.
func TestErrorLines(t *testing.T) {
	for _, c := range []struct {
		e    packages.Error
		want []string
	}{
		{packages.Error{Msg: "# m/p [m/p.test]\np/x_test.go:5:32: undefined: y\n"}, []string{"p/x_test.go:5:32: undefined: y"}},
		{packages.Error{Pos: "p/x_test.go:5:32", Msg: "undefined: y"}, []string{"p/x_test.go:5:32: undefined: y"}},
		{packages.Error{Msg: "no Go files"}, []string{"no Go files"}},
	} {
		if got := errorLines(c.e, "."); !reflect.DeepEqual(got, c.want) {
			t.Errorf("errorLines(%+v) = %q, want %q", c.e, got, c.want)
		}
	}
}
