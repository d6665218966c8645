// Package helpers has tests whose failures come from test helpers: under
// morpheus, as under go test, a failure is located at the first caller
// that is not a helper (t.Helper). The line numbers are cmd/morpheus's
// script test's: keep them.
package helpers

import "testing"

func check(t *testing.T, x int) {
	t.Helper()
	if x != 1 {
		t.Errorf("x = %d, want 1", x)
	}
}

func deeper(tb testing.TB, x int) {
	tb.Helper()
	check(tb.(*testing.T), x)
}

func scenario(t *testing.T) {
	check(t, 3) // line 22: not a helper, so here
}

func TestDeeper(t *testing.T) {
	check(t, 1)
	deeper(t, 2) // line 27
}

func TestScenario(t *testing.T) {
	scenario(t)
}

func TestAllHelpers(t *testing.T) {
	t.Helper()
	check(t, 4) // line 36: every frame up to the test is a helper
}

func TestFatalInClosure(t *testing.T) {
	func() {
		t.Helper()
		t.Fatalf("fatal")
	}() // line 43
}

func TestNoHelper(t *testing.T) {
	t.Logf("a line")
	t.Errorf("plain") // line 48
}
