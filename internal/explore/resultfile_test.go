package explore

import "testing"

// The result record names a test's package by import path, the same on any
// machine whatever the checkout's directory.
func TestPackagePath(t *testing.T) {
	if got := packagePath(); got != "github.com/morpheus-go/morpheus/internal/explore" {
		t.Fatalf("package path %q", got)
	}
	t.Chdir("../../trace")
	if got := packagePath(); got != "github.com/morpheus-go/morpheus/trace" {
		t.Fatalf("package path %q", got)
	}
}
