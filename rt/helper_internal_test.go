package rt

import "testing"

// A walk up a test's stack stops at morpheus's own functions, not at the
// tests of morpheus's packages that run under rewrite.
func TestMorpheusFunc(t *testing.T) {
	for fn, want := range map[string]bool{
		"github.com/morpheus-go/morpheus.(*Env).Spawn":                           true,
		"github.com/morpheus-go/morpheus/rt.Test.func1":                          true,
		"github.com/morpheus-go/morpheus/internal/core.(*Task).runBody":          true,
		"github.com/morpheus-go/morpheus/cmd/morpheus/internal/clitest.TestPing": false,
		"github.com/morpheus-go/morpheusx/rt.Test":                               false,
		"example.com/helpers.check":                                              false,
		"github.com/morpheus-go/morpheus/rtx.F":                                  false,
	} {
		if got := morpheusFunc(fn); got != want {
			t.Errorf("morpheusFunc(%q) = %v, want %v", fn, got, want)
		}
	}
}
