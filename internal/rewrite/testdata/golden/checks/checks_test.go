package checks

import (
	"testing"

	mph "github.com/morpheus-go/morpheus"
)

// Uses morpheus.Check (under another name): not wrapped; its goroutines are
// still rewritten.
func TestCheck(t *testing.T) {
	mph.Check(t, func(e *mph.Env) {
		for range Count(2) {
		}
	})
}

// Uses morpheus through a helper of its package: not wrapped.
func TestThroughHelper(t *testing.T) {
	explore(t)
}

func explore(t *testing.T) { check(t) }

func check(t *testing.T) {
	if _, err := mph.Explore(func(*mph.Env) {}, mph.Iterations(1)); err != nil {
		t.Fatal(err)
	}
}

// Names a morpheus type only: not wrapped either.
func TestEnvType(t *testing.T) {
	var f func(*mph.Env)
	_ = f
}

// Plain: wrapped.
func TestPlain(t *testing.T) {
	for range Count(3) {
	}
}
